/**
 * A damaged database (issue 13, item 3): one 4 KiB page of a real ctxwin file overwritten, the
 * header intact. Damage is found (by the open check, or by the first call that reads the page),
 * reported as StoreCorruptError, and no write goes into the file once it is known to be damaged.
 * `doctorDatabase` rebuilds damaged search indexes and salvages every readable row.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import { StoreCorruptError } from "../errors.js";
import { openStore } from "../open-store.js";
import type { HistoryStore, StoredRow } from "../port.js";
import { damageMarkPath } from "./damage-mark.js";
import { doctorDatabase } from "./doctor/doctor.js";
import { createSqliteStore } from "./sqlite-store.js";
import { middleLeafOf, overwritePage } from "./test-support/damage-page.js";
import { wordIndexEntries } from "./test-support/format-five-database.js";

const PAGE_SIZE = 4096;
const SESSIONS = ["alpha", "beta", "gamma"];
const ROWS_PER_SESSION = 40;

const text = (value: string): RowInput => ({ role: "user", parts: [{ type: "text", text: value }] });
const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

let directory: string;
let pristine: string;
let rootPages: Map<string, number>;
let pageCount: number;
let freePages: number;

function damagedCopy(name: string, page: number): string {
  const file = path.join(directory, `${name}.db`);
  copyFileSync(pristine, file);
  overwritePage(file, page, PAGE_SIZE);
  return file;
}

/** Whether SQLite itself, reading every page, finds the file damaged. */
function sqliteFindsDamage(file: string): boolean {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma("integrity_check", { simple: true }) !== "ok";
  } catch {
    return true;
  } finally {
    db.close();
  }
}

async function caught(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error;
  }
}

function expectCorrupt(error: unknown, file: string): void {
  expect(StoreCorruptError.isInstance(error), String(error)).toBe(true);
  expect((error as Error).message).toContain(`'${file}' is damaged`);
  expect((error as Error).message).toContain("ctxwin doctor");
}

/** Every read path of the store; returns the first StoreCorruptError met (any other error fails the test). */
async function readEverything(store: HistoryStore): Promise<unknown> {
  const calls: (() => Promise<unknown>)[] = [() => store.sessions()];
  for (const sessionId of SESSIONS) {
    calls.push(
      () => store.activeWindow(sessionId),
      () => store.windows(sessionId),
      () => store.items(sessionId, { limit: 1000 }),
      () => store.read(sessionId, 7),
      () => store.search(sessionId, { query: "needle", mode: "literal" }),
      () => store.search(sessionId, { query: "needle haystack", mode: "ranked" }),
    );
  }
  let first: unknown;
  for (const call of calls) {
    const error = await caught(call);
    if (error === undefined) continue;
    expect(StoreCorruptError.isInstance(error), String(error)).toBe(true);
    first ??= error;
  }
  return first;
}

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), "ctxwin-damaged-"));
  pristine = path.join(directory, "pristine.db");
  const store = openStore({ path: pristine });
  for (let index = 0; index < ROWS_PER_SESSION; index += 1) {
    for (const sessionId of SESSIONS) {
      await store.append(sessionId, [
        text(
          `${sessionId} row ${index}: a needle in the haystack ${"filler text ".repeat(index % 7 === 0 ? 400 : 12)}`,
        ),
      ]);
    }
  }
  await store.close();
  const db = new Database(pristine, { readonly: true });
  rootPages = new Map(
    (
      db.prepare("SELECT name, rootpage FROM sqlite_schema WHERE rootpage > 0").all() as {
        name: string;
        rootpage: number;
      }[]
    ).map((entry) => [entry.name, entry.rootpage]),
  );
  pageCount = db.pragma("page_count", { simple: true }) as number;
  freePages = db.pragma("freelist_count", { simple: true }) as number;
  expect(db.pragma("page_size", { simple: true })).toBe(PAGE_SIZE);
  db.close();
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe("a ctxwin file with one 4 KiB page overwritten", () => {
  it("every page: a damaged file is refused on open with StoreCorruptError and left as it is; an intact one works", async () => {
    expect(pageCount).toBeGreaterThan(30);
    let refused = 0;
    for (let page = 2; page <= pageCount; page += 1) {
      const file = damagedCopy(`page-${page}`, page);
      const damaged = sqliteFindsDamage(file);
      const before = digest(file);
      const error = await caught(async () => {
        const store = openStore({ path: file });
        try {
          expect(await readEverything(store)).toBeUndefined();
          await store.append("alpha", [text("written into a healthy file")]);
        } finally {
          await store.close();
        }
      });
      if (damaged) {
        expectCorrupt(error, file);
        expect(digest(file), `page ${page}`).toBe(before);
        expect(existsSync(`${file}-wal`), `page ${page}`).toBe(false);
        refused += 1;
      } else {
        // A free page: nothing of the history was on it.
        expect(error, `page ${page}`).toBeUndefined();
      }
      rmSync(file);
      rmSync(damageMarkPath(file), { force: true });
    }
    // Only pages on the free list can be overwritten unnoticed: nothing of the history is on them.
    expect(pageCount - 1 - refused).toBeLessThanOrEqual(freePages);
  });

  it("damage past the bounded open check is found by the first read; then no write goes into the file, and later opens refuse it", async () => {
    const file = damagedCopy("late", middleLeafOf(pristine, "ctxwin_rows"));
    const before = digest(file);
    const store = createSqliteStore({ path: file, fullCheckMaxBytes: 0 });
    const found = await readEverything(store);
    expectCorrupt(found, file);
    expectCorrupt(await caught(() => store.append("alpha", [text("must not be written")])), file);
    expectCorrupt(await caught(() => store.deleteSession("beta")), file);
    await store.close();
    expect(digest(file)).toBe(before);
    expect(existsSync(damageMarkPath(file))).toBe(true);
    // Even an open whose own check would not reach the page refuses the file now.
    expectCorrupt(await caught(async () => createSqliteStore({ path: file, fullCheckMaxBytes: 0 })), file);
    expect(digest(file)).toBe(before);
  });

  it("doctor salvages every readable row as lines of ctxwin's JSONL export", async () => {
    const file = damagedCopy("salvage", middleLeafOf(pristine, "ctxwin_rows"));
    const lines: string[] = [];
    const report = doctorDatabase({ path: file, salvage: (line) => lines.push(line) });
    expect(report.condition).toBe("damaged");
    expect(report.problems.length).toBeGreaterThan(0);
    const salvaged = lines
      .join("")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as StoredRow);
    const total = SESSIONS.length * ROWS_PER_SESSION;
    expect(report.salvage?.rowsWritten).toBe(salvaged.length);
    expect(report.salvage?.keysUnreadable).toBeGreaterThan(0);
    // One leaf of the rows table holds a handful of rows; everything else comes back.
    expect(salvaged.length).toBeGreaterThan(total - 30);
    expect(salvaged.length).toBeLessThan(total);
    expect(new Set(salvaged.map((row) => row.sessionId))).toEqual(new Set(SESSIONS));
    for (const row of salvaged)
      expect((row.parts[0] as { text: string }).text).toMatch(new RegExp(`^${row.sessionId} row \\d+:`));
  });

  it("doctor rebuilds a damaged search index when the history is intact, and the store opens and searches again", async () => {
    for (const index of ["ctxwin_search_words_config", "ctxwin_search_literal_data", "ctxwin_filter_terms"]) {
      const file = damagedCopy(`index-${index}`, rootPages.get(index) ?? 0);
      expectCorrupt(await caught(async () => openStore({ path: file })), file);
      const report = doctorDatabase({ path: file });
      expect(report, index).toMatchObject({ condition: "repaired", rowsIndexed: SESSIONS.length * ROWS_PER_SESSION });
      // The same word index as the appends wrote: each row's terms and its context (ADR 0052).
      expect(wordIndexEntries(file), index).toEqual(wordIndexEntries(pristine));
      expect(existsSync(damageMarkPath(file))).toBe(false);
      expect(doctorDatabase({ path: file }).condition).toBe("healthy");
      const store = openStore({ path: file });
      expect(
        (await store.search("beta", { query: "row 17:", mode: "literal" })).hits.map((hit) => hit.row.seq),
      ).toEqual([18]);
      expect((await store.search("gamma", { query: "needle", mode: "ranked", limit: 100 })).hits).toHaveLength(
        ROWS_PER_SESSION,
      );
      expect(
        (await store.search("gamma", { query: "needle", mode: "literal", role: "user", limit: 100 })).hits,
      ).toHaveLength(ROWS_PER_SESSION);
      expect((await store.items("alpha", { limit: 1000 })).rows).toHaveLength(ROWS_PER_SESSION);
      await store.close();
    }
  });
});
