/**
 * End to end: `ctxwin history` against a temp project whose store holds a history crossing reset,
 * rollover and compaction boundaries with hidden rows — through the program's command tree in this
 * process (run-ctxwin-in-process.ts), and once as the built binary in a child process.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { renderRowText } from "../../core/row-text.js";
import { openStore } from "../../store/open-store.js";
import type { StoredRow } from "../../store/port.js";
import {
  CLEARED_SECRET,
  seedMixedHistory,
  type MixedHistory,
} from "../../tools/session-history/test-support/mixed-history.js";
import * as rows from "../../tools/session-history/test-support/history-rows.js";
import { runCtxwinInProcess } from "../test-support/run-ctxwin-in-process.js";
import { CTXWIN_BINARY, runCtxwin, type CtxwinExit } from "../test-support/run-ctxwin.js";
import { seededProject } from "../test-support/seeded-project.js";

// Each test spawns a few Node processes; leave room for a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

let project: string;
let history: MixedHistory;

/** `ctxwin history …` in this process (run-ctxwin-in-process.ts). */
function ctxwin(args: string[], { cwd = project }: { cwd?: string } = {}): Promise<CtxwinExit> {
  return runCtxwinInProcess(["history", ...args], { cwd });
}

async function json<T>(args: string[]): Promise<T> {
  const result = await ctxwin([...args, "--json"]);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as T;
}

function expectOneLineError(result: { status: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  expect(result.status).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

beforeAll(async () => {
  // test/build-once.ts (vitest global setup) built dist/ before any test ran.
  expect(existsSync(CTXWIN_BINARY)).toBe(true);
  project = await seededProject("ctxwin-history-cli-", async (store) => {
    history = await seedMixedHistory(store, "s1");
    await store.append("s2", [rows.userText("a second session about invoices")]);
  });
}, 120_000);

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

async function storedRows(sessionId: string): Promise<StoredRow[]> {
  const store = openStore({ directory: project });
  try {
    return (await store.items(sessionId, { includeCleared: true, limit: 500 })).rows;
  } finally {
    await store.close();
  }
}

describe("ctxwin history sessions", () => {
  it("lists every session with its floor", async () => {
    const sessions = await json<{ session_id: string; floor_item: string; last_item: string }[]>(["sessions"]);
    const byId = new Map(sessions.map((session) => [session.session_id, session]));
    expect([...byId.keys()].sort()).toEqual(["s1", "s2"]);
    expect(byId.get("s1")).toMatchObject({
      floor_item: String(history.seq["resetBoundary"]),
      last_item: String(history.all.length),
    });
    expect(byId.get("s2")).toMatchObject({ floor_item: "0", last_item: "1" });
    expect((await ctxwin(["sessions"])).stdout).toMatch(/^s1 .*reset at #5$/m);
  });
});

describe("ctxwin history windows", () => {
  it("lists the windows from the reset on, oldest first, and all of them with --include-cleared", async () => {
    const windows = await json<
      { window_id: string; kind: string; item_count: number; active: boolean; first_item: string | null }[]
    >(["windows", "s1"]);
    expect(windows.map((window) => [window.window_id, window.kind])).toEqual([
      ["w:5", "reset"],
      ["w:8", "rollover"],
      ["w:14", "compaction"],
      ["w:17", "rollover"],
    ]);
    expect(windows.map((window) => window.item_count)).toEqual([2, 3, 3, 1]);
    expect(windows.at(-1)?.active).toBe(true);
    expect(windows[1]?.first_item).toBe(String(history.seq["secondWindowQuestion"]));
    const all = await json<{ window_id: string }[]>(["windows", "s1", "--include-cleared"]);
    expect(all.map((window) => window.window_id)).toEqual(["w:0", "w:5", "w:8", "w:14", "w:17"]);
    expect((await ctxwin(["windows", "s1"])).stdout).not.toContain(CLEARED_SECRET);
  });
});

describe("ctxwin history items", () => {
  it("lists the visible items of a window, never hidden or rejected rows", async () => {
    const items = await json<{ item_id: string; role: string; type?: string; preview: string }[]>([
      "items",
      "s1",
      "w:8",
    ]);
    expect(items.map((item) => item.item_id)).toEqual(
      [history.seq["secondWindowQuestion"], history.seq["grepCall"], history.seq["unknownType"]].map(String),
    );
    expect(items[2]?.type).toBe("checkpoint-v9");
    expect(JSON.stringify(items)).not.toMatch(/hidden-lead-in-marker|rejected-input-marker/);
    const human = (await ctxwin(["items", "s1", "w:8"])).stdout;
    expect(human).toContain("── w:8 ──");
    expect(human).toContain("#10  user  Which services write to orders.status?");
  });

  it("keeps the cleared window out unless --include-cleared", async () => {
    expectOneLineError(await ctxwin(["items", "s1", "w:0"]), /Window w:0 is not available/);
    const cleared = await json<{ item_id: string }[]>(["items", "s1", "w:0", "--include-cleared"]);
    expect(cleared.map((item) => item.item_id)).toEqual(["1", "2", "3"]);
  });
});

describe("ctxwin history search", () => {
  it("finds literal matches newest first, with snippets, and nothing hidden or cleared", async () => {
    const hits = await json<{ item_id: string; window_id: string; snippet: string }[]>([
      "search",
      "s1",
      "orders.status",
    ]);
    expect(hits.map((hit) => hit.item_id)).toEqual(
      [history.seq["compaction"], history.seq["grepCall"], history.seq["secondWindowQuestion"]].map(String),
    );
    expect(hits[0]).toMatchObject({ window_id: "w:14" });
    expect(hits.every((hit) => hit.snippet.toLowerCase().includes("orders.status"))).toBe(true);
    expect(await json<unknown[]>(["search", "s1", "hidden-lead-in-marker"])).toEqual([]);
    expect(await json<unknown[]>(["search", "s1", CLEARED_SECRET])).toEqual([]);
    expect((await ctxwin(["search", "s1", CLEARED_SECRET])).stdout).toBe("No matches.\n");
    const cleared = await json<{ item_id: string }[]>(["search", "s1", CLEARED_SECRET, "--include-cleared"]);
    expect(cleared.map((hit) => hit.item_id).sort()).toEqual(["1", "2", "3"]);
  });

  it("ranks with --ranked and honours --limit", async () => {
    const hits = await json<{ item_id: string }[]>(["search", "s1", "backfill", "--ranked"]);
    const { legacyMixed, activeAnswer } = history.seq as { legacyMixed: number; activeAnswer: number };
    const found = hits.map((hit) => Number(hit.item_id));
    expect(found).toEqual(expect.arrayContaining([legacyMixed, activeAnswer]));
    // Any other hit is the item right after one that says "backfill" (its context, ADR 0052).
    expect(
      found.filter((seq) => seq !== legacyMixed && seq !== activeAnswer).every((seq) => seq === legacyMixed + 1),
    ).toBe(true);
    expect(await json<unknown[]>(["search", "s1", "orders", "--limit", "1"])).toHaveLength(1);
  });

  it("narrows by --role and --tool, and orders ranked hits --newest first", async () => {
    const ids = async (args: string[]) =>
      (await json<{ item_id: string; role: string }[]>(["search", "s1", ...args])).map((hit) => hit.item_id);
    const { seq } = history;
    expect(await ids(["orders", "--role", "user"])).toEqual(
      [seq["compaction"], seq["secondWindowQuestion"], seq["afterReset"]].map(String),
    );
    expect(await ids(["orders", "--tool", "GREP"])).toEqual([String(seq["grepCall"])]);
    // The legacy row calls grep too, and follows the compaction summary that names the orders (its context, ADR 0052).
    expect(await ids(["orders", "--ranked", "--role", "assistant", "--tool", "grep"])).toEqual(
      [seq["grepCall"], seq["legacyMixed"]].map(String),
    );
    const newest = await ids(["orders", "--ranked", "--newest"]);
    expect(newest).toEqual([...newest].sort((left, right) => Number(right) - Number(left)));
    expect(newest.length).toBeGreaterThan(2);
    const role = await ctxwin(["search", "s1", "orders", "--role", "tool"]);
    expect(role.status).not.toBe(0);
    expect(role.stderr).toContain("--role");
    expectOneLineError(await ctxwin(["search", "s1", "orders", "--newest"]), /--newest orders ranked hits/);
  });
});

describe("ctxwin history read", () => {
  it("prints an item's full rendered text", async () => {
    const grepRow = history.all.find((row) => row.seq === history.seq["grepCall"])!;
    const entry = await json<{ item_id: string; window_id: string; text: string; total_chars: number }>([
      "read",
      "s1",
      String(grepRow.seq),
    ]);
    expect(entry).toMatchObject({ item_id: String(grepRow.seq), window_id: "w:8", text: renderRowText(grepRow) });
    expect(entry.total_chars).toBe(renderRowText(grepRow).length);
    expect((await ctxwin(["read", "s1", String(grepRow.seq)])).stdout).toContain(`\n\n${renderRowText(grepRow)}\n`);
  });

  it("refuses hidden rows, and cleared rows unless --include-cleared", async () => {
    expectOneLineError(await ctxwin(["read", "s1", String(history.seq["leadIn1"])]), /Item 9 is not available/);
    expectOneLineError(await ctxwin(["read", "s1", "1"]), /Item 1 is not available/);
    expect((await json<{ text: string }>(["read", "s1", "1", "--include-cleared"])).text).toContain(CLEARED_SECRET);
  });
});

describe("ctxwin history export", () => {
  it("exports jsonl that round-trips every stored row after the floor", async () => {
    const stored = await storedRows("s1");
    const parse = (stdout: string) =>
      stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as StoredRow);
    const result = await ctxwin(["export", "s1"]);
    expect(result.status).toBe(0);
    expect(parse(result.stdout)).toEqual(stored.filter((row) => row.seq > history.seq["resetBoundary"]!));
    expect(result.stdout).not.toContain(CLEARED_SECRET);
    expect(parse((await ctxwin(["export", "s1", "--format", "jsonl", "--include-cleared"])).stdout)).toEqual(stored);
  });

  it("exports markdown with one divided section per window and only readable rows", async () => {
    const result = await ctxwin(["export", "s1", "--format", "markdown"]);
    expect(result.status).toBe(0);
    const headings = [...result.stdout.matchAll(/^## Window (w:\d+)/gm)].map((match) => match[1]);
    expect(headings).toEqual(["w:5", "w:8", "w:14", "w:17"]);
    expect(result.stdout.match(/^---$/gm)).toHaveLength(4);
    expect(result.stdout).toContain("Backfill finished; 1,204 orders updated");
    expect(result.stdout).not.toMatch(
      new RegExp(`${CLEARED_SECRET}|hidden-lead-in-marker|hidden-continue-marker|rejected-input-marker`),
    );
  });
});

describe("ctxwin history errors", () => {
  it("reports an unknown session and malformed ids on one line with exit code 1", async () => {
    expectOneLineError(await ctxwin(["windows", "nope"]), /^ctxwin history: Unknown session 'nope'/);
    expectOneLineError(await ctxwin(["items", "s1", "window-3"]), /Malformed window id 'window-3'/);
    expectOneLineError(await ctxwin(["read", "s1", "abc"]), /Malformed item id 'abc'/);
    expectOneLineError(await ctxwin(["export", "nope"]), /Unknown session 'nope'/);
  });

  it("refuses a directory without a database and does not create one", async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), "ctxwin-history-empty-"));
    try {
      expectOneLineError(
        await ctxwin(["sessions"], { cwd: empty }),
        /No ctxwin history in .*ctxwin\.db does not exist/,
      );
      expectOneLineError(await ctxwin(["windows", "s1", "--dir", empty]), /No ctxwin history in/);
      expect(existsSync(path.join(empty, ".ctxwin"))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("reads another directory with --dir", async () => {
    // The built binary in a child process, once in this file: the rest runs in-process.
    const result = await runCtxwin(["history", "sessions", "--dir", project, "--json"], { cwd: os.tmpdir() });
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as { session_id: string }[]).map((session) => session.session_id).sort()).toEqual(
      ["s1", "s2"],
    );
  });

  it("leaves bad flags and values to commander", async () => {
    const unknown = await ctxwin(["windows", "s1", "--bogus"]);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain("unknown option '--bogus'");
    const format = await ctxwin(["export", "s1", "--format", "pdf"]);
    expect(format.status).not.toBe(0);
    expect(format.stderr).toContain("--format");
    const limit = await ctxwin(["search", "s1", "orders", "--limit", "zero"]);
    expect(limit.status).not.toBe(0);
    expect(limit.stderr).toContain("positive whole number");
    const tooMany = await ctxwin(["search", "s1", "orders", "--limit", "5000"]);
    expect(tooMany.status).not.toBe(0);
    expect(tooMany.stderr).toContain("up to 1000");
  });
});
