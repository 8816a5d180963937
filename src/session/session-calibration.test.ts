import { describe, expect, it } from "vitest";
import { countTokens } from "../core/budget/token-count.js";
import { readStepMetadata } from "../core/rollover/step-usage.js";
import { scriptedModel } from "./test-support/scripted-model.js";
import { memoryStore } from "./test-support/session-fixture.js";
import { budgetSession, systemOfTokens } from "./test-support/rollover-setup.js";

describe("calibration against reported input tokens", () => {
  it("scales the session's own estimates by what the provider reports, and a new session object learns it again from stored rows", async () => {
    const store = memoryStore();
    const answer = Array.from({ length: 400 }, (_, index) => `fact${index}`).join(" ");
    const answerTokens = countTokens(answer, { model: "mock:scripted" });
    // A provider that counts about 1.5× what we estimate: the request is the ~4,000-token system
    // prompt, the tool definitions (~1,000) and one short user row.
    const { model } = scriptedModel({
      script: (call) => ({
        text: answer,
        inputTokens: Math.ceil(1.5 * (countTokens(call.text, { model: "mock:scripted" }) + 1_000)),
      }),
    });
    const first = budgetSession({ store, model, system: systemOfTokens(4_000) });
    await first.send("question");

    const { rows } = await store.activeWindow("s");
    const step = readStepMetadata(rows.at(-1)!);
    const estimated = step!.estimatedInputTokens!;
    expect(estimated).toBeGreaterThan(4_000);
    const reported = step!.usage.inputTokens!;
    const ratio = reported / estimated;
    expect(ratio).toBeGreaterThan(1.3);
    const usage = await first.usage();
    // The answer is not in the reported figure; our estimate of it is scaled by the learned ratio.
    expect(usage.contextTokens - reported).toBeGreaterThanOrEqual(Math.floor(ratio * answerTokens));

    const restarted = budgetSession({ store, model, system: systemOfTokens(4_000) });
    expect((await restarted.usage()).contextTokens).toBe(usage.contextTokens);
  });
});
