/**
 * The damage check every open runs before the store is used (ADR 0020). Its cost is bounded
 * whatever the file's size: the schema must hold every ctxwin table and index, each B-tree is
 * walked from its root to its first and last entry, and each search index loads its
 * configuration and structure. A file up to `FULL_CHECK_MAX_BYTES` (data plus write-ahead log)
 * also gets SQLite's `quick_check` of every page, a few milliseconds at that size.
 * Damage elsewhere in a larger file is found by the first call that reads it.
 */
import { existsSync, statSync } from "node:fs";
import type Database from "better-sqlite3";
import { isCorruptionFailure } from "./sqlite-failures.js";

/** Files up to this size (database plus `-wal`) get a full `quick_check` on every open. */
export const FULL_CHECK_MAX_BYTES = 32 * 1024 * 1024;

const SEARCH_INDEXES = ["ctxwin_search_literal", "ctxwin_search_words"] as const;
const SHADOW_TABLES = ["data", "idx", "docsize", "config"] as const;

/** Every schema object of a ctxwin database, by name. */
export const EXPECTED_SCHEMA_OBJECTS: readonly string[] = [
  "ctxwin_sessions",
  "ctxwin_rows",
  "ctxwin_rows_by_seq",
  "ctxwin_windows",
  "ctxwin_windows_by_rollover",
  "ctxwin_operations",
  ...SEARCH_INDEXES.flatMap((name) => [name, ...SHADOW_TABLES.map((shadow) => `${name}_${shadow}`)]),
];

/** Reads along both edges of each B-tree: `[what, first entry, last entry]`. */
const EDGE_PROBES: readonly (readonly [string, string, string])[] = [
  [
    "sessions",
    "SELECT * FROM ctxwin_sessions ORDER BY session_key LIMIT 1",
    "SELECT * FROM ctxwin_sessions ORDER BY session_key DESC LIMIT 1",
  ],
  [
    "rows",
    "SELECT * FROM ctxwin_rows ORDER BY row_key LIMIT 1",
    "SELECT * FROM ctxwin_rows ORDER BY row_key DESC LIMIT 1",
  ],
  [
    "the rows' seq index",
    "SELECT session_key, seq FROM ctxwin_rows INDEXED BY ctxwin_rows_by_seq ORDER BY session_key, seq LIMIT 1",
    "SELECT session_key, seq FROM ctxwin_rows INDEXED BY ctxwin_rows_by_seq ORDER BY session_key DESC, seq DESC LIMIT 1",
  ],
  [
    "windows",
    "SELECT * FROM ctxwin_windows ORDER BY session_key, window_seq LIMIT 1",
    "SELECT * FROM ctxwin_windows ORDER BY session_key DESC, window_seq DESC LIMIT 1",
  ],
  [
    "operations",
    "SELECT * FROM ctxwin_operations ORDER BY session_key, operation_id LIMIT 1",
    "SELECT * FROM ctxwin_operations ORDER BY session_key DESC, operation_id DESC LIMIT 1",
  ],
  // 'ctx' is a single trigram: format 4's literal index keeps no positions, so it takes no phrase query.
  ...SEARCH_INDEXES.map(
    (name) =>
      [
        `the search index ${name}`,
        `SELECT rowid FROM ${name} WHERE ${name} MATCH 'ctx' ORDER BY rowid LIMIT 1`,
        `SELECT rowid FROM ${name}_data ORDER BY rowid DESC LIMIT 1`,
      ] as const,
  ),
];

/**
 * What is damaged, in a few words, or `undefined` when the check found nothing.
 *
 * @example
 * const damage = findDamage(db, file); if (damage !== undefined) throw new StoreCorruptError(file, damage);
 */
export function findDamage(
  db: Database.Database,
  file: string,
  { fullCheckMaxBytes = FULL_CHECK_MAX_BYTES }: { fullCheckMaxBytes?: number } = {},
): string | undefined {
  let step = "its schema";
  try {
    // One read transaction, so every statement sees the same snapshot. FTS5's part of
    // `quick_check` reuses the index structure a probe cached on this connection without checking
    // that it is still current: another process's commit between two statements (a segment merge)
    // would otherwise be reported as "fts5: corruption found", and the file wrongly marked damaged.
    return db.transaction((): string | undefined => {
      const names = new Set(
        (db.prepare("SELECT name FROM sqlite_schema").all() as { name: string }[]).map((entry) => entry.name),
      );
      const missing = EXPECTED_SCHEMA_OBJECTS.filter((name) => !names.has(name));
      if (missing.length > 0) return `its schema lacks ${missing.join(", ")}`;
      for (const [what, first, last] of EDGE_PROBES) {
        step = what;
        db.prepare(first).get();
        db.prepare(last).get();
      }
      if (sizeOnDisk(file) <= fullCheckMaxBytes) {
        step = "its pages";
        const result = db.pragma("quick_check(1)", { simple: true }) as string;
        if (result !== "ok") return `SQLite's quick_check reports: ${result}`;
      }
      return undefined;
    })();
  } catch (error) {
    if (!isCorruptionFailure(error)) throw error;
    return `reading ${step} failed: ${(error as Error).message}`;
  }
}

function sizeOnDisk(file: string): number {
  const wal = `${file}-wal`;
  return statSync(file).size + (existsSync(wal) ? statSync(wal).size : 0);
}
