/**
 * The session through the real `@ai-sdk/openai-compatible` provider, against a scripted
 * OpenAI-compatible streaming server on 127.0.0.1: tool calls and their results over HTTP, the
 * usage the server reports, a budget warning and a rollover, and a `context_length_exceeded` answer.
 * Every assertion about what the model received is made on the request bodies the server got.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { rolloverMetaOf } from "../core/boundary.js";
import { readStepMetadata } from "../core/rollover/step-usage.js";
import type { HistoryStore, StoredRow } from "../store/port.js";
import { ContextExceededError } from "./errors.js";
import {
  contextLengthExceeded,
  startOpenAICompatibleServer,
  textOf,
  type ChatCompletionRequestBody,
  type OpenAICompatibleServer,
  type ServerScript,
} from "./test-support/openai-compatible-server.js";
import { budgetSession } from "./test-support/rollover-setup.js";
import { memoryStore, recordEvents, rowText, sqliteStore } from "./test-support/session-fixture.js";

let server: OpenAICompatibleServer | undefined;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A server playing `script`, and the provider's chat model pointed at it. */
async function localModel(script: ServerScript) {
  server = await startOpenAICompatibleServer({ script });
  const provider = createOpenAICompatible({ name: "local", baseURL: server.baseURL, includeUsage: true });
  return { model: provider.chatModel("test-model"), server };
}

/** Every text the model was sent in one request: message contents and tool-call arguments. */
function sentTexts(body: ChatCompletionRequestBody): string[] {
  return body.messages.flatMap((message) => [
    textOf(message),
    ...(message.tool_calls ?? []).map((call) => call.function.arguments),
  ]);
}

async function allRows(store: HistoryStore): Promise<StoredRow[]> {
  return (await store.items("s", { limit: 500, includeCleared: true })).rows;
}

describe("session through @ai-sdk/openai-compatible against a local server", () => {
  it("round-trips a tool call and its result over HTTP, and records the usage the server reported", async () => {
    const reads: string[] = [];
    const read = tool({
      description: "Reads a file",
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        reads.push(path);
        return path === "a.txt" ? "alpha beta gamma" : `no such file: ${path}`;
      },
    });
    const { model, server } = await localModel([
      { toolCalls: [{ id: "call_read_1", name: "read", arguments: { path: "a.txt" } }] },
      { text: "The file says alpha beta gamma." },
    ]);
    const opened = sqliteStore();
    cleanups.push(opened.cleanup);
    const session = budgetSession({ store: opened.store, model, tools: { read }, system: "You read files." });
    const usageEvents = recordEvents(session, "usage");

    const result = await session.send("What is in a.txt?");

    expect(result).toMatchObject({
      status: "completed",
      text: "The file says alpha beta gamma.",
      rollovers: [],
      warnings: [],
    });
    expect(reads).toEqual(["a.txt"]);
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests.map((request) => request.body);
    expect(first!.stream).toBe(true);
    // The output limit is the budget's output reserve: 8,192 capped at 25% of the 20,000-token limit.
    expect(server.requests.map((request) => request.body["max_tokens"])).toEqual([5000, 5000]);
    expect(first!.messages).toEqual([
      { role: "system", content: "You read files." },
      { role: "user", content: "What is in a.txt?" },
    ]);
    expect(
      (first!.tools as Array<{ function: { name: string } }>).map((definition) => definition.function.name).sort(),
    ).toEqual(["read", "session_history"]);
    // The second request carries the call and its result, paired by the id the server gave.
    expect(second!.messages.slice(1)).toEqual([
      { role: "user", content: "What is in a.txt?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_read_1", type: "function", function: { name: "read", arguments: '{"path":"a.txt"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_read_1", content: "alpha beta gamma" },
    ]);

    // Stored: the step row holds the call with its result; the answer is its own step row.
    const rows = await allRows(opened.store);
    expect(rows.map((row) => row.role)).toEqual(["user", "assistant", "assistant"]);
    expect(rows[1]!.parts.filter((part) => part.type === "tool-read")).toEqual([
      expect.objectContaining({
        toolCallId: "call_read_1",
        state: "output-available",
        input: { path: "a.txt" },
        output: "alpha beta gamma",
      }),
    ]);
    expect(rowText(rows[2]!)).toBe("The file says alpha beta gamma.");

    // The usage is the server's, per step and summed for the send.
    const reported = server.requests.map((request) => request.reportedUsage!);
    expect(rows.slice(1).map((row) => readStepMetadata(row)?.usage)).toEqual(
      reported.map((usage) =>
        expect.objectContaining({ inputTokens: usage.promptTokens, outputTokens: usage.completionTokens }),
      ),
    );
    expect(usageEvents.map((event) => event.contextTokens)).toEqual(reported.map((usage) => usage.promptTokens));
    expect(result.usage).toEqual({
      inputTokens: reported[0]!.promptTokens + reported[1]!.promptTokens,
      outputTokens: reported[0]!.completionTokens + reported[1]!.completionTokens,
      // The server reported no cached tokens.
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      steps: 2,
    });
    // The budget bar starts from the last reported input and adds only the answer stored after it.
    const usage = await session.usage();
    expect(usage).toMatchObject({ windowId: "w:0", contextLimit: 20_000 });
    expect(usage.contextTokens).toBeGreaterThanOrEqual(reported[1]!.promptTokens + reported[1]!.completionTokens);
    expect(usage.contextTokens).toBeLessThan(reported[1]!.promptTokens + 50);
  });

  it("warns once in the warn band and rolls over on the next send; no request after the boundary carries anything from before it", async () => {
    const files: Record<string, string> = {
      "one.txt": "ONE-alpha ".repeat(1030),
      "two.txt": "TWO-gamma ".repeat(1030),
      "three.txt": "THREE-delta is short",
    };
    const read = tool({
      description: "Reads a file",
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => files[path] ?? `no such file: ${path}`,
    });
    const { model, server } = await localModel([
      {
        toolCalls: [
          { name: "read", arguments: { path: "one.txt" } },
          { name: "read", arguments: { path: "two.txt" } },
        ],
      },
      { text: `Noted: both parts are long lists. ${"Saved detail. ".repeat(300)}` },
      { toolCalls: [{ name: "read", arguments: { path: "three.txt" } }] },
      { text: "Part three says THREE-delta is short." },
    ]);
    const store = memoryStore();
    // Limit 10,000: hard ceiling 9,000; warn from 6,000; on-send rollover from 7,000; force band from 7,500.
    // The server reports a quarter of the characters it received; the session estimates in o200k × 1.3 and calibrates against it.
    const session = budgetSession({
      store,
      model,
      tools: { read },
      settings: { contextLimit: 10_000, outputReserve: 1_000, warningTurnTokens: 500 },
    });

    const first = await session.send("Read parts one and two.");

    // Two results of ~2,700 tokens each (o200k × 1.3, the unknown-provider factor) take the window into the warn band: the turn stops there
    // and the warning turn runs, with both calls paired with their results in the request.
    expect(first).toMatchObject({ status: "completed", rollovers: [] });
    expect(first.warnings).toEqual([expect.objectContaining({ windowId: "w:0", maxTokens: 10_000 })]);
    expect(server.requests).toHaveLength(2);
    const warned = server.requests[1]!.body.messages;
    expect(warned.filter((message) => message.role === "tool").map((message) => message.tool_call_id)).toEqual([
      "call_0_0",
      "call_0_1",
    ]);
    expect(warned.at(-1)).toMatchObject({
      role: "user",
      content: expect.stringMatching(/^\[Context budget\] Window w:0 holds about/),
    });

    const second = await session.send("Read part three.");

    expect(second).toMatchObject({ status: "completed", text: "Part three says THREE-delta is short.", warnings: [] });
    expect(second.rollovers).toEqual([
      expect.objectContaining({
        reason: "on-send",
        previousWindowId: "w:0",
        flushOpportunity: true,
        maxTokens: 10_000,
      }),
    ]);
    const windowId = second.rollovers[0]!.windowId;
    expect(server.requests).toHaveLength(4);
    // Every request, on both sides of the rollover, asks for the 1,000-token output reserve.
    expect(server.requests.map((request) => request.body["max_tokens"])).toEqual([1000, 1000, 1000, 1000]);
    const rows = await allRows(store);
    const boundary = rows.find((row) => row.boundary !== undefined)!;
    expect(rolloverMetaOf(boundary)).toMatchObject({
      reason: "on-send",
      flushOpportunity: true,
      previousWindowId: "w:0",
    });

    // Invariant 2 on the wire: nothing stored before the boundary is in a request sent after it.
    const before = rows
      .filter((row) => row.seq < boundary.seq)
      .flatMap((row) => [
        rowText(row),
        ...row.parts.flatMap((part) => ("output" in part && typeof part.output === "string" ? [part.output] : [])),
      ])
      .filter((text) => text.length > 0);
    expect(before.length).toBeGreaterThanOrEqual(5);
    for (const request of server.requests.slice(2)) {
      const sent = sentTexts(request.body);
      for (const text of before) expect(sent.some((piece) => piece.includes(text))).toBe(false);
      const wire = JSON.stringify(request.body.messages);
      for (const marker of ["ONE-alpha", "TWO-gamma", "call_0_", "Read parts one and two.", "[Context budget]"])
        expect(wire).not.toContain(marker);
      // ... and the lead-in opens the window: it names it and says how to read the earlier ones.
      const leadIn = request.body.messages.find((message) => message.role === "user")!;
      expect(textOf(leadIn)).toMatch(
        new RegExp(`^\\[Context window ${windowId} begins\\.\\] The previous window was near its token budget`),
      );
      expect(textOf(leadIn)).toContain("session_history");
    }
    expect(server.requests[2]!.body.messages.at(-1)).toEqual({ role: "user", content: "Read part three." });
    expect(server.requests[3]!.body.messages.slice(-2)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_2_0", type: "function", function: { name: "read", arguments: '{"path":"three.txt"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_2_0", content: "THREE-delta is short" },
    ]);
  });

  it("answers a context_length_exceeded refusal, before anything streamed, with one emergency rollover and one retry", async () => {
    const { model, server } = await localModel([
      { text: "First answer." },
      contextLengthExceeded({ limit: 20_000, requested: 21_000 }),
      { text: "Retried answer." },
    ]);
    const store = memoryStore();
    const session = budgetSession({ store, model });
    const rolloverEvents = recordEvents(session, "rollover");
    await session.send("First question.");

    const result = await session.send("Second question.");

    expect(result).toMatchObject({ status: "completed", text: "Retried answer." });
    expect(result.rollovers).toEqual([
      expect.objectContaining({ reason: "context-exceeded", flushOpportunity: false, previousWindowId: "w:0" }),
    ]);
    expect(rolloverEvents).toEqual(result.rollovers);
    expect(server.requests).toHaveLength(3);
    // The refused request held the whole window; the retry holds the lead-in and the input only.
    expect(server.requests[1]!.body.messages.map(textOf)).toEqual([
      "First question.",
      "First answer.",
      "Second question.",
    ]);
    const retry = server.requests[2]!.body.messages;
    expect(retry).toHaveLength(2);
    expect(textOf(retry[0]!)).toMatch(
      /^\[Context window w:\d+ begins\.\] The provider refused the previous request as too long/,
    );
    expect(retry[1]).toEqual({ role: "user", content: "Second question." });
    const boundaries = (await allRows(store)).filter((row) => row.boundary !== undefined);
    expect(boundaries.map((row) => rolloverMetaOf(row))).toEqual([
      expect.objectContaining({ reason: "context-exceeded", flushOpportunity: false }),
    ]);
  });

  it("fails clearly on a second consecutive refusal, after exactly one retry", async () => {
    const { model, server } = await localModel([
      { text: "First answer." },
      contextLengthExceeded(),
      contextLengthExceeded(),
      { text: "never sent" },
    ]);
    const store = memoryStore();
    const session = budgetSession({ store, model });
    await session.send("First question.");

    const result = await session.send("Second question.");

    expect(result.status).toBe("failed");
    expect(ContextExceededError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(
      /refused the request to local:test-model as too long even in a fresh context window/,
    );
    expect(result.rollovers).toEqual([expect.objectContaining({ reason: "context-exceeded" })]);
    expect(server.requests).toHaveLength(3);
    expect((await allRows(store)).filter((row) => row.boundary !== undefined)).toHaveLength(1);

    // No loop and nothing left queued: the next send goes out once, from the fresh window.
    const next = await session.send("Third question.");
    expect(next).toMatchObject({ status: "completed", text: "never sent", rollovers: [] });
    expect(server.requests).toHaveLength(4);
  });
});
