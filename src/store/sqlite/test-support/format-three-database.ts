/**
 * Test fixture: a store-format-3 database (before the smaller, stemmed search indexes of ADR
 * 0032) with real content. The rows are appended through this build's store, then both search
 * indexes are rebuilt as format 3 had them (trigrams with positions, unstemmed words) and
 * `user_version` is set to 3: what a format-3 build would have written for the same appends.
 */
import type Database from "better-sqlite3";
import { renderRowText } from "../../../core/row-text.js";
import { dropFilterTerms, type FixtureFile, visibleRows, writeOlderDatabase } from "./format-five-database.js";

const FORMAT_THREE_INDEXES = `
DROP TABLE ctxwin_search_literal;
DROP TABLE ctxwin_search_words;
CREATE VIRTUAL TABLE ctxwin_search_literal USING fts5(
  text, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 0'
);
CREATE VIRTUAL TABLE ctxwin_search_words USING fts5(
  text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);
`;

/** Turns a newer file's search indexes back into format 3's (same text, old options), without format 6's filter terms. */
export function downgradeSearchIndexes(db: Database.Database): void {
  db.transaction(() => {
    dropFilterTerms(db);
    db.exec(FORMAT_THREE_INDEXES);
    const literal = db.prepare("INSERT INTO ctxwin_search_literal (rowid, text) VALUES (?, ?)");
    const words = db.prepare("INSERT INTO ctxwin_search_words (rowid, text) VALUES (?, ?)");
    for (const { rowKey, row } of visibleRows(db)) {
      const text = row === undefined ? "" : renderRowText(row);
      if (text.length === 0) continue;
      literal.run(rowKey, text);
      words.run(rowKey, text);
    }
  })();
}

/**
 * @example
 * await writeFormatThreeDatabase({ file, sessions: { s: [[text("painted a sunrise")]] } });
 */
export function writeFormatThreeDatabase(fixture: FixtureFile): Promise<void> {
  return writeOlderDatabase({
    ...fixture,
    format: 3,
    downgrade: downgradeSearchIndexes,
  });
}
