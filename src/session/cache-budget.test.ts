/**
 * Caching changes price, never what fits (issue 28): the same session through the real
 * `@ai-sdk/anthropic` package, once with cache hints and once without, against a fake Messages
 * API that reports the same input either as fresh tokens or split into cache reads and writes (as
 * Anthropic does: `input_tokens` then excludes them). Every budget decision — warnings, rollovers
 * and their figures, the estimate checked before each request, a preflight block — is the same.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { afterEach, describe, expect, it } from "vitest";
import { readStepMetadata } from "../core/rollover/step-usage.js";
import { createAgentSession } from "./create-agent-session.js";
import {
  startAnthropicMessagesServer,
  type AnthropicMessagesServer,
  type AnthropicRequestBody,
  type AnthropicScriptedResponse,
} from "./test-support/anthropic-messages-server.js";
import { deterministic, memoryStore } from "./test-support/session-fixture.js";
import { readAllRows } from "./test-support/session-invariants.js";

const servers: AnthropicMessagesServer[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

/** The request's size in tokens, as a provider would count it (breakpoints are not content). */
function inputTokensOf(body: AnthropicRequestBody): number {
  const content = JSON.stringify(
    { system: body.system, messages: body.messages, tools: body["tools"] },
    (key, value: unknown) => (key === "cache_control" ? undefined : value),
  );
  return Math.ceil(content.length / 3.2);
}

/** Answers each request; with breakpoints in it, reports what the previous request left in the cache as read. */
function cachingApi() {
  let previous = 0;
  return (body: AnthropicRequestBody, index: number): AnthropicScriptedResponse => {
    const total = inputTokensOf(body);
    const text = `Answer ${index}: ${"noted ".repeat(40)}`;
    const marked = JSON.stringify(body).includes('"cache_control"');
    const read = marked ? Math.min(previous, total) : 0;
    const write = marked ? total - read - 4 : 0;
    previous = total;
    return {
      text,
      inputTokens: total - read - write,
      cacheReadTokens: read,
      cacheWriteTokens: write,
      outputTokens: 60,
    };
  };
}

async function runSession(cache: boolean) {
  const server = await startAnthropicMessagesServer({ script: cachingApi() });
  servers.push(server);
  const store = memoryStore();
  const session = createAgentSession({
    store,
    sessionId: "s",
    model: createAnthropic({ baseURL: server.baseURL, apiKey: "test-key" })("claude-sonnet-4-5"),
    system: `You keep a log. ${"Write down what you are told. ".repeat(40)}`,
    budget: { contextLimit: 24_000 },
    cache: cache ? {} : false,
    maxRetries: 0,
    logWarning: () => undefined,
    ...deterministic(),
  });
  const decisions: unknown[] = [];
  for (let index = 1; index <= 14; index += 1) {
    const result = await session.send(`Entry ${index}: ${`item-${index} `.repeat(600)}`);
    decisions.push({
      status: result.status,
      rollovers: result.rollovers,
      warnings: result.warnings,
      reason: result.reason,
    });
  }
  // Bigger than any fresh window: the preflight keeps it as rejected input.
  const blocked = await session.send(`Too long: ${"x ".repeat(40_000)}`);
  decisions.push({ status: blocked.status, reason: blocked.reason });
  const rows = await readAllRows(store, "s");
  const checked = rows.flatMap((row) => (row.role === "assistant" ? [readStepMetadata(row)?.checkedInputTokens] : []));
  const reads = rows.reduce((sum, row) => sum + (readStepMetadata(row)?.usage.cacheReadTokens ?? 0), 0);
  return {
    decisions,
    checked,
    layout: rows.map((row) => row.meta?.type ?? row.role),
    reads,
    breakpoints: server.requests.filter((body) => JSON.stringify(body).includes('"cache_control"')).length,
  };
}

describe("prompt caching and the budget", () => {
  it("makes the same preflight, warning and rollover decisions with cache hints on and off", async () => {
    const on = await runSession(true);
    const off = await runSession(false);

    // The runs differ in what was cached...
    expect(on.breakpoints).toBeGreaterThan(0);
    expect(on.reads).toBeGreaterThan(0);
    expect(off.breakpoints).toBe(0);
    expect(off.reads).toBe(0);
    // ...and in nothing the budget decides.
    expect(on.decisions).toEqual(off.decisions);
    expect(on.checked).toEqual(off.checked);
    expect(on.layout).toEqual(off.layout);
    // The session met every kind of decision on the way.
    expect(on.layout).toContain("budget-warning");
    expect(on.layout).toContain("rollover");
    expect(on.layout).toContain("rejected-input");
  });
});
