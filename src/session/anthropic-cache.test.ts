/**
 * Prompt caching through the real `@ai-sdk/anthropic` package against a local fake of the
 * Messages API: the `cache_control` breakpoints each request body carries, the cache reads and
 * writes the API reports as stored and shown, and the bad inputs (a refusal, too many
 * breakpoints, a prefix under the model's minimum) that never fail a request.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readStepMetadata } from "../core/rollover/step-usage.js";
import type { AgentSessionOptions } from "./session-types.js";
import {
  startAnthropicMessagesServer,
  type AnthropicRequestBody,
  type AnthropicScriptedResponse,
} from "./test-support/anthropic-messages-server.js";
import { closeAfterEach, providerSession } from "./test-support/provider-session.js";
import type { memoryStore } from "./test-support/session-fixture.js";

const closedAfterTest = closeAfterEach();

/** Long enough to pass Claude Sonnet 4.5's minimum cacheable length (1,024 tokens) by itself. */
const LONG_SYSTEM = `You are a careful assistant. ${"Keep every answer short and exact. ".repeat(130)}`;

async function anthropicSession(
  script: Parameters<typeof startAnthropicMessagesServer>[0]["script"],
  options: Partial<AgentSessionOptions> = {},
  modelId = "claude-sonnet-4-5",
) {
  const server = closedAfterTest(await startAnthropicMessagesServer({ script }));
  const provider = createAnthropic({ baseURL: server.baseURL, apiKey: "test-key" });
  return { server, ...providerSession({ model: provider(modelId), system: LONG_SYSTEM, maxRetries: 0, ...options }) };
}

/** Every `cache_control` in a request body, with where it sits. */
function breakpointsOf(body: AnthropicRequestBody): Array<{ at: string; cacheControl: unknown }> {
  const found: Array<{ at: string; cacheControl: unknown }> = [];
  const visit = (value: unknown, at: string) => {
    if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${at}[${index}]`));
    else if (typeof value === "object" && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === "cache_control" && inner !== undefined && inner !== null) found.push({ at, cacheControl: inner });
        else visit(inner, `${at}.${key}`);
      }
    }
  };
  visit({ tools: body["tools"], system: body.system, messages: body.messages }, "body");
  return found;
}

const stepsOf = async (store: ReturnType<typeof memoryStore>) =>
  (await store.activeWindow("s")).rows.filter((row) => row.role === "assistant").map((row) => readStepMetadata(row)!);

describe("prompt caching through @ai-sdk/anthropic against a local Messages API", () => {
  it("marks the system prompt and the newest message, then also the previous request's end; stores the reads and writes the API reports", async () => {
    const script: AnthropicScriptedResponse[] = [
      { text: "First.", inputTokens: 12, cacheWriteTokens: 1_500, outputTokens: 10 },
      { text: "Second.", inputTokens: 20, cacheReadTokens: 1_500, cacheWriteTokens: 30, outputTokens: 10 },
    ];
    const { session, server, store, usage } = await anthropicSession(script);
    await session.send("Hi.");
    const result = await session.send("Again.");
    expect(result.status).toBe("completed");

    const [first, second] = server.requests.map(breakpointsOf);
    expect(first).toEqual([
      { at: "body.system[0]", cacheControl: { type: "ephemeral" } },
      { at: "body.messages[0].content[0]", cacheControl: { type: "ephemeral" } },
    ]);
    // The second request reads what the first wrote: the breakpoint at the end of the first request stays.
    expect(second!.map((breakpoint) => breakpoint.at)).toEqual([
      "body.system[0]",
      "body.messages[0].content[0]",
      "body.messages[2].content[0]",
    ]);

    const steps = await stepsOf(store);
    expect(steps.map((step) => step.usage)).toEqual([
      { inputTokens: 1_512, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 1_500 },
      { inputTokens: 1_550, outputTokens: 10, cacheReadTokens: 1_500, cacheWriteTokens: 30 },
    ]);
    expect(steps.map((step) => step.cache)).toEqual([
      { provider: "anthropic", breakpoints: 2 },
      { provider: "anthropic", breakpoints: 3 },
    ]);
    // The budget reads the whole input, cached tokens included once.
    expect(usage.map((event) => event.contextTokens)).toEqual([1_512, 1_550]);
    // Claude Sonnet 4.5: $3 input, $3.75 cache write, $0.30 cache read, $15 output per million tokens.
    const secondCost = (20 * 3 + 1_500 * 0.3 + 30 * 3.75 + 10 * 15) / 1_000_000;
    expect(usage[1]).toMatchObject({ cacheReadTokens: 1_500, cacheWriteTokens: 30, cachedShare: 1_500 / 1_550 });
    expect(usage[1]!.costUsd).toBeCloseTo(secondCost, 12);
    expect(result.usage).toMatchObject({ inputTokens: 1_550, cacheReadTokens: 1_500, cacheWriteTokens: 30, steps: 1 });

    const window = (await session.usage()).window!;
    expect(window).toMatchObject({ requests: 2, inputTokens: 3_062, cacheReadTokens: 1_500, cacheWriteTokens: 1_530 });
    expect(window.costUsd).toBeCloseTo((12 * 3 + 1_500 * 3.75 + 10 * 15) / 1_000_000 + secondCost, 12);
    expect(window.uncachedCostUsd).toBeCloseTo((3_062 * 3 + 20 * 15) / 1_000_000, 12);
  });

  it("sends the 1-hour TTL when the session asks for it, and prices its writes at the 1-hour rate", async () => {
    const { session, server, usage } = await anthropicSession(
      [{ text: "Done.", inputTokens: 10, cacheWriteTokens: 2_000, outputTokens: 0 }],
      { cache: { ttl: "1h" } },
    );
    await session.send("Hi.");
    expect(breakpointsOf(server.requests[0]!).map((breakpoint) => breakpoint.cacheControl)).toEqual([
      { type: "ephemeral", ttl: "1h" },
      { type: "ephemeral", ttl: "1h" },
    ]);
    // $6 per million 1-hour cache writes for Claude Sonnet 4.5.
    expect(usage[0]!.costUsd).toBeCloseTo((10 * 3 + 2_000 * 6) / 1_000_000, 12);
  });

  it("sends no cache_control at all with cache: false", async () => {
    const { session, server, store } = await anthropicSession([{ text: "Done." }], { cache: false });
    await session.send("Hi.");
    expect(breakpointsOf(server.requests[0]!)).toEqual([]);
    expect((await stepsOf(store))[0]!.cache).toBeUndefined();
  });

  it("keeps to 4 breakpoints when the caller's tools carry their own: ctxwin's least valuable are dropped, with one warning, recorded per step", async () => {
    const marked = { anthropic: { cacheControl: { type: "ephemeral" } } };
    const tools = Object.fromEntries(
      ["alpha", "beta", "gamma"].map((name) => [
        name,
        tool({
          description: `The ${name} tool.`,
          inputSchema: z.object({ query: z.string() }),
          execute: async () => "ok",
          providerOptions: marked,
        }),
      ]),
    );
    const { session, server, store, warnings } = await anthropicSession([{ text: "Done." }], { tools });
    await session.send("Hi.");
    await session.send("Again.");
    for (const body of server.requests) expect(breakpointsOf(body)).toHaveLength(4);
    // The newest message keeps its breakpoint: it is what the next step reads.
    expect(breakpointsOf(server.requests[1]!).at(-1)!.at).toBe("body.messages[2].content[0]");
    const steps = await stepsOf(store);
    expect(steps.map((step) => step.cache?.breakpoints)).toEqual([1, 1]);
    expect(steps[1]!.cache?.dropped).toEqual([
      {
        reason: "breakpoint-limit",
        detail: expect.stringContaining("3 breakpoint(s) set by the caller leave room for 1"),
      },
    ]);
    expect(warnings.filter((warning) => warning.includes("limit of 4"))).toHaveLength(1);
  });

  it("sends no breakpoint where the prefix is under the model's minimum cacheable length: recorded, one warning, the request goes out", async () => {
    // Claude Haiku 4.5 caches prefixes of 4,096 tokens or more; this whole request is shorter.
    const { session, server, store, warnings } = await anthropicSession(
      [{ text: "Done." }],
      { system: "Be brief." },
      "claude-haiku-4-5",
    );
    const results = [await session.send("Hi."), await session.send("Again.")];
    expect(results.map((result) => result.status)).toEqual(["completed", "completed"]);
    expect(server.requests.map(breakpointsOf)).toEqual([[], []]);
    const steps = await stepsOf(store);
    expect(steps[0]!.cache).toEqual({
      provider: "anthropic",
      breakpoints: 0,
      dropped: [
        expect.objectContaining({ reason: "below-minimum" }),
        expect.objectContaining({ reason: "below-minimum" }),
      ],
    });
    expect(warnings.filter((warning) => warning.includes("minimum cacheable length"))).toHaveLength(1);
  });

  it("sends the request again without cache_control when the server refuses it, warns once, records it, and sends none from then on", async () => {
    const refusal: AnthropicScriptedResponse = {
      status: 400,
      error: { type: "invalid_request_error", message: "system.0.cache_control: Extra inputs are not permitted" },
    };
    const { session, server, store, warnings } = await anthropicSession((body) =>
      breakpointsOf(body).length > 0 ? refusal : { text: "Answered." },
    );
    const first = await session.send("Hi.");
    const second = await session.send("Again.");
    expect([first.status, second.status]).toEqual(["completed", "completed"]);
    expect(first.text).toBe("Answered.");
    // One refused request, the same request without hints, then only requests without hints.
    expect(server.requests.map((body) => breakpointsOf(body).length)).toEqual([2, 0, 0]);
    expect(server.requests[1]!.messages).toEqual(
      server.requests[0]!.messages.map((message) => ({
        ...message,
        content: (message.content as Array<Record<string, unknown>>).map(
          ({ cache_control: _cacheControl, ...block }) => block,
        ),
      })),
    );
    const steps = await stepsOf(store);
    expect(steps[0]!.cache).toEqual({
      provider: "anthropic",
      dropped: [{ reason: "rejected", detail: expect.stringContaining("Extra inputs are not permitted") }],
    });
    expect(steps[1]!.cache).toEqual({
      provider: "anthropic",
      dropped: [{ reason: "rejected", detail: "refused earlier in this session" }],
    });
    expect(warnings.filter((warning) => warning.includes("refused the request's prompt-cache hints"))).toHaveLength(1);
  });
});
