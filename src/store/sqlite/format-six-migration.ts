/**
 * Store format 5 → 6 (issue 27), one rebuild for two changes that both derive from the rows:
 * - the word index gets the `context` column, the last terms of the indexed row right before each
 *   row, which ranked search weighs lower (ADR 0052): it is dropped and built again;
 * - `ctxwin_filter_terms` lists each indexed row's role and called tools (ADR 0051).
 * Rows, terms, contexts and filter terms are those an append of this build writes (`indexedRows`).
 * Runs inside the migration's transaction (`initialize` in open-database.ts), so a crash part-way
 * leaves format 5 whole. The trigram index is left as it is.
 */
import type Database from "better-sqlite3";
import { FILTER_TERMS_SCHEMA, INSERT_FILTER_TERM } from "./filter-terms.js";
import { WORD_INDEX_V6, indexedRows } from "./word-index.js";

/** @example db.transaction(() => migrateToFormatSix(db)).immediate(); */
export function migrateToFormatSix(db: Database.Database): void {
  db.exec("DROP TABLE ctxwin_search_words;");
  db.exec(WORD_INDEX_V6);
  db.exec(FILTER_TERMS_SCHEMA);
  const insertWords = db.prepare("INSERT INTO ctxwin_search_words (rowid, text, context) VALUES (?, ?, ?)");
  const insertTerm = db.prepare(INSERT_FILTER_TERM);
  for (const row of indexedRows(db)) {
    insertWords.run(row.rowKey, row.terms, row.context);
    for (const term of row.filterTerms) insertTerm.run(row.sessionKey, term, row.seq);
  }
}
