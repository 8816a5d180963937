/**
 * `ctxwin doctor`'s examination of a database: SQLite's full `integrity_check`, each search
 * index's own consistency check, and, when something is wrong, whether the damage is confined to
 * the search indexes (which are derived from the rows and can be rebuilt) or reaches the rows,
 * sessions or windows themselves.
 */
import type Database from "better-sqlite3";
import { isCorruptionFailure } from "../sqlite-failures.js";

export const SEARCH_INDEXES = ["ctxwin_search_literal", "ctxwin_search_words"] as const;
/** The tables whose content is the history itself (the search indexes are derived from `ctxwin_rows`). */
const HISTORY_TABLES = ["ctxwin_sessions", "ctxwin_rows", "ctxwin_windows", "ctxwin_operations"] as const;
/** Problems kept in a report; a damaged file can have thousands. */
const MAX_PROBLEMS = 20;

export type DatabaseCondition = "healthy" | "search-index-damaged" | "damaged";

export interface DatabaseCheck {
  condition: DatabaseCondition;
  /** What SQLite reported, at most `MAX_PROBLEMS` lines. */
  problems: string[];
}

/**
 * @example
 * const { condition, problems } = checkDatabase(db);
 */
export function checkDatabase(db: Database.Database, { writable }: { writable: boolean }): DatabaseCheck {
  const problems = [
    ...integrityProblems(db, undefined),
    ...(writable ? SEARCH_INDEXES.flatMap((name) => searchIndexProblems(db, name)) : []),
  ];
  if (problems.length === 0) return { condition: "healthy", problems };
  const historyIntact = HISTORY_TABLES.every((table) => integrityProblems(db, table).length === 0);
  return { condition: historyIntact ? "search-index-damaged" : "damaged", problems: problems.slice(0, MAX_PROBLEMS) };
}

/** SQLite's `integrity_check` of the whole file, or of one table and its indexes. */
function integrityProblems(db: Database.Database, table: string | undefined): string[] {
  try {
    const lines = (
      db.pragma(table === undefined ? `integrity_check(${MAX_PROBLEMS})` : `integrity_check(${table})`) as {
        integrity_check: string;
      }[]
    ).map((entry) => entry.integrity_check);
    return lines.length === 1 && lines[0] === "ok" ? [] : lines;
  } catch (error) {
    if (!isCorruptionFailure(error)) throw error;
    return [`${table ?? "the database"} cannot be checked: ${(error as Error).message}`];
  }
}

/** FTS5's own consistency check of an index (it needs a write transaction, and changes nothing). */
function searchIndexProblems(db: Database.Database, name: string): string[] {
  try {
    db.prepare(`INSERT INTO ${name} (${name}, rank) VALUES ('integrity-check', 0)`).run();
    return [];
  } catch (error) {
    if (!isCorruptionFailure(error)) throw error;
    return [`search index ${name}: ${(error as Error).message}`];
  }
}
