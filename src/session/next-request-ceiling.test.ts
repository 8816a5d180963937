/**
 * After a settled step the budget is judged on the next request as it will be built, not only on
 * the provider's last reported figure: a provider that reports far fewer input tokens than the
 * request holds (or notes that grew mid-turn) must lead to a rollover at the step boundary, never
 * to a request refused over the ceiling that fails the turn.
 */
import { describe, expect, it } from "vitest";
import { countEncodedTokens } from "../core/budget/token-count.js";
import { createAgentSession } from "./create-agent-session.js";
import { deterministic, memoryStore, readTool } from "./test-support/session-fixture.js";
import { scriptedModel } from "./test-support/scripted-model.js";

const LIMIT = 16_000;
const CEILING = 12_000;

describe("the after-step budget check uses the next request as built", () => {
  it("rolls over instead of failing when the provider under-reports its input tokens", async () => {
    const files = Object.fromEntries(
      Array.from({ length: 12 }, (_, index) => [
        `part-${index}.txt`,
        `Part ${index}. ${"alpha beta gamma delta ".repeat(500)}`,
      ]),
    );
    const names = Object.keys(files);
    let next = 0;
    // Every step reports 100 input tokens, far below what each request really holds.
    const { model, calls } = scriptedModel({
      script: () =>
        next < names.length
          ? { toolCalls: [{ toolName: "read", input: { path: names[next++] } }], inputTokens: 100 }
          : { text: "done", inputTokens: 100 },
      provider: "openai.chat",
      modelId: "gpt-4o",
    });
    const session = createAgentSession({
      store: memoryStore(),
      sessionId: "under-reporting",
      model,
      tools: { read: readTool(files) },
      budget: { contextLimit: LIMIT },
      maxTurnsPerSend: 40,
      ...deterministic(),
    });

    const result = await session.send("Read every part in order.");

    expect(result.status).toBe("completed");
    expect(result.rollovers.length).toBeGreaterThanOrEqual(1);
    expect(result.rollovers.every((rollover) => rollover.reason === "mid-stream")).toBe(true);
    // Counted independently of the session's estimates (the flattened request text): none passed the ceiling.
    const largest = Math.max(...calls.map((call) => countEncodedTokens(call.text)));
    expect(largest).toBeLessThan(CEILING);
  });
});
