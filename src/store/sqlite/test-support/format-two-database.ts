/**
 * Test fixture: a store-format-2 database (before window summaries kept rollover figures, ADR
 * 0015) with real content. The rows are appended through this build's store, then the file is
 * turned back into format 2: the two columns format 3 added are dropped and `user_version` is set
 * to 2, and the search indexes are rebuilt as formats 2 and 3 had them: exactly what a format-2
 * build would have written for the same appends.
 */
import type { RowInput } from "../../../core/row.js";
import { type FixtureFile, writeOlderDatabase } from "./format-five-database.js";
import { downgradeSearchIndexes } from "./format-three-database.js";
import { rollover } from "../../test-support/conformance-rows.js";

/**
 * @example
 * await writeFormatTwoDatabase({ file, sessions: { s: [[text("a"), rolloverRow]] } });
 */
export function writeFormatTwoDatabase(fixture: FixtureFile): Promise<void> {
  return writeOlderDatabase({
    ...fixture,
    format: 2,
    downgrade: (db) => {
      db.exec(
        "ALTER TABLE ctxwin_windows DROP COLUMN context_tokens; ALTER TABLE ctxwin_windows DROP COLUMN max_tokens;",
      );
      downgradeSearchIndexes(db);
    },
  });
}

/** A valid rollover boundary row with the given figures. */
export function rolloverBoundary(rolloverId: string, contextTokens: number, maxTokens: number): RowInput {
  return rollover(rolloverId, "w:0", { contextTokens, maxTokens });
}
