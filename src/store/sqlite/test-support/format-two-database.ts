/**
 * Test fixture: a store-format-2 database (before window summaries kept rollover figures, ADR
 * 0015) with real content. The rows are appended through this build's store, then the file is
 * turned back into format 2: the two columns format 3 added are dropped and `user_version` is set
 * to 2, and the search indexes are rebuilt as formats 2 and 3 had them: exactly what a format-2
 * build would have written for the same appends.
 */
import Database from "better-sqlite3";
import type { RowInput } from "../../../core/row.js";
import { writeCurrentDatabase } from "./format-five-database.js";
import { downgradeSearchIndexes } from "./format-three-database.js";
import { rollover } from "../../test-support/conformance-rows.js";

/**
 * @example
 * await writeFormatTwoDatabase({ file, sessions: { s: [[text("a"), rolloverRow]] } });
 */
export async function writeFormatTwoDatabase({
  file,
  sessions,
}: {
  file: string;
  sessions: Record<string, readonly (readonly RowInput[])[]>;
}): Promise<void> {
  await writeCurrentDatabase({ file, sessions });
  const db = new Database(file);
  try {
    db.exec(
      "ALTER TABLE ctxwin_windows DROP COLUMN context_tokens; ALTER TABLE ctxwin_windows DROP COLUMN max_tokens;",
    );
    downgradeSearchIndexes(db);
    db.pragma("user_version = 2");
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

/** A valid rollover boundary row with the given figures. */
export function rolloverBoundary(rolloverId: string, contextTokens: number, maxTokens: number): RowInput {
  return rollover(rolloverId, "w:0", { contextTokens, maxTokens });
}
