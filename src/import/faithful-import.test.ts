/**
 * Issue 31 ("faithful imports") and issue 30 (sub-agents): an imported session keeps the
 * transcript's own times, folder, git branch and model; tool calls pair with their results;
 * images become file parts; compactions become boundaries; unknown lines become raw rows that
 * are counted by type (ADR 0066); sub-agent transcripts become child sessions of the right
 * parent, idempotently, whichever file is read first (ADR 0067). Checked against the transcripts
 * the real Claude Code 2.1.197 and Codex 0.171.0 wrote ($CTXWIN_TEST_DATA/transcripts) and the project's own fixtures
 * in those versions' shapes.
 */
import { cpSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderRowText } from "../core/row-text.js";
import { isProviderEligible } from "../core/visibility.js";
import type { HistoryStore, StoredRow } from "../store/port.js";
import { importFiles } from "./import-files.js";
import { formatReport } from "./import-report.js";
import { scratchStores } from "./test-support/scratch-stores.js";
import { allRows, importSettled } from "./test-support/session-snapshot.js";
import { writeLines } from "./test-support/transcript-lines.js";
import { testData } from "../../test/test-data.js";

const { temporaryDirectory, openScratchStore } = scratchStores("ctxwin-faithful-import-");
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const shared = testData("transcripts", "the import test of the real programs' transcripts");

const textOf = (row: StoredRow) => renderRowText(row);
const toolParts = (rows: StoredRow[]) =>
  rows.flatMap((row) => row.parts.filter((part) => part.type === "dynamic-tool")) as unknown as {
    toolName: string;
    state: string;
    output?: string;
  }[];

/** Marks files as written a minute ago: settled even with `settleMs: 0` (a fresh copy's mtime can be ahead of Date.now()). */
function settle(...files: string[]): void {
  const past = new Date(Date.now() - 60_000);
  for (const file of files) utimesSync(file, past, past);
}

async function onlySession(store: HistoryStore): Promise<{ sessionId: string; rows: StoredRow[] }> {
  const [session] = await store.sessions();
  return { sessionId: session!.sessionId, rows: await allRows(store, session!.sessionId) };
}

describe.skipIf(shared === undefined)("the transcripts the real programs wrote ($CTXWIN_TEST_DATA/transcripts)", () => {
  /** Imports one program's folder of transcripts into a fresh store: the report and its one session's rows. */
  async function importShared(format: "claude-code" | "codex", folder: string) {
    const { store, report } = await importSettled(format, [path.join(shared ?? "", folder)]);
    return { report, rows: (await onlySession(store)).rows };
  }

  /** One call paired with its output, and one compaction boundary: what both programs' transcripts hold. */
  function expectPairedCallAndCompaction(rows: StoredRow[]): void {
    expect(toolParts(rows).map((part) => part.state)).toEqual(["output-available"]);
    expect(rows.filter((row) => row.boundary?.kind === "compaction")).toHaveLength(1);
  }

  it("Claude Code 2.1.197: its own times, folder, git branch, model and version; paired calls; the compaction boundary", async () => {
    const { report, rows } = await importShared("claude-code", "claude-code-2.1.197");
    expect(report).toMatchObject({ unknownLines: 0, unknownLineTypes: {}, malformedCount: 0, rowsWaiting: 0 });
    expect(rows[0]?.meta).toMatchObject({
      type: "imported-session",
      project: "/home/dev/work/cc-proj",
      gitBranch: "HEAD",
      model: "claude-opus-4-8",
      cliVersion: "2.1.197",
    });
    // The transcript's earliest line (the listing attachment Claude Code dates 1 ms before the prompt it
    // follows) and its last line, not the time of the import.
    expect(rows[0]?.createdAt).toBe("2026-12-05T06:49:44.043Z");
    expect(rows.at(-1)?.createdAt.startsWith("2026-12-05T06:")).toBe(true);
    expectPairedCallAndCompaction(rows);
  });

  it("Codex 0.171.0: its own times, folder, model (turn_context) and version; paired calls; the compaction boundary", async () => {
    const { report, rows } = await importShared("codex", "codex-0.171.0");
    expect(report).toMatchObject({ unknownLines: 0, malformedCount: 0, rowsWaiting: 0 });
    expect(rows[0]?.meta).toMatchObject({
      project: "/home/dev/work/codex-proj",
      model: "gpt-4.1-mini",
      cliVersion: "0.171.0",
    });
    expect(rows[0]?.meta?.["gitBranch"]).toBeUndefined(); // the folder was not a git checkout
    expect(rows[0]?.createdAt).toBe("2026-12-05T06:49:56.078Z");
    expect(rows.at(-1)?.createdAt.startsWith("2026-12-05T06:50:")).toBe(true);
    expectPairedCallAndCompaction(rows);
  });
});

describe("lines the importer does not know (ADR 0066)", () => {
  const claudeLine = (extra: Record<string, unknown>) =>
    JSON.stringify({
      sessionId: "9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a",
      cwd: "/home/dev/app",
      timestamp: "2026-12-04T09:00:00.000Z",
      isSidechain: false,
      ...extra,
    });

  it("Claude Code: kept as raw rows, counted by type, searchable, never sent to a model, imported once", async () => {
    const folder = temporaryDirectory();
    const file = writeLines(folder, "9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a.jsonl", [
      claudeLine({ type: "user", uuid: "u1", message: { role: "user", content: "Where is the FINCH-12 flag read?" } }),
      claudeLine({ type: "progress", uuid: "u2", data: { message: "hook ran FINCH-12 check" } }),
      claudeLine({ type: "system", subtype: "hook_output", uuid: "u3", content: "pre-commit: FINCH-12 ok" }),
      claudeLine({ type: "attachment", uuid: "u4", attachment: { type: "todo_reminder", content: "FINCH-12 todo" } }),
      claudeLine({
        type: "assistant",
        uuid: "u5",
        message: {
          id: "m5",
          role: "assistant",
          model: "claude-opus-4-8",
          content: [{ type: "server_widget", value: "FINCH-12" }],
        },
      }),
      claudeLine({
        type: "assistant",
        uuid: "u6",
        message: {
          id: "m6",
          role: "assistant",
          model: "claude-opus-4-8",
          content: [{ type: "text", text: "It is read in flags.ts." }],
        },
      }),
    ]);
    const store = openScratchStore();
    const report = await importFiles({ store, format: "claude-code", paths: [file], settleMs: 0 });
    expect(report.unknownLines).toBe(4);
    expect(report.unknownLineTypes).toEqual({
      progress: 1,
      "system:hook_output": 1,
      "attachment:todo_reminder": 1,
      "assistant:server_widget": 1,
    });
    expect(formatReport(report)).toContain(
      "4 unknown lines kept as raw rows (assistant:server_widget: 1, attachment:todo_reminder: 1, progress: 1, system:hook_output: 1)",
    );
    const { sessionId, rows } = await onlySession(store);
    const raw = rows.filter((row) => row.meta?.type === "imported-raw-line");
    expect(raw.map((row) => [row.id, row.meta?.["lineType"]])).toEqual([
      ["u2", "progress"],
      ["u3", "system:hook_output"],
      ["u4", "attachment:todo_reminder"],
      ["u5", "assistant:server_widget"],
    ]);
    expect(raw.every((row) => row.role === "system" && row.synthetic === true && !isProviderEligible(row))).toBe(true);
    expect(textOf(raw[0]!)).toContain('"hook ran FINCH-12 check"');
    const hits = await store.search(sessionId, { query: "FINCH-12", mode: "literal" });
    expect(hits.hits.map((hit) => hit.row.id).sort()).toEqual(["u1", "u2", "u3", "u4", "u5"]);

    const again = await importFiles({ store, format: "claude-code", paths: [file], settleMs: 0 });
    expect(again).toMatchObject({ rowsAdded: 0, unknownLines: 4 });
  });

  it("Codex: unknown line types and response items are raw rows; an image is a file part", async () => {
    const folder = temporaryDirectory();
    const id = "01d1e2f3-0000-7000-8000-00000000000a";
    const line = (type: string, payload: Record<string, unknown>, second: number) =>
      JSON.stringify({ timestamp: `2026-12-04T09:00:0${second}.000Z`, type, payload });
    const file = writeLines(folder, `rollout-2026-12-04T09-00-00-${id}.jsonl`, [
      line(
        "session_meta",
        { id, timestamp: "2026-12-04T09:00:00.000Z", cwd: "/home/dev/app", cli_version: "0.171.0" },
        0,
      ),
      line(
        "response_item",
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "What does this screen say?" },
            { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" },
          ],
        },
        1,
      ),
      line("response_item", { type: "web_search_call", status: "completed", action: { query: "GANNET-7 release" } }, 2),
      line("future_state", { note: "GANNET-7" }, 3),
      line(
        "response_item",
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "It says GANNET-7." }] },
        4,
      ),
      line("event_msg", { type: "task_complete" }, 5),
    ]);
    const { store, report } = await importSettled("codex", [file]);
    expect(report.unknownLineTypes).toEqual({ "response_item:web_search_call": 1, future_state: 1 });
    const { rows } = await onlySession(store);
    expect(rows.filter((row) => row.meta?.type === "imported-raw-line").map((row) => row.meta?.["lineType"])).toEqual([
      "response_item:web_search_call",
      "future_state",
    ]);
    const prompt = rows.find((row) => row.role === "user")!;
    expect(prompt.parts[1]).toEqual({
      type: "file",
      mediaType: "image/png",
      url: "data:image/png;base64,iVBORw0KGgo=",
    });
    expect(textOf(prompt)).toBe("What does this screen say?\n[image]");
  });
});

describe("sub-agents become child sessions (ADR 0067)", () => {
  const claudeParent = "claude-code:4c2e9b1a-6d3f-4e8a-9b7c-0a1b2c3d4e5f";
  const claudeChild = `${claudeParent}/agent-a7f3c21`;

  /** Checks that the sub-agent's session hangs under the parent's Task call, and returns that call's row. */
  async function expectChildOfTaskCall(store: HistoryStore): Promise<StoredRow> {
    const taskRow = (await allRows(store, claudeParent)).find((row) =>
      toolParts([row]).some((part) => part.toolName === "Task"),
    )!;
    expect((await store.session(claudeChild))?.parent).toEqual({
      sessionId: claudeParent,
      itemId: String(taskRow.seq),
    });
    return taskRow;
  }

  it("Claude Code: the sub-agent's file is a child of the call that started it, from either file, once", async () => {
    const store = openScratchStore();
    const project = path.join(fixtures, "claude-code-2.1.197-subagent", "-home-dev-app");
    const childFile = path.join(project, "4c2e9b1a-6d3f-4e8a-9b7c-0a1b2c3d4e5f", "subagents", "agent-a7f3c21.jsonl");
    // Named alone, the sub-agent's file brings its session's file.
    const first = await importFiles({ store, format: "claude-code", paths: [childFile], settleMs: 0 });
    expect(first).toMatchObject({ files: 2, sessionsUpdated: 2, warnings: [] });
    const taskRow = await expectChildOfTaskCall(store);
    expect(taskRow.metadata).toMatchObject({ childSessions: [claudeChild] });
    const childRows = await allRows(store, claudeChild);
    expect(childRows[0]?.meta).toMatchObject({
      parentSourceSessionId: "4c2e9b1a-6d3f-4e8a-9b7c-0a1b2c3d4e5f",
      agentId: "a7f3c21",
      model: "claude-haiku-4-5",
      gitBranch: "feature/ledger",
    });
    expect(toolParts(childRows).map((part) => [part.toolName, part.state])).toEqual([["Grep", "output-available"]]);

    // Again, from the folder: nothing new, no second child.
    const again = await importFiles({
      store,
      format: "claude-code",
      paths: [path.join(fixtures, "claude-code-2.1.197-subagent")],
      settleMs: 0,
    });
    expect(again).toMatchObject({ files: 2, rowsAdded: 0, warnings: [] });
    expect((await store.sessions({ parentSessionId: claudeParent })).map((session) => session.sessionId)).toEqual([
      claudeChild,
    ]);
    expect((await store.sessions()).length).toBe(2);
  });

  it("Claude Code: while the Task call still runs, its sub-agent waits, then hangs under the call, not under the session's start", async () => {
    const source = path.join(fixtures, "claude-code-2.1.197-subagent");
    const folder = temporaryDirectory();
    cpSync(source, folder, { recursive: true });
    const parentFile = path.join(folder, "-home-dev-app", "4c2e9b1a-6d3f-4e8a-9b7c-0a1b2c3d4e5f.jsonl");
    const lines = readFileSync(parentFile, "utf8").trimEnd().split("\n");
    // The sub-agent is running: its result line is not written yet (both files are fresh, not settled).
    writeFileSync(parentFile, `${lines.slice(0, 3).join("\n")}\n`);
    const store = openScratchStore();
    const running = await importFiles({ store, format: "claude-code", paths: [folder] });
    expect(running.rowsWaiting).toBeGreaterThanOrEqual(5); // the call row, and the child's header and four rows
    expect(await store.session(claudeChild)).toBeUndefined();

    writeFileSync(parentFile, `${lines.join("\n")}\n`);
    const finished = await importFiles({ store, format: "claude-code", paths: [folder] });
    expect(finished).toMatchObject({ rowsWaiting: 0, warnings: [] });
    await expectChildOfTaskCall(store);
  });

  it("Codex: a rollout whose session_meta names a parent thread is the child of its spawn_agent call, even when its file is read first", async () => {
    const parent = "codex:01c0ffee-0000-7000-8000-000000000001";
    const child = "codex:01c0ffee-0000-7000-8000-000000000002";
    const folder = path.join(fixtures, "codex-0.171.0-subagent");
    expect(readdirSync(folder).sort()[0]).toContain("000000000002"); // the child's file sorts first
    const store = openScratchStore();
    const report = await importFiles({ store, format: "codex", paths: [folder], settleMs: 0 });
    expect(report).toMatchObject({ sessionsUpdated: 2, unknownLines: 0, warnings: [] });
    const parentRows = await allRows(store, parent);
    expect(parentRows[0]?.meta).toMatchObject({
      gitBranch: "release/2026-12",
      model: "gpt-5.1-codex",
      project: "/home/dev/billing",
    });
    const spawnRow = parentRows.find((row) => toolParts([row]).some((part) => part.toolName === "spawn_agent"))!;
    expect(spawnRow.metadata).toMatchObject({ childSessions: [child] });
    expect((await store.session(child))?.parent).toEqual({ sessionId: parent, itemId: String(spawnRow.seq) });
    expect((await allRows(store, child))[0]?.meta).toMatchObject({
      parentSourceSessionId: "01c0ffee-0000-7000-8000-000000000001",
      model: "gpt-5.1-codex-mini",
    });

    const again = await importFiles({ store, format: "codex", paths: [folder], settleMs: 0 });
    expect(again).toMatchObject({ rowsAdded: 0, warnings: [] });
    expect((await store.sessions({ parentSessionId: parent })).map((session) => session.sessionId)).toEqual([child]);
  });

  it("Codex: a child imported without its parent is a session of its own, and the report says why", async () => {
    const folder = temporaryDirectory();
    const source = path.join(fixtures, "codex-0.171.0-subagent");
    const childFile = readdirSync(source).find((name) => name.includes("000000000002"))!;
    cpSync(path.join(source, childFile), path.join(folder, childFile));
    const { store, report } = await importSettled("codex", [folder]);
    expect(report.sessionsUpdated).toBe(1);
    expect(report.warnings.join("\n")).toMatch(
      /sub-agent of 'codex:01c0ffee-0000-7000-8000-000000000001', which is not in the store/,
    );
    expect((await store.session("codex:01c0ffee-0000-7000-8000-000000000002"))?.parent).toBeUndefined();

    // Imported again, the child stays alone while its parent is still missing.
    const still = await importFiles({ store, format: "codex", paths: [folder], settleMs: 0 });
    expect(still).toMatchObject({ rowsAdded: 0, childrenReattached: 0 });
    expect(still.warnings.join("\n")).toMatch(
      /imported before its parent 'codex:01c0ffee-0000-7000-8000-000000000001' and stays a session of its own until/,
    );
  });

  it("Codex: a child imported before its parent is attached to the spawn_agent call by the import that brings the parent, once", async () => {
    const parent = "codex:01c0ffee-0000-7000-8000-000000000001";
    const child = "codex:01c0ffee-0000-7000-8000-000000000002";
    const folder = temporaryDirectory();
    const source = path.join(fixtures, "codex-0.171.0-subagent");
    const [childFile, parentFile] = readdirSync(source).sort() as [string, string];
    cpSync(path.join(source, childFile), path.join(folder, childFile));
    settle(path.join(folder, childFile));
    const store = openScratchStore();
    await importFiles({ store, format: "codex", paths: [folder], settleMs: 0 });
    const childRows = await allRows(store, child);

    cpSync(path.join(source, parentFile), path.join(folder, parentFile));
    settle(path.join(folder, parentFile));
    const second = await importFiles({ store, format: "codex", paths: [folder], settleMs: 0 });
    expect(second).toMatchObject({ sessionsUpdated: 1, childrenReattached: 1, warnings: [] });
    expect(formatReport(second)).toMatch(/, 1 sub-agent sessions attached to their parents,/);
    const spawnRow = (await allRows(store, parent)).find((row) =>
      toolParts([row]).some((part) => part.toolName === "spawn_agent"),
    )!;
    expect((await store.session(child))?.parent).toEqual({ sessionId: parent, itemId: String(spawnRow.seq) });
    expect(await allRows(store, child)).toEqual(childRows);
    expect((await store.sessions({ parentSessionId: parent })).map((session) => session.sessionId)).toEqual([child]);

    const third = await importFiles({ store, format: "codex", paths: [folder], settleMs: 0 });
    expect(third).toMatchObject({ rowsAdded: 0, childrenReattached: 0, warnings: [] });
    expect(formatReport(third)).not.toMatch(/sub-agent/);
  });

  it("Claude Code: a sub-agent's file seen before its session's file is attached to the Task call later", async () => {
    const source = path.join(fixtures, "claude-code-2.1.197-subagent");
    const folder = temporaryDirectory();
    cpSync(source, folder, { recursive: true });
    const parentFile = path.join(folder, "-home-dev-app", "4c2e9b1a-6d3f-4e8a-9b7c-0a1b2c3d4e5f.jsonl");
    const parentText = readFileSync(parentFile, "utf8");
    rmSync(parentFile);
    const store = openScratchStore();
    const childFile = path.join(
      folder,
      "-home-dev-app",
      "4c2e9b1a-6d3f-4e8a-9b7c-0a1b2c3d4e5f",
      "subagents",
      "agent-a7f3c21.jsonl",
    );
    settle(childFile);
    const first = await importFiles({ store, format: "claude-code", paths: [childFile], settleMs: 0 });
    expect(first).toMatchObject({ sessionsUpdated: 1 });
    expect((await store.session(claudeChild))?.parent).toBeUndefined();

    writeFileSync(parentFile, parentText);
    settle(parentFile);
    const second = await importFiles({ store, format: "claude-code", paths: [folder], settleMs: 0 });
    expect(second).toMatchObject({ childrenReattached: 1, warnings: [] });
    await expectChildOfTaskCall(store);
  });
});
