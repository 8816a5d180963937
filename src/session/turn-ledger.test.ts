import { tool, type Tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "./test-support/scripted-model.js";
import { memoryStore, readTool } from "./test-support/session-fixture.js";
import { temporaryDirectories } from "./test-support/temporary-directories.js";
import { readAllRows, sessionProblems } from "./test-support/session-invariants.js";
import { FORCE_AT as DEFAULT_FORCE_AT, budgetSession } from "./test-support/rollover-setup.js";

const memoryRoot = temporaryDirectories("ctxwin-turn-ledger-");

// Threshold 0.6 puts the force band (13,000) below the hard ceiling (15,000): the flush step fits.
const settings = { threshold: 0.6 };
const FORCE_AT = 13_000;
const NOTES = "/memories/workspace/context-notes.md";
const files = { "a.txt": "A".repeat(2_000) };
const QUERY = "where-did-the-kestrel-go";

const boom = tool({
  description: "Always fails",
  inputSchema: z.object({ why: z.string() }),
  execute: async (): Promise<string> => {
    throw new Error("kaput:\ndisk on fire");
  },
}) as Tool;
const fetched: string[] = [];
const fetchPage = tool({
  description: "Fetches a page",
  inputSchema: z.object({ url: z.string() }),
  execute: async ({ url }) => (fetched.push(url), `page ${url}`),
}) as Tool;

const isFlushRequest = (call: RecordedCall) =>
  call.text.split("\n").at(-1)?.includes("rolls over after this step") === true;

describe("the carried ledger states each call's outcome truthfully", () => {
  it("a call the notes-flush step held back keeps its arguments and is 'not run'; a throw is 'failed' with its error", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({
      script: (call): ScriptedStep => {
        if (call.index === 0) {
          return {
            toolCalls: [
              { toolName: "read", input: { path: "a.txt" } },
              { toolName: "boom", input: { why: "x" } },
              { toolName: "session_history", input: { action: "search", query: QUERY, mode: "literal" } },
            ],
            inputTokens: FORCE_AT - 1_500,
          };
        }
        if (isFlushRequest(call)) {
          // The agent also reaches for the next page: the flush step runs only the memory tool.
          const write = { toolName: "memory", input: { command: "create", path: NOTES, file_text: "read a.txt" } };
          return {
            toolCalls: [write, { toolName: "fetch_page", input: { url: "https://example.com/p2" } }],
            inputTokens: FORCE_AT - 200,
          };
        }
        return { text: "done", inputTokens: 900 };
      },
    });
    const session = budgetSession({
      store,
      model,
      tools: { read: readTool(files), boom, fetch_page: fetchPage },
      memory: { root: memoryRoot() },
      settings,
    });

    const result = await session.send("read a.txt, then fetch page 2");

    expect(result).toMatchObject({
      status: "completed",
      rollovers: [expect.objectContaining({ reason: "mid-stream", flushOpportunity: true })],
    });
    expect(calls).toHaveLength(3);
    // The flush request sends the window's tool list unchanged (its cached prefix holds, ADR 0055).
    expect(calls[1]!.toolNames).toEqual(calls[0]!.toolNames);
    expect(fetched).toEqual([]);
    // What the provider receives in the new window.
    const continued = calls[2]!.text;
    expect(continued).toContain('- item 2: read {"path":"a.txt"} → finished');
    expect(continued).toContain('- item 2: boom {"why":"x"} → failed: kaput: disk on fire');
    expect(continued).toContain(
      `- item 4: memory {"command":"create","path":"${NOTES}","file_text":"read a.txt"} → finished`,
    );
    expect(continued).toContain(
      '- fetch_page {"url":"https://example.com/p2"} → not run: held back in the notes-flush step (only memory ran there)',
    );
    expect(continued).toContain(
      "- session_history: 1 lookup (search ×1); their queries and results are not repeated here",
    );
    expect(continued).not.toContain("fetch_page {}");
    expect(continued).not.toContain("(failed)");
    expect(continued).not.toContain(QUERY);
    expect(continued).toContain("every call that ran has its result stored");

    const rows = await readAllRows(store, "s");
    expect(sessionProblems(rows, rows.length)).toEqual([]);
    expect(rows.find((row) => row.meta?.type === "notes-flush")?.meta?.["activeTools"]).toEqual(["memory"]);
    const carry = rows.find((row) => row.meta?.type === "continue")?.meta?.["carry"] as { ledger: unknown[] };
    expect(carry.ledger).toEqual([
      { itemId: "2", toolName: "read", input: '{"path":"a.txt"}', outcome: "finished" },
      { itemId: "2", toolName: "boom", input: '{"why":"x"}', outcome: "failed", detail: "kaput: disk on fire" },
      { itemId: "2", toolName: "session_history", input: '{"action":"search"}', outcome: "finished" },
      {
        itemId: "4",
        toolName: "memory",
        input: `{"command":"create","path":"${NOTES}","file_text":"read a.txt"}`,
        outcome: "finished",
      },
      {
        itemId: "4",
        toolName: "fetch_page",
        input: '{"url":"https://example.com/p2"}',
        outcome: "not-run",
        detail: "held back in the notes-flush step (only memory ran there)",
      },
    ]);
    expect(JSON.stringify(carry)).not.toContain(QUERY);
  });

  it("a call to a tool the session does not have is 'not run' with its arguments, told apart from a tool that threw", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({
      script: (call): ScriptedStep =>
        call.index === 0
          ? {
              toolCalls: [
                { toolName: "read", input: { path: "a.txt" } },
                { toolName: "no_such_tool", input: { target: "b.txt" } },
                { toolName: "boom", input: { why: "y" } },
              ],
              inputTokens: DEFAULT_FORCE_AT - 400,
            }
          : { text: "done", inputTokens: 800 },
    });
    const session = budgetSession({ store, model, tools: { read: readTool(files), boom } });

    const result = await session.send("read a.txt and b.txt");

    expect(result).toMatchObject({
      status: "completed",
      rollovers: [expect.objectContaining({ reason: "mid-stream" })],
    });
    const continued = calls[1]!.text;
    expect(continued).toContain('- item 2: read {"path":"a.txt"} → finished');
    expect(continued).toMatch(
      /- no_such_tool \{"target":"b\.txt"\} → not run: Model tried to call unavailable tool 'no_such_tool'/,
    );
    expect(continued).toContain('- item 2: boom {"why":"y"} → failed: kaput: disk on fire');
    const step = (await readAllRows(store, "s")).find((row) => row.role === "assistant");
    expect((step?.metadata as { ctxwinStep?: { notRunToolCallIds?: string[] } }).ctxwinStep?.notRunToolCallIds).toEqual(
      ["call-0-1"],
    );
  });
});
