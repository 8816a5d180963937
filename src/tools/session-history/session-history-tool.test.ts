/**
 * The tool inside a real AI SDK `generateText` loop with a scripted model: the SDK parses the
 * model's tool input with the tool's schema, runs `execute`, and sends the result back. Wrong
 * types must come back to the model as session_history error results (not SDK validation errors).
 */
import { generateText, stepCountIs, type ModelMessage } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { HISTORY_LABEL } from "../../core/history-view/limits.js";
import { openStore } from "../../store/open-store.js";
import { sessionHistoryTool } from "./session-history-tool.js";
import * as rows from "./test-support/history-rows.js";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A model that makes one session_history call with `input` (raw JSON text), then answers. */
function scriptedModel(input: string) {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      step += 1;
      if (step === 1) {
        return {
          content: [{ type: "tool-call", toolCallId: "call-1", toolName: "session_history", input }],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: "text", text: "done" }],
        finishReason: { unified: "stop", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

/** The tool result the model received in its second request. */
function toolResultSent(model: MockLanguageModelV4): unknown {
  const prompt = model.doGenerateCalls[1]?.prompt as ModelMessage[] | undefined;
  const toolMessage = prompt?.find((message) => message.role === "tool");
  const part = Array.isArray(toolMessage?.content) ? toolMessage.content[0] : undefined;
  return part !== undefined && "output" in part ? part.output : undefined;
}

describe("session_history in an AI SDK generateText loop", () => {
  it("executes a valid call and returns its result to the model", async () => {
    const store = openStore({ backend: "memory" });
    await store.append("s1", [rows.userText("the deploy key is in vault/deploy")]);
    const model = scriptedModel(
      JSON.stringify({
        action: "search",
        query: "deploy key",
        mode: null,
        window_id: null,
        before_item: null,
        limit: null,
        offset: null,
      }),
    );
    await generateText({
      model,
      tools: { session_history: sessionHistoryTool({ store, sessionId: "s1" }) },
      prompt: "find it",
      stopWhen: stepCountIs(3),
    });
    const output = toolResultSent(model) as { type: string; value: { ok: boolean; hits: { snippet: string }[] } };
    expect(output.type).toBe("json");
    expect(output.value.ok).toBe(true);
    expect(output.value.hits.map((hit) => hit.snippet)).toEqual(["the deploy key is in vault/deploy"]);
  });

  it("answers wrong types with the tool's own error result, not an SDK validation error", async () => {
    const store = openStore({ backend: "memory" });
    await store.append("s1", [rows.userText("hello")]);
    const model = scriptedModel(JSON.stringify({ action: "read_item", item_id: { seq: 1 }, limit_chars: "lots" }));
    await generateText({
      model,
      tools: { session_history: sessionHistoryTool({ store, sessionId: "s1" }) },
      prompt: "read",
      stopWhen: stepCountIs(3),
    });
    const output = toolResultSent(model) as {
      type: string;
      value: { ok: boolean; label: string; error: { code: string; message: string } };
    };
    expect(output.type).toBe("json");
    expect(output.value).toMatchObject({ ok: false, label: HISTORY_LABEL, error: { code: "invalid_input" } });
    expect(output.value.error.message).toContain("item_id must be an item id");
    expect(output.value.error.message).toContain('limit_chars must be an integer from 1 to 16000; got "lots"');
  });
});
