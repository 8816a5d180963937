import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import { StoreFormatError, StoreReadOnlyError } from "../errors.js";
import { DEFAULT_STORE_PATH, openStore, type SqliteOpenOptions } from "../open-store.js";
import type { HistoryStore, StoreWarning, WindowSummary } from "../port.js";
import { CTXWIN_APPLICATION_ID, SCHEMA_V1, STORE_FORMAT_VERSION } from "./schema.js";
import { wordIndexEntries, writeFormatFiveDatabase } from "./test-support/format-five-database.js";
import { writeFormatThreeDatabase } from "./test-support/format-three-database.js";
import { rolloverBoundary, writeFormatTwoDatabase } from "./test-support/format-two-database.js";
import { historyLookup, text } from "../test-support/conformance-rows.js";
import { appendThreeNeedles, expectSecondRowSkipped } from "../test-support/corrupt-row.js";
import { temporaryDatabases } from "../test-support/temporary-database.js";
import { expectCurrentFormatWhole } from "./test-support/current-format.js";

const lookup = historyLookup("after");
const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

function catchError(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("SQLite store files", () => {
  let directory: string;
  let file: string;
  const opened: HistoryStore[] = [];
  const open = (options: SqliteOpenOptions = {}) => {
    const store = openStore({ path: file, ...options });
    opened.push(store);
    return store;
  };

  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), "ctxwin-files-"));
    file = path.join(directory, "nested", "ctxwin.db");
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  it("creates the database (and its directory) and keeps rows across reopen", async () => {
    const first = open();
    await first.append("s", [text("durable")]);
    await first.close();
    const second = open();
    expect((await second.read("s", 1))?.parts).toEqual([{ type: "text", text: "durable" }]);
    const db = new Database(file, { readonly: true });
    expect(db.pragma("application_id", { simple: true })).toBe(CTXWIN_APPLICATION_ID);
    expect(db.pragma("user_version", { simple: true })).toBe(STORE_FORMAT_VERSION);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("defaults to .ctxwin/ctxwin.db inside the project directory", async () => {
    const store = openStore({ directory });
    opened.push(store);
    await store.append("s", [text("x")]);
    expect(existsSync(path.join(directory, DEFAULT_STORE_PATH))).toBe(true);
  });

  it("two handles on one file see each other's writes and keep seq gap-free", async () => {
    const left = open();
    const right = open();
    await left.append("s", [text("a")]);
    await right.append("s", [text("b"), text("c")]);
    await left.append("s", [text("d")]);
    expect((await right.items("s")).rows.map((row) => [row.seq, (row.parts[0] as { text: string }).text])).toEqual([
      [1, "a"],
      [2, "b"],
      [3, "c"],
      [4, "d"],
    ]);
  });

  it("skips a row whose stored JSON is corrupt, with a warning and a count, on every read path", async () => {
    const warnings: StoreWarning[] = [];
    const store = open({ onWarning: (warning) => warnings.push(warning) });
    await appendThreeNeedles(store);
    const db = new Database(file);
    db.prepare("UPDATE ctxwin_rows SET body = ? WHERE seq = 2").run('{"id": "broken", "role": "us');
    db.close();
    await expectSecondRowSkipped(store);
    expect(warnings.length).toBeGreaterThanOrEqual(5);
    expect(warnings[0]).toMatchObject({ code: "corrupt-row", sessionId: "s", seq: 2 });
    expect(store.diagnostics().corruptRowsSkipped).toBe(warnings.length);
    expect((await store.append("s", [text("still writable")]))[0]?.seq).toBe(4);
  });

  it("skips rows of a newer row format and rows that no longer match the schema", async () => {
    const warnings: StoreWarning[] = [];
    const store = open({ onWarning: (warning) => warnings.push(warning) });
    await store.append("s", [text("a"), text("b"), text("c")]);
    const db = new Database(file);
    db.prepare("UPDATE ctxwin_rows SET body = ? WHERE seq = 1").run(
      JSON.stringify({ v: 99, id: "x", role: "user", parts: [], createdAt: "now" }),
    );
    db.prepare("UPDATE ctxwin_rows SET body = ? WHERE seq = 2").run(
      JSON.stringify({ id: "x", role: "robot", parts: [], createdAt: "now" }),
    );
    db.close();
    expect((await store.activeWindow("s")).rows.map((row) => row.seq)).toEqual([3]);
    expect(warnings.map((warning) => [warning.seq, warning.code])).toEqual([
      [1, "newer-row-format"],
      [2, "corrupt-row"],
    ]);
  });

  it("refuses a database written by a newer ctxwin and leaves it untouched", async () => {
    const store = open();
    await store.append("s", [text("x")]);
    await store.close();
    const db = new Database(file);
    db.pragma(`user_version = ${STORE_FORMAT_VERSION + 1}`);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    const before = digest(file);
    const error = (() => {
      try {
        openStore({ path: file });
      } catch (caught) {
        return caught;
      }
    })();
    expect(StoreFormatError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      new RegExp(`newer ctxwin.*format ${STORE_FORMAT_VERSION + 1}.*up to ${STORE_FORMAT_VERSION}`),
    );
    expect(digest(file)).toBe(before);
  });

  it("refuses a file that is not a SQLite database and leaves it untouched", () => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "this is my shopping list, not a database\n".repeat(100));
    const before = digest(file);
    expect(() => openStore({ path: file })).toThrowError(/not a ctxwin database \(not a SQLite file\)/);
    expect(digest(file)).toBe(before);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it("refuses a SQLite database of another application and leaves it untouched", () => {
    mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    db.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices (total) VALUES (9.5);");
    db.close();
    const before = digest(file);
    expect(() => openStore({ path: file })).toThrowError(/SQLite database of another application/);
    expect(digest(file)).toBe(before);
    const check = new Database(file, { readonly: true });
    expect(check.pragma("journal_mode", { simple: true })).toBe("delete");
    check.close();
  });

  it("creates a new database whole: no half-made file, no temporary file left behind", async () => {
    const store = open();
    expect(readdirSync(path.dirname(file)).filter((name) => !name.startsWith("ctxwin.db-"))).toEqual(["ctxwin.db"]);
    expect(statSync(file).size).toBeGreaterThan(0);
    await store.append("s", [text("x")]);
    await store.close();
    expect(readdirSync(path.dirname(file))).toEqual(["ctxwin.db"]);
  });

  it("refuses an empty file named like the database and leaves it empty", () => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "");
    for (const readOnly of [false, true]) {
      const error = catchError(() => openStore({ path: file, readOnly }));
      expect(StoreFormatError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /is an empty file \(0 bytes\), not a ctxwin database; it was left untouched\. If it is not needed, delete it/,
      );
    }
    expect(statSync(file).size).toBe(0);
    expect(readdirSync(path.dirname(file))).toEqual(["ctxwin.db"]);
  });

  it("opens read-only: reads work, writes throw StoreReadOnlyError, and the file is unchanged", async () => {
    const writer = open();
    await writer.append("s", [text("kept"), text("also kept")]);
    await writer.close();
    const before = digest(file);
    const reader = open({ readOnly: true });
    expect((await reader.items("s")).rows.map((row) => row.seq)).toEqual([1, 2]);
    expect((await reader.search("s", { query: "also", mode: "literal" })).hits.map((hit) => hit.row.seq)).toEqual([2]);
    for (const write of [
      () => reader.append("s", [text("refused")]),
      () => reader.deleteSession("s"),
      () => reader.attachParent("s", { sessionId: "s2", itemId: "1" }),
    ]) {
      const error = await write().catch((caught: unknown) => caught);
      expect(StoreReadOnlyError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: "opened-read-only", path: file });
      expect((error as Error).message).toMatch(/it was opened read-only\. Nothing was written/);
    }
    await reader.close();
    expect(digest(file)).toBe(before);
  });

  it("never creates a database when opened read-only", () => {
    const error = catchError(() => openStore({ path: file, readOnly: true }));
    expect(StoreFormatError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/No ctxwin database at .*read-only open never creates one/);
    expect(existsSync(path.dirname(file))).toBe(false);
  });

  it("refuses a directory in place of the database file", () => {
    mkdirSync(file, { recursive: true });
    expect(() => openStore({ path: file })).toThrowError(/is not a file/);
  });

  it("stores the token count of a row in its own column for the budget engine", async () => {
    const store = open();
    await store.append("s", [{ ...text("counted"), tokens: 17 }, text("uncounted")]);
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT seq, tokens FROM ctxwin_rows ORDER BY seq").all()).toEqual([
      { seq: 1, tokens: 17 },
      { seq: 2, tokens: null },
    ]);
    db.close();
    expect((await store.read("s", 1))?.tokens).toBe(17);
  });
});

const temporaryDatabase = temporaryDatabases("ctxwin-migrate-");

describe("SQLite store format migrations", () => {
  it("opens a format-1 database, migrates it once, and keeps its rows", async () => {
    const file = temporaryDatabase();
    const old = new Database(file);
    old.exec(SCHEMA_V1);
    old.pragma(`application_id = ${CTXWIN_APPLICATION_ID}`);
    old.pragma("user_version = 1");
    old
      .prepare(
        "INSERT INTO ctxwin_sessions (session_id, last_seq, active_window_seq, created_at, updated_at) VALUES ('s', 2, 2, 'then', 'then')",
      )
      .run();
    const insertRow = old.prepare(
      "INSERT INTO ctxwin_rows (session_key, seq, window_seq, visible, body) VALUES (1, ?, ?, ?, ?)",
    );
    insertRow.run(
      1,
      0,
      1,
      JSON.stringify({
        v: 1,
        id: "r1",
        role: "user",
        parts: [{ type: "text", text: "from format 1" }],
        createdAt: "2026-01-01T00:00:00.000Z",
      }),
    );
    const { meta } = rolloverBoundary("roll", 1500, 2000);
    insertRow.run(
      2,
      2,
      0,
      JSON.stringify({
        v: 1,
        id: "r2",
        role: "assistant",
        parts: [],
        boundary: { kind: "rollover" },
        meta,
        createdAt: "2026-01-01T00:00:01.000Z",
      }),
    );
    const insertWindow = old.prepare(
      "INSERT INTO ctxwin_windows (session_key, window_seq, kind, reason, rollover_id, first_seq, " +
        "last_seq, row_count, visible_count, started_at, ended_at) VALUES " +
        "(1, ?, ?, ?, ?, ?, ?, 1, ?, 'then', 'then')",
    );
    insertWindow.run(0, "start", null, null, 1, 1, 1);
    insertWindow.run(2, "rollover", "on-send", "roll", 2, 2, 0);
    old.close();
    const store = openStore({ path: file });
    expect((await store.read("s", 1))?.parts).toEqual([{ type: "text", text: "from format 1" }]);
    const summary = await store.session("s");
    expect(summary?.incarnation).toMatch(/^[0-9a-f]{32}$/);
    // Format 2 → 3 ran too: the rollover window got its boundary's figures.
    expect(
      (await store.windows("s")).windows.map(({ windowId, contextTokens, maxTokens }) => [
        windowId,
        contextTokens,
        maxTokens,
      ]),
    ).toEqual([
      ["w:2", 1500, 2000],
      ["w:0", undefined, undefined],
    ]);
    expect((await store.append("s", [text("after the migration")]))[0]?.seq).toBe(3);
    await store.close();
    const reopened = openStore({ path: file });
    expect((await reopened.session("s"))?.incarnation).toBe(summary?.incarnation);
    await reopened.close();
    expectCurrentFormatWhole(file);
  });

  it("a read-only open of an older format upgrades it once (the folder is writable) and then reads", async () => {
    const file = temporaryDatabase();
    await writeFormatTwoDatabase({
      file,
      sessions: { s: [[text("a"), rolloverBoundary("r1", 1420, 2000), text("b")]] },
    });
    const store = openStore({ path: file, readOnly: true });
    expect((await store.windows("s")).windows.map(({ windowId, contextTokens }) => [windowId, contextTokens])).toEqual([
      ["w:2", 1420],
      ["w:0", undefined],
    ]);
    expect(StoreReadOnlyError.isInstance(await store.append("s", [text("c")]).catch((error: unknown) => error))).toBe(
      true,
    );
    await store.close();
    expectCurrentFormatWhole(file);
  });

  it("opens a format-2 database and fills each rollover window's figures from its boundary row", async () => {
    const file = temporaryDatabase();
    const compaction: RowInput = {
      role: "user",
      parts: [{ type: "text", text: "summary" }],
      synthetic: true,
      boundary: { kind: "compaction" },
      meta: { type: "compaction-summary" },
    };
    // 1,201 rollover windows in one session: more than two pages of the backfill.
    const many = Array.from({ length: 1201 }, (_, index) => rolloverBoundary(`m${index}`, index, 100_000));
    await writeFormatTwoDatabase({
      file,
      sessions: {
        s: [
          [text("a"), rolloverBoundary("r1", 1420, 2000), text("b")],
          [rolloverBoundary("r2", 500, 1000), text("c")],
          [rolloverBoundary("r3", 7, 8), compaction],
        ],
        many: [[text("first"), ...many]],
      },
    });
    const old = new Database(file);
    expect(old.pragma("user_version", { simple: true })).toBe(2);
    // Boundaries a read would skip: corrupt JSON (r2) and a newer row format (r3).
    old.prepare("UPDATE ctxwin_rows SET body = '{\"broken' WHERE seq = 4 AND session_key = 1").run();
    const r3 = JSON.parse(
      (old.prepare("SELECT body FROM ctxwin_rows WHERE seq = 6 AND session_key = 1").get() as { body: string }).body,
    ) as Record<string, unknown>;
    old
      .prepare("UPDATE ctxwin_rows SET body = ? WHERE seq = 6 AND session_key = 1")
      .run(JSON.stringify({ ...r3, v: 99 }));
    old.close();

    const warnings: StoreWarning[] = [];
    const store = openStore({ path: file, onWarning: (warning) => warnings.push(warning) });
    const figures = async (sessionId: string) =>
      (await store.windows(sessionId, { limit: 1000 })).windows.map(({ windowId, kind, contextTokens, maxTokens }) => [
        windowId,
        kind,
        contextTokens,
        maxTokens,
      ]);
    expect(await figures("s")).toEqual([
      ["w:7", "compaction", undefined, undefined],
      ["w:6", "rollover", undefined, undefined],
      ["w:4", "rollover", undefined, undefined],
      ["w:2", "rollover", 1420, 2000],
      ["w:0", "start", undefined, undefined],
    ]);
    const manyWindows: WindowSummary[] = [];
    for (let beforeWindow: string | undefined; ;) {
      const page = await store.windows("many", {
        limit: 1000,
        ...(beforeWindow === undefined ? {} : { beforeWindow }),
      });
      manyWindows.push(...page.windows);
      if (!page.hasMore) break;
      beforeWindow = page.windows.at(-1)?.windowId;
    }
    expect(manyWindows).toHaveLength(1202);
    expect(
      manyWindows
        .filter((window) => window.kind === "rollover")
        .map((window) => [window.boundarySeq, window.contextTokens, window.maxTokens]),
    ).toEqual(many.map((_, index) => [index + 2, index, 100_000]).reverse());
    // The migration does not warn: the read path warns when it meets those rows.
    expect(warnings).toEqual([]);
    await store.append("s", [rolloverBoundary("r4", 30, 40)]);
    expect((await store.windows("s", { limit: 1 })).windows[0]).toMatchObject({
      windowId: "w:8",
      contextTokens: 30,
      maxTokens: 40,
    });
    await store.close();
    expectCurrentFormatWhole(file);
  });

  it("opens a format-3 database and rebuilds its search indexes: smaller, stemmed, every row still found (ADR 0032)", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "ctxwin-migrate-"));
    const file = path.join(directory, "ctxwin.db");
    const filler = Array.from({ length: 1_500 }, (_, index) =>
      text(`routine progress note ${index} ${"about the ledger totals ".repeat(20)}`),
    );
    await writeFormatThreeDatabase({
      file,
      sessions: {
        s: [
          [
            text("Yeah, I painted that lake sunrise last year"),
            text("ZX-4471 deploy key rotated"),
            text("broken later"),
          ],
          filler,
        ],
        other: [[text("painting classes on Tuesdays")]],
      },
    });
    const old = new Database(file);
    expect(old.pragma("user_version", { simple: true })).toBe(3);
    // A row whose body no longer decodes: the rebuild leaves it out, as every read path skips it.
    old.prepare("UPDATE ctxwin_rows SET body = '{\"broken' WHERE seq = 3 AND session_key = 1").run();
    old.close();
    const sizeBefore = statSync(file).size;

    const warnings: StoreWarning[] = [];
    const store = openStore({ path: file, onWarning: (warning) => warnings.push(warning) });
    const seqs = async (sessionId: string, query: string, mode: "literal" | "ranked") =>
      (await store.search(sessionId, { query, mode })).hits.map((hit) => hit.row.seq);
    // Row 2 answers row 1: its context holds "sunrise" (format 6, ADR 0052).
    expect(await seqs("s", "When did she paint a sunrise?", "ranked")).toEqual([1, 2]);
    expect(await seqs("other", "painted", "ranked")).toEqual([1]);
    expect(await seqs("s", "zx-4471 DEPLOY", "literal")).toEqual([2]);
    expect(await seqs("s", "i painted that lake", "literal")).toEqual([1]);
    expect(await seqs("s", "broken", "literal")).toEqual([]);
    expect((await store.search("s", { query: "ledger totals about", mode: "literal", limit: 25 })).hits).toHaveLength(
      25,
    );
    expect(warnings).toEqual([]);
    await store.append("s", [text("sunrises again")]);
    expect(await seqs("s", "sunrise", "ranked")).toHaveLength(3);
    await store.close();

    const check = new Database(file, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(STORE_FORMAT_VERSION);
    expect(check.pragma("integrity_check", { simple: true })).toBe("ok");
    const literalSql = (
      check.prepare("SELECT sql FROM sqlite_schema WHERE name = 'ctxwin_search_literal'").get() as { sql: string }
    ).sql;
    expect(literalSql).toMatch(/detail = none/);
    check.close();
    // The old indexes' pages went back to the file system (VACUUM after the migration).
    expect(statSync(file).size).toBeLessThan(sizeBefore);
  });
  it.each([5, 4] as const)(
    "opens a format-%i database and rebuilds its word index with each row's context: the index appends write (ADR 0052)",
    async (format) => {
      const directory = mkdtempSync(path.join(tmpdir(), "ctxwin-migrate-"));
      const reset: RowInput = { role: "assistant", parts: [], boundary: { kind: "reset" } };
      const hidden: RowInput = { ...text("hidden"), synthetic: true, uiVisible: false, meta: { type: "continue" } };
      const filler = Array.from({ length: 700 }, (_, index) => text(`routine progress note ${index}`));
      const sessions = {
        s: [
          [text("How often do you work out with your family?"), text("Three times a week; it keeps us on track.")],
          filler,
          [reset, text("after the reset")],
        ],
        other: [
          [text("painting classes on Tuesdays"), hidden, text("after a hidden row")],
          [text("the next append"), lookup, text("after a lookup")],
        ],
      };
      const migrated = path.join(directory, `format-${format}.db`);
      const fresh = path.join(directory, "fresh.db");
      await writeFormatFiveDatabase({ file: migrated, sessions, format });
      const old = new Database(migrated);
      expect(old.pragma("user_version", { simple: true })).toBe(format);
      // A row whose body no longer decodes: the rebuild leaves it out, and the row after it gets no context.
      old.prepare("UPDATE ctxwin_rows SET body = '{\"broken' WHERE seq = 300 AND session_key = 1").run();
      old.close();
      const writer = openStore({ path: fresh });
      for (const [sessionId, appends] of Object.entries(sessions))
        for (const rows of appends) await writer.append(sessionId, rows);
      await writer.close();

      const store = openStore({ path: migrated });
      const seqs = async (query: string) =>
        (await store.search("s", { query, mode: "ranked", includeCleared: true })).hits.map((hit) => hit.row.seq);
      // The reply is found by the words of the question it answers.
      expect(await seqs("How often do they work out?")).toEqual([1, 2]);
      await store.close();
      expectCurrentFormatWhole(migrated);
      // The same entries as appends write, but for the damaged row (left out) and the row after it (no context).
      const entries = wordIndexEntries(migrated);
      const damaged = /^s#30[01] /;
      expect(entries.filter((entry) => !damaged.test(entry))).toEqual(
        wordIndexEntries(fresh).filter((entry) => !damaged.test(entry)),
      );
      expect(entries.filter((entry) => damaged.test(entry))).toEqual([
        "s#301 text@0 routin",
        "s#301 text@1 progress",
        "s#301 text@2 note",
        "s#301 text@3 298",
      ]);
      // The question's words in the reply's context; no context across the reset or the hidden row.
      expect(entries).toContain("s#2 context@0 how");
      expect(entries.filter((entry) => /^(s#704|other#3|other#6) context@/.test(entry))).toEqual([]);
      // The agent's own history lookup is not indexed (ADR 0053), so it is no row's context either.
      expect(entries.filter((entry) => entry.startsWith("other#5 "))).toEqual([]);
      expect(entries.filter((entry) => entry.startsWith("other#4 context@"))).toEqual([
        "other#4 context@0 after",
        "other#4 context@1 a",
        "other#4 context@2 hidden",
        "other#4 context@3 row",
      ]);
    },
  );
});
