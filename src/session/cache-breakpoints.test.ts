import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { MAX_CACHE_BREAKPOINTS, placeAnthropicBreakpoints } from "./cache-breakpoints.js";

const long = "word ".repeat(2_000);
const ephemeral = { anthropic: { cacheControl: { type: "ephemeral" } } };

function params(
  prompt: LanguageModelV4Prompt,
  tools: LanguageModelV4CallOptions["tools"] = [],
): LanguageModelV4CallOptions {
  return { prompt, tools };
}

/** system, a first turn with one tool step, and a second step. */
const steps: LanguageModelV4Prompt = [
  { role: "system", content: `You are terse. ${long}` },
  { role: "user", content: [{ type: "text", text: "Read a.md" }] },
  { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "read", input: { path: "a.md" } }] },
  {
    role: "tool",
    content: [{ type: "tool-result", toolCallId: "c1", toolName: "read", output: { type: "text", value: long } }],
  },
  { role: "assistant", content: [{ type: "tool-call", toolCallId: "c2", toolName: "read", input: { path: "b.md" } }] },
  {
    role: "tool",
    content: [{ type: "tool-result", toolCallId: "c2", toolName: "read", output: { type: "text", value: "b" } }],
  },
];

const markedIndexes = (prompt: LanguageModelV4Prompt) =>
  prompt.flatMap((message, index) =>
    message.providerOptions?.["anthropic"]?.["cacheControl"] === undefined ? [] : [index],
  );

describe("placeAnthropicBreakpoints", () => {
  it("marks the newest message, the end of the system prompt and the end of the previous request", () => {
    const plan = placeAnthropicBreakpoints({ params: params(steps), minimumTokens: 1024 });
    expect(plan.placed).toBe(3);
    expect(plan.dropped).toEqual([]);
    // 5: newest (tool results), 0: system, 3: the previous request ended with the first tool results.
    expect(markedIndexes(plan.params.prompt)).toEqual([0, 3, 5]);
    expect(plan.params.prompt[5]!.providerOptions).toEqual(ephemeral);
  });

  it("sets the TTL on every breakpoint it places and leaves the caller's other provider options alone", () => {
    const prompt: LanguageModelV4Prompt = [
      { role: "system", content: long },
      {
        role: "user",
        content: [{ type: "text", text: "Hi" }],
        providerOptions: { anthropic: { sendReasoning: true } },
      },
    ];
    const plan = placeAnthropicBreakpoints({ params: params(prompt), ttl: "1h" });
    expect(plan.params.prompt[1]!.providerOptions).toEqual({
      anthropic: { sendReasoning: true, cacheControl: { type: "ephemeral", ttl: "1h" } },
    });
    expect(plan.params.prompt[0]!.providerOptions).toEqual({
      anthropic: { cacheControl: { type: "ephemeral", ttl: "1h" } },
    });
    // The caller's call options are not changed in place.
    expect(prompt[1]!.providerOptions).toEqual({ anthropic: { sendReasoning: true } });
  });

  it("never places more than 4 in all: the caller's own breakpoints count, and the least valuable of ctxwin's are dropped with a reason", () => {
    const tools: LanguageModelV4CallOptions["tools"] = [
      { type: "function", name: "a", inputSchema: { type: "object" }, providerOptions: ephemeral },
      { type: "function", name: "b", inputSchema: { type: "object" }, providerOptions: ephemeral },
    ];
    const plan = placeAnthropicBreakpoints({ params: params(steps, tools) });
    expect(plan.placed).toBe(MAX_CACHE_BREAKPOINTS - 2);
    // The newest message and the system prompt are kept; the previous request's end is dropped.
    expect(markedIndexes(plan.params.prompt)).toEqual([0, 5]);
    expect(plan.dropped).toEqual([
      { reason: "breakpoint-limit", detail: expect.stringContaining("2 breakpoint(s) set by the caller") },
    ]);
  });

  it("places none when the caller already uses all 4", () => {
    const tools: LanguageModelV4CallOptions["tools"] = ["a", "b", "c", "d"].map((name) => ({
      type: "function",
      name,
      inputSchema: { type: "object" },
      providerOptions: ephemeral,
    }));
    const plan = placeAnthropicBreakpoints({ params: params(steps, tools) });
    expect(plan.placed).toBe(0);
    expect(plan.params.prompt).toBe(steps);
    expect(plan.dropped.map((drop) => drop.reason)).toEqual(["breakpoint-limit"]);
  });

  it("counts a message the caller marked as the caller's, not as one of its own", () => {
    const prompt: LanguageModelV4Prompt = steps.map((message, index) =>
      index === steps.length - 1 ? { ...message, providerOptions: ephemeral } : message,
    );
    const plan = placeAnthropicBreakpoints({ params: params(prompt) });
    expect(plan.placed).toBe(2);
    expect(markedIndexes(plan.params.prompt)).toEqual([0, 3, 5]);
  });

  it("leaves out a breakpoint whose prefix is under the model's minimum cacheable length, and says so", () => {
    const short: LanguageModelV4Prompt = [
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "Hi" }] },
    ];
    const plan = placeAnthropicBreakpoints({ params: params(short), minimumTokens: 1024 });
    expect(plan.placed).toBe(0);
    expect(plan.params.prompt).toBe(short);
    expect(plan.dropped.map((drop) => drop.reason)).toEqual(["below-minimum", "below-minimum"]);
    expect(plan.dropped[0]!.detail).toContain("minimum of 1024");
  });

  it("never marks an assistant message (its last block may be thinking, which cannot be cached)", () => {
    const prefill: LanguageModelV4Prompt = [
      ...steps,
      { role: "assistant", content: [{ type: "reasoning", text: "hmm" }] },
    ];
    const plan = placeAnthropicBreakpoints({ params: params(prefill) });
    expect(markedIndexes(plan.params.prompt)).not.toContain(prefill.length - 1);
  });
});
