/**
 * Issue 50 (ADR 0079): what Claude Code 2.1.197 writes in an interactive session, imported in the
 * order it happened. Conversation order follows `parentUuid` (a reply written before its
 * question), across files and runs; sessions are dated by their transcript; the CLI's routine
 * lines are known (hidden metadata, or left out); ctxwin's own hook guidance is never history;
 * terminal escapes are not display or search text; repeated uuids lose nothing.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderRowText } from "../core/row-text.js";
import { isHistoryVisible, isProviderEligible } from "../core/visibility.js";
import { createMemoryStore } from "../store/memory/memory-store.js";
import type { HistoryStore, StoredRow } from "../store/port.js";
import { importFiles } from "./import-files.js";
import { formatReport } from "./import-report.js";
import { scratchStores } from "./test-support/scratch-stores.js";
import { allRows, importSettled } from "./test-support/session-snapshot.js";
import { writeLines } from "./test-support/transcript-lines.js";
import { testData } from "../../test/test-data.js";

const { temporaryDirectory } = scratchStores("ctxwin-import-fidelity-");
const interactive = testData(
  "transcripts/claude-code-2.1.197-interactive",
  "the import test of real interactive sessions",
);

const SOURCE_ID = "5c0ffee5-1a2b-4c3d-8e4f-50a1b2c3d4e5";
const SESSION = `claude-code:${SOURCE_ID}`;
const SETTLED = Date.now() - 60 * 60 * 1000;
const at = (second: number) => new Date(Date.UTC(2026, 11, 6, 23, 19, second)).toISOString();
const GUIDANCE =
  "[ctxwin tool guidance, not from the user]\nWhen you need a detail the summary lacks, call session_history instead of guessing.";

/** A Claude Code 2.1.197 line of the fixture session. */
function line(body: Record<string, unknown>): string {
  const facts = {
    isSidechain: false,
    cwd: "/home/dev/app",
    sessionId: SOURCE_ID,
    version: "2.1.197",
    gitBranch: "main",
  };
  return JSON.stringify({ ...facts, ...body });
}
const user = (uuid: string, parentUuid: string | null, second: number, content: unknown) =>
  line({ type: "user", uuid, parentUuid, timestamp: at(second), message: { role: "user", content } });
const reply = (uuid: string, parentUuid: string, second: number, text: string) =>
  assistant(uuid, parentUuid, second, [{ type: "text", text }]);
const assistant = (uuid: string, parentUuid: string, second: number, content: unknown[]) =>
  line({
    type: "assistant",
    uuid,
    parentUuid,
    timestamp: at(second),
    message: { id: `msg-${uuid}`, role: "assistant", model: "claude-opus-4-8", content },
  });
const attachment = (uuid: string, parentUuid: string, second: number, body: Record<string, unknown>) =>
  line({ type: "attachment", uuid, parentUuid, timestamp: at(second), attachment: body });

async function imported(store: HistoryStore, ...files: string[]) {
  return importFiles({ store, format: "claude-code", paths: files, settleMs: 0, now: () => Date.now() });
}

function write(name: string, lines: string[], folder = temporaryDirectory()): string {
  return writeLines(folder, name, lines, { modifiedAt: SETTLED });
}

/** Every session's hits for a literal query, as the store's search gives them to session_history and MCP. */
type SessionHits = { session_id: string; hits: { snippet: string }[] };
async function searchSessions({
  store,
  query,
}: {
  store: HistoryStore;
  query: string;
}): Promise<{ ok: true; results: SessionHits[] }> {
  const results: SessionHits[] = [];
  for (const { sessionId } of await store.sessions()) {
    const page = await store.search(sessionId, { query, mode: "literal", limit: 100 });
    const hits = page.hits.map(({ row }) => ({ snippet: renderRowText(row) }));
    if (hits.length > 0) results.push({ session_id: sessionId, hits });
  }
  return { ok: true, results };
}

const visibleTexts = (rows: StoredRow[]) => rows.filter(isHistoryVisible).map((row) => renderRowText(row));

describe("conversation order (parentUuid, then time)", () => {
  // Claude Code wrote the reply (r1) before the question it answers (q1); the chain says q1 → r1.
  const replyFirst = [
    user("q0", null, 1, "First question: where is the CEDAR-4 flag?"),
    reply("r0", "q0", 2, "CEDAR-4 is in flags.ts."),
    reply("r1", "q1", 5, "The backup bucket is QUINCE-7781."),
    user("q1", "r0", 4, "Second question: what is the backup bucket?"),
  ];

  it("stores a reply written before its question after the question", async () => {
    const store = createMemoryStore();
    await imported(store, write(`${SOURCE_ID}.jsonl`, replyFirst));
    const rows = await allRows(store, SESSION);
    expect(rows.map((row) => row.id)).toEqual([expect.stringContaining(SOURCE_ID), "q0", "r0", "q1", "r1"]);
  });

  it("orders across files, and a later run reorders nothing already stored", async () => {
    const folder = temporaryDirectory();
    const store = createMemoryStore();
    // The first run sees the start only; the second a copy holding the rest, reply first.
    await imported(store, write(`${SOURCE_ID}.jsonl`, replyFirst.slice(0, 2), folder));
    const before = (await allRows(store, SESSION)).map((row) => `${row.seq}:${row.id}`);
    const [q0, r0, r1, q1] = replyFirst as [string, string, string, string];
    const copy = write(`${SOURCE_ID}.jsonl`, [r1, q1, r0, q0], temporaryDirectory());
    const report = await imported(store, path.join(folder, `${SOURCE_ID}.jsonl`), copy);
    const rows = await allRows(store, SESSION);
    expect(rows.map((row) => `${row.seq}:${row.id}`).slice(0, before.length)).toEqual(before);
    expect(rows.map((row) => row.id).slice(before.length)).toEqual(["q1", "r1"]);
    expect(report).toMatchObject({ rowsAdded: 2, linesMerged: { inSeveralFiles: 2, repeatedInFile: 0, keyReused: 0 } });
  });

  it.skipIf(interactive === undefined)(
    "the real interactive session: /compact, then its compaction, then its output",
    async () => {
      const { store } = await importSettled("claude-code", [interactive ?? ""]);
      const rows = await allRows(store, "claude-code:e2907450-ff6e-4a0f-984b-39989f825379");
      const textOf = (row: StoredRow) => (row.boundary?.kind === "compaction" ? "[compaction]" : renderRowText(row));
      const shown = rows.filter(isHistoryVisible).map(textOf);
      const compaction = shown.indexOf("[compaction]");
      expect(shown.slice(compaction - 1, compaction + 2)).toEqual(["/compact", "[compaction]", "Compacted "]);
    },
  );
});

describe("transcript times", () => {
  it("an untimed first and last line: the session starts and ends at its transcript's times, never at the import's", async () => {
    const store = createMemoryStore();
    const file = write(`${SOURCE_ID}.jsonl`, [
      line({ type: "permission-mode", permissionMode: "default" }),
      line({ type: "progress", uuid: "p0", parentUuid: null, data: { note: "starting" } }),
      user("q0", "p0", 3, "Where is the CEDAR-4 flag?"),
      reply("r0", "q0", 7, "In flags.ts."),
      line({ type: "progress", uuid: "p1", parentUuid: "r0", data: { note: "done" } }),
      line({ type: "last-prompt", lastPrompt: "Where is the CEDAR-4 flag?" }),
    ]);
    await imported(store, file);
    const rows = await allRows(store, SESSION);
    expect(rows[0]!.createdAt).toBe(at(3));
    expect(rows.map((row) => row.createdAt)).toEqual([at(3), at(3), at(3), at(7), at(7)]);
  });
});

describe("the line types Claude Code 2.1.197 writes", () => {
  const hookSuccess = (uuid: string, parentUuid: string, second: number) =>
    attachment(uuid, parentUuid, second, {
      type: "hook_success",
      hookName: "SessionStart:resume",
      hookEvent: "SessionStart",
      content: "",
      stdout: JSON.stringify({ hookSpecificOutput: { additionalContext: GUIDANCE } }),
    });
  const hookContext = (uuid: string, parentUuid: string, second: number) =>
    attachment(uuid, parentUuid, second, {
      type: "hook_additional_context",
      content: [GUIDANCE],
      hookName: "SessionStart",
      hookEvent: "SessionStart",
    });
  const lines = [
    line({ type: "queue-operation", operation: "enqueue", timestamp: at(0), content: "Where is the CEDAR-4 flag?" }),
    line({ type: "mode", mode: "normal" }),
    line({ type: "permission-mode", permissionMode: "default" }),
    line({ type: "file-history-snapshot", messageId: "q0", snapshot: { trackedFileBackups: {} } }),
    user("q0", null, 1, "Where is the CEDAR-4 flag?"),
    attachment("l0", "q0", 1, { type: "agent_listing_delta", addedTypes: ["Explore"] }),
    attachment("l1", "l0", 1, { type: "skill_listing", content: "skills" }),
    reply("r0", "l1", 2, "CEDAR-4 is in flags.ts."),
    line({
      type: "system",
      subtype: "turn_duration",
      uuid: "t0",
      parentUuid: "r0",
      timestamp: at(3),
      durationMs: 1200,
    }),
    line({ type: "last-prompt", lastPrompt: "Where is the CEDAR-4 flag?", leafUuid: "t0" }),
    hookSuccess("h0", "t0", 4),
    hookContext("h1", "h0", 4),
    user(
      "c0",
      "h1",
      5,
      "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>",
    ),
    line({
      type: "system",
      subtype: "local_command",
      uuid: "o0",
      parentUuid: "c0",
      timestamp: at(6),
      content: "<local-command-stdout>\u001b[2mNot enough messages to compact.\u001b[22m</local-command-stdout>",
      level: "info",
    }),
  ];

  it("counts none as unknown: listings and bookkeeping left out, hooks and turn durations hidden metadata, a local command's output is a row", async () => {
    const store = createMemoryStore();
    const report = await imported(store, write(`${SOURCE_ID}.jsonl`, lines));
    expect(report).toMatchObject({ unknownLines: 0, unknownLineTypes: {}, malformedCount: 0, rowsWaiting: 0 });
    const rows = await allRows(store, SESSION);
    expect(rows.map((row) => row.id).slice(1)).toEqual(["q0", "r0", "t0", "h0", "h1", "c0", "o0"]);
    const hidden = rows.filter((row) => row.meta?.["type"] === "imported-metadata");
    expect(hidden.map((row) => row.meta?.["lineType"])).toEqual([
      "system:turn_duration",
      "attachment:hook_success",
      "attachment:hook_additional_context",
    ]);
    for (const row of hidden) expect([isHistoryVisible(row), isProviderEligible(row)]).toEqual([false, false]);
    expect(visibleTexts(rows)).toEqual([
      "Where is the CEDAR-4 flag?",
      "CEDAR-4 is in flags.ts.",
      "/compact",
      "Not enough messages to compact.",
    ]);
  });

  it("ctxwin's own guidance is not found by the store's search in any session, and the user's words are", async () => {
    const store = createMemoryStore();
    await imported(store, write(`${SOURCE_ID}.jsonl`, lines));
    const guidance = await searchSessions({ store, query: "instead of guessing" });
    expect(guidance).toMatchObject({ ok: true, results: [] });
    const words = await searchSessions({ store, query: "CEDAR-4" });
    expect(words.results.map((result) => result.session_id)).toEqual([SESSION]);
  });

  it("terminal escapes are kept in the stored row, left out of what is shown and searched", async () => {
    const store = createMemoryStore();
    await imported(store, write(`${SOURCE_ID}.jsonl`, lines));
    const output = (await allRows(store, SESSION)).find((row) => row.id === "o0")!;
    expect(JSON.stringify(output.parts)).toContain("\\u001b[2m");
    expect(renderRowText(output)).toBe("Not enough messages to compact.");
    const hits = await searchSessions({ store, query: "Not enough messages" });
    expect(JSON.stringify(hits.results)).not.toContain("\\u001b");
    expect(hits.results).toHaveLength(1);
  });

  it.skipIf(interactive === undefined)(
    "the real interactive sessions: no unknown lines, and the hook's guidance is never a search hit",
    async () => {
      const { store, report } = await importSettled("claude-code", [interactive ?? ""]);
      expect(report).toMatchObject({ unknownLines: 0, malformedCount: 0, rowsWaiting: 0 });
      const resumed = path.join(
        interactive ?? "",
        "-home-dev-work-cc-proj2",
        "e2907450-ff6e-4a0f-984b-39989f825379.jsonl",
      );
      expect(readFileSync(resumed, "utf8")).toContain("instead of guessing");
      const hits = await searchSessions({ store, query: "instead of guessing" });
      expect(hits).toMatchObject({ ok: true, results: [] });
      for (const session of await store.sessions()) {
        const shown = (await allRows(store, session.sessionId)).filter(isHistoryVisible);
        for (const row of shown) expect(renderRowText(row)).not.toContain("ctxwin tool guidance");
      }
    },
  );
});

describe("repeated uuids lose nothing", () => {
  it("A, B, C, B with the second B other text: four rows, and the report says why", async () => {
    const store = createMemoryStore();
    const report = await imported(
      store,
      write(`${SOURCE_ID}.jsonl`, [
        user("A", null, 1, "alpha PLUM-1"),
        user("B", "A", 2, "beta PLUM-2"),
        user("C", "B", 3, "gamma PLUM-3"),
        user("B", "C", 4, "beta again PLUM-4"),
      ]),
    );
    const rows = await allRows(store, SESSION);
    expect(visibleTexts(rows)).toEqual(["alpha PLUM-1", "beta PLUM-2", "gamma PLUM-3", "beta again PLUM-4"]);
    expect(rows.at(-1)!.id).toMatch(/^B#[0-9a-f]{12}$/);
    expect(report).toMatchObject({ rowsAdded: 5, rowsWaiting: 0, linesMerged: { keyReused: 1, repeatedInFile: 0 } });
    expect(formatReport(report)).toContain("1 lines reusing another line's uuid kept as rows of their own");
  });

  it("the same lines in a file still being written wait, all four, for the first reply, and the report says so", async () => {
    const store = createMemoryStore();
    const file = writeLines(temporaryDirectory(), `${SOURCE_ID}.jsonl`, [
      user("A", null, 1, "alpha PLUM-1"),
      user("B", "A", 2, "beta PLUM-2"),
      user("C", "B", 3, "gamma PLUM-3"),
      user("B", "C", 4, "beta again PLUM-4"),
    ]);
    const report = await importFiles({ store, format: "claude-code", paths: [file] });
    expect(report).toMatchObject({ rowsAdded: 0, rowsWaiting: 4, linesMerged: { keyReused: 1 } });
    expect(formatReport(report)).toContain(
      "4 waiting for the transcript to go on (a tool result, a summary or the first reply)",
    );
  });

  it("16 lines sharing one uuid: 16 rows when they differ, 1 when they are the same line, each counted", async () => {
    const distinct = Array.from({ length: 16 }, (_, index) => user("U", null, index, `note ${index}`));
    const store = createMemoryStore();
    const report = await imported(store, write(`${SOURCE_ID}.jsonl`, distinct));
    expect(visibleTexts(await allRows(store, SESSION))).toEqual(
      Array.from({ length: 16 }, (_, index) => `note ${index}`),
    );
    expect(report.linesMerged).toEqual({ repeatedInFile: 0, inSeveralFiles: 0, keyReused: 15 });

    const same = createMemoryStore();
    const repeated = await imported(
      same,
      write(
        `${SOURCE_ID}.jsonl`,
        Array.from({ length: 16 }, () => distinct[0]!),
      ),
    );
    expect(visibleTexts(await allRows(same, SESSION))).toEqual(["note 0"]);
    expect(repeated.linesMerged).toEqual({ repeatedInFile: 15, inSeveralFiles: 0, keyReused: 0 });
    expect(formatReport(repeated)).toContain("15 repeated lines kept once");
  });

  it("ctxwin exports: a row id names one row, so two exports that number it differently give it once", async () => {
    const parts = [{ type: "text", text: "PLUM-9" }];
    const row = (seq: number) =>
      JSON.stringify({ v: 1, sessionId: "s-export", seq, id: "row-1", role: "user", parts, createdAt: at(1) });
    const store = createMemoryStore();
    const first = write("a.jsonl", [row(1)]);
    const second = write("b.jsonl", [row(7)]);
    const report = await importFiles({ store, format: "ctxwin", paths: [first, second] });
    expect((await allRows(store, "s-export")).map((stored) => stored.id)).toEqual(["row-1"]);
    expect(report.linesMerged).toEqual({ repeatedInFile: 0, inSeveralFiles: 1, keyReused: 0 });
  });

  it("a copy with its lines reversed adds nothing, whichever is read first", async () => {
    const call = (uuid: string, parentUuid: string, second: number, id: string) =>
      assistant(uuid, parentUuid, second, [{ type: "tool_use", id, name: "Grep", input: { pattern: id } }]);
    const lines = [user("q0", null, 1, "find things")];
    for (let index = 0; index < 13; index += 1) {
      const previous = index === 0 ? "q0" : `t${index - 1}`;
      lines.push(call(`c${index}`, previous, 2 + index * 2, `toolu_${index}`));
      const result = { type: "tool_result", tool_use_id: `toolu_${index}`, content: `found ${index}` };
      lines.push(user(`t${index}`, `c${index}`, 3 + index * 2, [result]));
    }
    const original = write(`${SOURCE_ID}.jsonl`, lines);
    const reversed = write(`${SOURCE_ID}.jsonl`, [...lines].reverse());
    const clean = createMemoryStore();
    await imported(clean, original);
    const expected = (await allRows(clean, SESSION)).map((row) => [row.id, renderRowText(row)]);
    expect(expected).toHaveLength(15);
    for (const order of [
      [original, reversed],
      [reversed, original],
    ]) {
      const store = createMemoryStore();
      const report = await imported(store, ...order);
      expect((await allRows(store, SESSION)).map((row) => [row.id, renderRowText(row)])).toEqual(expected);
      expect(report.linesMerged).toMatchObject({ inSeveralFiles: 27, keyReused: 0 });
      const again = await imported(store, reversed);
      expect(again).toMatchObject({ rowsAdded: 0 });
    }
  });
});

describe("sub-agents at scale", () => {
  it("one import reads a parent's rows once however many sub-agents it started (it was once per child)", async () => {
    const children = 40;
    const folder = temporaryDirectory();
    const lines = [user("q0", null, 1, "Run the sub-agents.")];
    let previous = "q0";
    for (let index = 0; index < children; index += 1) {
      const call = { type: "tool_use", id: `toolu_${index}`, name: "Agent", input: { prompt: `task ${index}` } };
      lines.push(assistant(`c${index}`, previous, 2, [call]));
      const result = { type: "tool_result", tool_use_id: `toolu_${index}`, content: `done ${index}` };
      lines.push(
        line({ ...JSON.parse(user(`t${index}`, `c${index}`, 3, [result])), toolUseResult: { agentId: `a${index}` } }),
      );
      previous = `t${index}`;
    }
    write(`${SOURCE_ID}.jsonl`, lines, folder);
    mkdirSync(path.join(folder, SOURCE_ID, "subagents"), { recursive: true });
    for (let index = 0; index < children; index += 1) {
      const prompt = JSON.stringify({ ...JSON.parse(user(`s${index}`, null, 4, `task ${index}`)), isSidechain: true });
      write(
        path.join(SOURCE_ID, "subagents", `agent-a${index}.jsonl`),
        [prompt, reply(`s${index}-r`, `s${index}`, 5, "ok")],
        folder,
      );
    }
    const store = createMemoryStore();
    let parentReads = 0;
    const counting = new Proxy(store, {
      get(target, property, receiver) {
        if (property !== "items") return Reflect.get(target, property, receiver) as unknown;
        return (sessionId: string, options: unknown) => {
          if (sessionId === SESSION) parentReads += 1;
          return target.items(sessionId, options as never);
        };
      },
    });
    const report = await imported(counting, folder);
    expect(report).toMatchObject({ sessionsUpdated: children + 1, rowsWaiting: 0, warnings: [] });
    const attached = await Promise.all(
      Array.from({ length: children }, (_, index) => store.session(`${SESSION}/agent-a${index}`)),
    );
    expect(new Set(attached.map((child) => child?.parent?.itemId)).size).toBe(children);
    // The parent's own rows are read once before they are written, and once to find its calls.
    expect(parentReads).toBeLessThanOrEqual(2);
  });
});
