/**
 * Test fixture: a store-format-3 database (before the smaller, stemmed search indexes of ADR
 * 0032) with real content. The rows are appended through this build's store, then both search
 * indexes are rebuilt as format 3 had them (trigrams with positions, unstemmed words) and
 * `user_version` is set to 3: what a format-3 build would have written for the same appends.
 */
import Database from "better-sqlite3";
import { renderRowText } from "../../../core/row-text.js";
import type { RowInput } from "../../../core/row.js";
import { decodeRow } from "../../row-codec.js";
import { dropFilterTerms, writeCurrentDatabase } from "./format-five-database.js";

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
    const rows = db.prepare(
      "SELECT r.row_key, r.seq, s.session_id, r.body FROM ctxwin_rows r JOIN ctxwin_sessions s USING (session_key) WHERE r.visible = 1",
    );
    const literal = db.prepare("INSERT INTO ctxwin_search_literal (rowid, text) VALUES (?, ?)");
    const words = db.prepare("INSERT INTO ctxwin_search_words (rowid, text) VALUES (?, ?)");
    for (const record of rows.all() as { row_key: number; seq: number; session_id: string; body: string }[]) {
      const decoded = decodeRow(record.session_id, record.seq, record.body);
      const text = decoded.ok ? renderRowText(decoded.row) : "";
      if (text.length === 0) continue;
      literal.run(record.row_key, text);
      words.run(record.row_key, text);
    }
  })();
}

/**
 * @example
 * await writeFormatThreeDatabase({ file, sessions: { s: [[text("painted a sunrise")]] } });
 */
export async function writeFormatThreeDatabase({
  file,
  sessions,
}: {
  file: string;
  sessions: Record<string, readonly (readonly RowInput[])[]>;
}): Promise<void> {
  await writeCurrentDatabase({ file, sessions });
  const db = new Database(file);
  try {
    downgradeSearchIndexes(db);
    db.pragma("user_version = 3");
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}
