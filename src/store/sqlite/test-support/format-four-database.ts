/**
 * Test fixture: a store-format-4 database (before the filter terms of ADR 0051) with real
 * content. The rows are appended through this build's store, then the filter terms table is
 * dropped and `user_version` set to 4: what a format-4 build would have written for the same
 * appends.
 */
import Database from "better-sqlite3";
import type { RowInput } from "../../../core/row.js";
import { openStore } from "../../open-store.js";

/** Removes what format 5 added (the filter terms table); older fixtures start from here too. */
export function dropFilterTerms(db: Database.Database): void {
  db.exec("DROP TABLE IF EXISTS ctxwin_filter_terms");
}

/**
 * @example
 * await writeFormatFourDatabase({ file, sessions: { s: [[text("hello")]] } });
 */
export async function writeFormatFourDatabase({ file, sessions }: { file: string; sessions: Record<string, readonly (readonly RowInput[])[]> }): Promise<void> {
  const store = openStore({ path: file, durability: "normal" });
  try {
    for (const [sessionId, appends] of Object.entries(sessions)) {
      for (const rows of appends) await store.append(sessionId, rows);
    }
  } finally {
    await store.close();
  }
  const db = new Database(file);
  try {
    dropFilterTerms(db);
    db.pragma("user_version = 4");
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}
