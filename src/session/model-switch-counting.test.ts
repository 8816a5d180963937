/**
 * Rows cache a model-independent count (`countRowTokens`); the per-model counting (encoding,
 * provider factor, framing) is applied when a request is estimated. So after `setModel` the next
 * request is estimated in the new model's counting, from the same cached rows.
 */
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { countRowTokens } from "../core/budget/message-tokens.js";
import { countEncodedTokens, tokenizerProfileFor } from "../core/budget/token-count.js";
import { readStepMetadata } from "../core/rollover/step-usage.js";
import { createAgentSession } from "./create-agent-session.js";
import { scriptedModel } from "./test-support/scripted-model.js";
import { deterministic, memoryStore } from "./test-support/session-fixture.js";

/** o200k_base tokens of the text and tool definitions a provider received, counted without any of ctxwin's estimates. */
function independentTokens(options: LanguageModelV4CallOptions): number {
  let total = 0;
  for (const message of options.prompt) {
    if (message.role === "system") total += countEncodedTokens(message.content);
    else for (const part of message.content) if (part.type === "text") total += countEncodedTokens(part.text);
  }
  for (const definition of options.tools ?? []) total += countEncodedTokens(JSON.stringify(definition));
  return total;
}

const words = (count: number, stem: string) =>
  Array.from({ length: count }, (_, index) => `${stem}${index % 97}`).join(" ");

describe("switching the model", () => {
  it("estimates the next request in the new model's counting, while the cached tokens of old rows stay as they were", async () => {
    const store = memoryStore();
    const openai = scriptedModel({
      script: () => ({ text: words(300, "answer") }),
      provider: "openai.chat",
      modelId: "gpt-4o",
    });
    const anthropic = scriptedModel({
      script: () => ({ text: "done" }),
      provider: "anthropic.messages",
      modelId: "claude-sonnet-4-5",
    });
    const session = createAgentSession({
      store,
      sessionId: "s",
      model: openai.model,
      system: "You answer questions.",
      logWarning: () => undefined,
      ...deterministic(),
    });

    // A long first input: the second request consists mostly of rows counted and cached under gpt-4o.
    await session.send(words(4_000, "question"));
    const before = (await store.activeWindow("s")).rows;
    const openaiEstimate = readStepMetadata(before.at(-1)!)!.estimatedInputTokens!;
    const openaiRequest = independentTokens(openai.model.doStreamCalls[0]!);

    await session.setModel(anthropic.model);
    await session.send("And then?");
    const after = (await store.activeWindow("s")).rows;
    const anthropicStep = after.at(-1)!;
    expect(readStepMetadata(anthropicStep)?.model).toBe("anthropic.messages:claude-sonnet-4-5");
    const anthropicEstimate = readStepMetadata(anthropicStep)!.estimatedInputTokens!;
    const anthropicRequest = independentTokens(anthropic.model.doStreamCalls[0]!);

    // gpt-4o is counted exactly in o200k_base; Claude gets the budget engine's Anthropic factor on top.
    const anthropicFactor = tokenizerProfileFor({ model: "anthropic:claude-sonnet-4-5" }).factor;
    expect(anthropicFactor).toBeGreaterThan(1.2);
    // (Framing and tool-schema rendering differ slightly from the test's own count: 2% either way.)
    expect(openaiEstimate / openaiRequest).toBeGreaterThan(0.98);
    expect(openaiEstimate / openaiRequest).toBeLessThan(1.02);
    expect(anthropicEstimate / anthropicRequest).toBeGreaterThan(anthropicFactor * 0.98);
    expect(anthropicEstimate / anthropicRequest).toBeLessThan(anthropicFactor * 1.02);

    // The rows written before the switch keep their cached, model-independent counts.
    for (const row of before) {
      const same = after.find((candidate) => candidate.seq === row.seq);
      expect(same?.tokens).toBe(row.tokens);
      if (row.tokens !== undefined) expect(row.tokens).toBe(countRowTokens(row));
    }
    expect(before.filter((row) => row.tokens !== undefined).length).toBeGreaterThanOrEqual(2);
  });
});
