/**
 * Prompt caching on OpenAI: a stable `prompt_cache_key` per session window on Responses requests
 * (through the real `@ai-sdk/openai` package against a local fake of `POST /v1/responses`), the
 * cached tokens the API reports as stored and shown, a server that refuses the key, and nothing at
 * all for an OpenAI-compatible server (the real `@ai-sdk/openai-compatible` against a local one).
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { describe, expect, it } from "vitest";
import { readStepMetadata } from "../core/rollover/step-usage.js";
import { promptCacheKeyFor } from "./cache-hints.js";
import { startOpenAICompatibleServer } from "./test-support/openai-compatible-server.js";
import type { ResponsesRequestBody, ResponsesScriptedResponse } from "./test-support/openai-responses-server.js";
import { responsesSession } from "./test-support/openai-responses-session.js";
import { closeAfterEach, providerSession } from "./test-support/provider-session.js";

const closedAfterTest = closeAfterEach();
const buildSession = (script: Parameters<typeof responsesSession>[0]) =>
  responsesSession(script, { sessionId: "build-42" });

describe("prompt caching on OpenAI", () => {
  it("sends one prompt_cache_key for every request of a window, a new one in the next window, and never the session id itself", async () => {
    const { session, server } = await buildSession([{ text: "Done." }]);
    await session.send("First.");
    await session.send("Second.");
    const { windowId } = await session.clear({ soft: true });
    await session.send("Third.");
    const keys = server.requests.map((body) => body["prompt_cache_key"]);
    expect(keys).toEqual([
      promptCacheKeyFor("build-42", "w:0"),
      promptCacheKeyFor("build-42", "w:0"),
      promptCacheKeyFor("build-42", windowId),
    ]);
    expect(keys[2]).not.toBe(keys[0]);
    for (const key of keys) {
      expect(String(key)).not.toContain("build-42");
      expect(String(key).length).toBeLessThanOrEqual(64);
    }
    // The request stays self-contained (ADR 0027).
    expect(server.requests.every((body) => body.store === false)).toBe(true);
  });

  it("stores the cached tokens the API reports and shows them in the usage event and session.usage()", async () => {
    const script: ResponsesScriptedResponse[] = [
      { text: "One.", inputTokens: 2_000, outputTokens: 10 },
      { text: "Two.", inputTokens: 2_100, cachedTokens: 1_920, outputTokens: 10 },
    ];
    const { session, store, usage } = await buildSession(script);
    await session.send("First.");
    const result = await session.send("Second.");
    const steps = (await store.activeWindow("build-42")).rows
      .filter((row) => row.role === "assistant")
      .map((row) => readStepMetadata(row)!);
    expect(steps.map((step) => step.usage)).toEqual([
      { inputTokens: 2_000, outputTokens: 10, cacheReadTokens: 0 },
      { inputTokens: 2_100, outputTokens: 10, cacheReadTokens: 1_920 },
    ]);
    expect(steps.map((step) => step.cache)).toEqual([
      { provider: "openai", promptCacheKey: true },
      { provider: "openai", promptCacheKey: true },
    ]);
    expect(usage.map((event) => event.contextTokens)).toEqual([2_000, 2_100]);
    // GPT-4.1: $2 input, $0.50 cached input, $8 output per million tokens.
    expect(usage[1]).toMatchObject({ cacheReadTokens: 1_920, cacheWriteTokens: 0, cachedShare: 1_920 / 2_100 });
    expect(usage[1]!.costUsd).toBeCloseTo((180 * 2 + 1_920 * 0.5 + 10 * 8) / 1_000_000, 12);
    expect(result.usage).toMatchObject({ inputTokens: 2_100, cacheReadTokens: 1_920 });
    expect((await session.usage()).window).toMatchObject({
      requests: 2,
      inputTokens: 4_100,
      cacheReadTokens: 1_920,
      cachedShare: 1_920 / 4_100,
    });
  });

  it("sends the request again without prompt_cache_key when a server refuses it, warns once and records it", async () => {
    const refusal: ResponsesScriptedResponse = {
      status: 400,
      error: {
        message: "Unrecognized request argument supplied: prompt_cache_key",
        type: "invalid_request_error",
        param: "prompt_cache_key",
      },
    };
    const { session, server, store, warnings } = await buildSession((body: ResponsesRequestBody) =>
      body["prompt_cache_key"] === undefined ? { text: "Answered." } : refusal,
    );
    const results = [await session.send("First."), await session.send("Second.")];
    expect(results.map((result) => [result.status, result.text])).toEqual([
      ["completed", "Answered."],
      ["completed", "Answered."],
    ]);
    expect(server.requests.map((body) => body["prompt_cache_key"] !== undefined)).toEqual([true, false, false]);
    const steps = (await store.activeWindow("build-42")).rows
      .filter((row) => row.role === "assistant")
      .map((row) => readStepMetadata(row)!);
    expect(steps[0]!.cache).toEqual({
      provider: "openai",
      dropped: [{ reason: "rejected", detail: expect.stringContaining("prompt_cache_key") }],
    });
    expect(warnings.filter((warning) => warning.includes("prompt-cache hints"))).toHaveLength(1);
  });

  it("sends no cache option to an OpenAI-compatible server, and shows its usage as tokens only (no known price)", async () => {
    const compatible = closedAfterTest(await startOpenAICompatibleServer({ script: [{ text: "Hello." }] }));
    const provider = createOpenAICompatible({ name: "local", baseURL: compatible.baseURL, includeUsage: true });
    const { session, store } = providerSession({
      model: provider.chatModel("qwen3:8b"),
      budget: { contextLimit: 32_000 },
      maxRetries: 0,
    });
    const result = await session.send("Hi.");
    expect(result.status).toBe("completed");
    const body = JSON.stringify(compatible.requests[0]!.body);
    expect(body).not.toMatch(/prompt_cache|cache_control|cacheControl/);
    const step = readStepMetadata((await store.activeWindow("s")).rows.at(-1)!)!;
    expect(step.cache).toBeUndefined();
    // Tokens only: no public price is known for a local model.
    expect((await session.usage()).window).toMatchObject({ requests: 1, costUsd: null, uncachedCostUsd: null });
  });
});
