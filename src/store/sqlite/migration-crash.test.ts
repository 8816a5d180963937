/**
 * A process killed with SIGKILL in the middle of migrating the store format leaves a usable
 * database: the migration runs in the opening `BEGIN IMMEDIATE` transaction, so the file stays at
 * its old format, whole (a build of that format still opens it), and the next open migrates it.
 * Exercised on the 2 → 3 migration, whose backfill reads every rollover boundary row, and on the
 * 3 → 4 → 5 → 6 migrations, which rebuild both search indexes from every row (ADR 0032), then the
 * word index with each row's context and the filter terms (ADR 0052, 0051), in the same transaction.
 */
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { setTimeout as delay } from "node:timers/promises";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { spawnTestWorker } from "../../../test/test-workers.js";
import { openStore } from "../open-store.js";
import type { WindowSummary } from "../port.js";
import { createSeededRandom, seedFromEnvironment, type SeededRandom } from "../test-support/seeded-random.js";
import { temporaryDatabases } from "../test-support/temporary-database.js";
import { expectCurrentFormatWhole } from "./test-support/current-format.js";
import { writeFormatThreeDatabase } from "./test-support/format-three-database.js";
import { rolloverBoundary, writeFormatTwoDatabase } from "./test-support/format-two-database.js";

/** Enough rollover windows that the backfill runs for about a second, far longer than the kill takes to land. */
const WINDOWS = 30_000;
const KILLS = 3;

const workerSource = new URL("./test-support/open-store-worker.ts", import.meta.url);
// Registered first, so that its folders are removed after the hook below has killed what used them.
const temporaryDatabase = temporaryDatabases("ctxwin-migration-crash-");
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

interface Opener {
  lines: string[];
  waitForLine(line: string): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

function startOpener(file: string): { opener: Opener; kill: () => void } {
  const child = spawnTestWorker({ source: workerSource, args: [file] });
  children.push(child);
  const lines: string[] = [];
  const waiters: { line: string; resolve: () => void }[] = [];
  let errorOutput = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    errorOutput += chunk;
  });
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    for (const waiter of waiters.filter((entry) => entry.line === line)) waiter.resolve();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal }));
  });
  const opener: Opener = {
    lines,
    waitForLine: (line) =>
      lines.includes(line)
        ? Promise.resolve()
        : Promise.race([
            new Promise<void>((resolve) => waiters.push({ line, resolve })),
            exited.then(() => {
              if (!lines.includes(line))
                throw new Error(`opener ended before printing '${line}'; stderr:\n${errorOutput}`);
            }),
          ]),
    exited,
    stderr: () => errorOutput,
  };
  return { opener, kill: () => child.kill("SIGKILL") };
}

/**
 * Waits until another connection holds the write lock: the opener is inside its migration
 * transaction. The probe has no busy handler, so it also sees the moments when the opener (or the
 * probe's own open) rebuilds the write-ahead log's index after the previous kill:
 * SQLITE_BUSY_RECOVERY, "database is locked" too, which is not the migration's lock: poll on.
 */
async function waitForWriteLock(file: string, opener: Opener): Promise<void> {
  const probe = new Database(file, { timeout: 0 });
  try {
    for (;;) {
      try {
        probe.exec("BEGIN IMMEDIATE");
        probe.exec("ROLLBACK");
      } catch (error) {
        const code = String((error as { code?: unknown }).code);
        if (code === "SQLITE_BUSY") return;
        if (!code.startsWith("SQLITE_BUSY_")) throw error;
      }
      if (opener.lines.includes("opened"))
        throw new Error("the opener finished before its migration was seen holding the write lock");
      await delay(2);
    }
  } finally {
    probe.close();
  }
}

/**
 * `KILLS` times: an opener killed with SIGKILL at a random moment while its migration holds the
 * write lock, and the file then as `before` was.
 */
async function killWhileMigrating<State>({
  file,
  random,
  seed,
  maxDelayMs,
  state,
  before,
}: {
  file: string;
  random: SeededRandom;
  seed: number;
  maxDelayMs: number;
  state: () => State;
  before: State;
}): Promise<void> {
  for (let kill = 0; kill < KILLS; kill += 1) {
    const { opener, kill: sendKill } = startOpener(file);
    await opener.waitForLine("opening");
    await waitForWriteLock(file, opener);
    await delay(random.integer(10, maxDelayMs));
    sendKill();
    const exit = await opener.exited;
    const round = `kill ${kill} (seed ${seed})`;
    expect(exit.signal, `${round}: stderr:\n${opener.stderr()}`).toBe("SIGKILL");
    expect(opener.lines, round).toEqual(["opening"]);
    expect(state(), round).toEqual(before);
  }
}

/** A run's seed (`CTXWIN_CRASH_SEED` repeats one), its random, and the store file in a fresh directory. */
function crashRun(): { seed: number; random: SeededRandom; file: string } {
  const seed = seedFromEnvironment("CTXWIN_CRASH_SEED");
  return { seed, random: createSeededRandom(seed), file: temporaryDatabase() };
}

/** The file's format and integrity, and what `read` finds in it, through a read-only connection. */
function stateOf<Found extends object>(file: string, read: (db: Database.Database) => Found) {
  const db = new Database(file, { readonly: true });
  try {
    return {
      version: db.pragma("user_version", { simple: true }),
      integrity: db.pragma("integrity_check", { simple: true }),
      ...read(db),
    };
  } finally {
    db.close();
  }
}

const countOf = (db: Database.Database, sql: string) => (db.prepare(sql).get() as { count: number }).count;

/** What a format-2 build reads of the file: its format, integrity and the size of its tables. */
function formatTwoState(file: string) {
  return stateOf(file, (db) => ({
    windowColumns: (db.prepare("SELECT name FROM pragma_table_info('ctxwin_windows')").all() as { name: string }[]).map(
      (column) => column.name,
    ),
    rows: countOf(db, "SELECT count(*) AS count FROM ctxwin_rows"),
    windows: countOf(db, "SELECT count(*) AS count FROM ctxwin_windows"),
  }));
}

describe("store format migration, opener killed with SIGKILL", () => {
  it(`a kill in the middle of the 2 → 3 migration (${KILLS} times) leaves the file at format 2, whole; the next open migrates it`, async () => {
    const { seed, random, file } = crashRun();
    const boundaries = Array.from({ length: WINDOWS }, (_, index) => rolloverBoundary(`m${index}`, index, 200_000));
    await writeFormatTwoDatabase({
      file,
      sessions: {
        big: [boundaries.slice(0, WINDOWS / 2), boundaries.slice(WINDOWS / 2)],
        small: [[rolloverBoundary("s1", 3, 4)]],
      },
    });
    const before = formatTwoState(file);
    expect(before).toMatchObject({ version: 2, integrity: "ok", rows: WINDOWS + 1, windows: WINDOWS + 1 });
    expect(before.windowColumns).not.toContain("context_tokens");

    await killWhileMigrating({ file, random, seed, maxDelayMs: 150, state: () => formatTwoState(file), before });

    const store = openStore({ path: file });
    try {
      const figures: [number, number | undefined, number | undefined][] = [];
      for (let beforeWindow: string | undefined; ;) {
        const page = await store.windows("big", {
          limit: 1000,
          ...(beforeWindow === undefined ? {} : { beforeWindow }),
        });
        figures.push(
          ...page.windows.map(
            (window: WindowSummary) =>
              [window.boundarySeq, window.contextTokens, window.maxTokens] as [
                number,
                number | undefined,
                number | undefined,
              ],
          ),
        );
        if (!page.hasMore) break;
        beforeWindow = page.windows.at(-1)?.windowId;
      }
      expect(figures.reverse()).toEqual(boundaries.map((_, index) => [index + 1, index, 200_000]));
      expect((await store.windows("small")).windows[0]).toMatchObject({ contextTokens: 3, maxTokens: 4 });
    } finally {
      await store.close();
    }
    expectCurrentFormatWhole(file);
  }, 180_000);

  it(`a kill amid the 3 → 6 migrations (${KILLS} times) leaves format 3 with its search indexes whole; the next open migrates it`, async () => {
    const { seed, random, file } = crashRun();
    // Enough indexed text that the rebuild runs for seconds, far longer than the kill takes to land.
    const line = (index: number) =>
      `note ${index}: ${index % 100 === 0 ? "she painted the sunrise" : "routine progress on the ledger"} ${"and more words about it ".repeat(12)}`;
    const batches = Array.from({ length: 4 }, (_, batch) =>
      Array.from({ length: 5_000 }, (_, index) => ({
        role: "user" as const,
        parts: [{ type: "text" as const, text: line(batch * 5_000 + index) }],
      })),
    );
    await writeFormatThreeDatabase({ file, sessions: { big: batches } });
    const state = () =>
      stateOf(file, (db) => ({
        literalSql: (
          db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'ctxwin_search_literal'").get() as { sql: string }
        ).sql,
        // Format 3's word index holds the words as written: "painted", not "paint".
        painted: countOf(
          db,
          "SELECT count(*) AS count FROM ctxwin_search_words WHERE ctxwin_search_words MATCH 'painted'",
        ),
        phrase: countOf(
          db,
          "SELECT count(*) AS count FROM ctxwin_search_literal WHERE ctxwin_search_literal MATCH '\"the sunrise\"'",
        ),
      }));
    const before = state();
    expect(before).toMatchObject({ version: 3, integrity: "ok", painted: 200, phrase: 200 });
    expect(before.literalSql).not.toMatch(/detail/);

    await killWhileMigrating({ file, random, seed, maxDelayMs: 300, state: () => state(), before });

    const store = openStore({ path: file });
    try {
      const ranked = await store.search("big", { query: "When did she paint a sunrise?", mode: "ranked", limit: 25 });
      // The first row has no context (format 6, ADR 0052): shorter, it scores highest; then the
      // other rows holding the words, newest first (the rows after them hold them in context only).
      expect(ranked.hits.map((hit) => hit.row.seq)).toEqual([
        1,
        ...Array.from({ length: 24 }, (_, index) => 19_901 - index * 100),
      ]);
      const literal = await store.search("big", { query: "note 12300: she painted", mode: "literal" });
      expect(literal.hits.map((hit) => hit.row.seq)).toEqual([12_301]);
    } finally {
      await store.close();
    }
    expectCurrentFormatWhole(file);
  }, 300_000);
});
