/**
 * Test fixture: a store-format-4 database (before the word index carried each row's context,
 * ADR 0052) with real content. The rows are appended through this build's store, then the word
 * index is rebuilt as format 4 had it (one column of stemmed terms) and `user_version` is set to
 * 4: what a format-4 build would have written for the same appends.
 */
import Database from "better-sqlite3";
import type { RowInput } from "../../../core/row.js";
import { rankedTerms } from "../../../core/search-query.js";
import { indexedTextOf } from "../../append-plan.js";
import { openStore } from "../../open-store.js";
import { decodeRow } from "../../row-codec.js";

const FORMAT_FOUR_WORD_INDEX = `
DROP TABLE ctxwin_search_words;
CREATE VIRTUAL TABLE ctxwin_search_words USING fts5(
  text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);
`;

/**
 * @example
 * await writeFormatFourDatabase({ file, sessions: { s: [[text("painted a sunrise")]] } });
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
    db.transaction(() => {
      db.exec(FORMAT_FOUR_WORD_INDEX);
      const rows = db.prepare("SELECT r.row_key, r.seq, s.session_id, r.body FROM ctxwin_rows r JOIN ctxwin_sessions s USING (session_key) WHERE r.visible = 1");
      const words = db.prepare("INSERT INTO ctxwin_search_words (rowid, text) VALUES (?, ?)");
      for (const record of rows.all() as { row_key: number; seq: number; session_id: string; body: string }[]) {
        const decoded = decodeRow(record.session_id, record.seq, record.body);
        const text = decoded.ok ? indexedTextOf(decoded.row) : "";
        if (text.length > 0) words.run(record.row_key, rankedTerms(text).join(" "));
      }
    })();
    db.pragma("user_version = 4");
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

/**
 * Every entry of a file's word index, in a stable order: which term each row holds in which
 * column at which position (`fts5vocab` 'instance'), keyed by session and seq rather than row key.
 *
 * @example expect(wordIndexEntries(migrated)).toEqual(wordIndexEntries(fresh));
 */
export function wordIndexEntries(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    db.exec("CREATE VIRTUAL TABLE temp.word_entries USING fts5vocab(main, ctxwin_search_words, instance)");
    const entries = db
      .prepare(
        `SELECT s.session_id, r.seq, v.term, v.col, v.offset FROM temp.word_entries v
         JOIN ctxwin_rows r ON r.row_key = v.doc JOIN ctxwin_sessions s ON s.session_key = r.session_key
         ORDER BY s.session_id, r.seq, v.col, v.offset`,
      )
      .all() as { session_id: string; seq: number; term: string; col: string; offset: number }[];
    return entries.map((entry) => `${entry.session_id}#${entry.seq} ${entry.col}@${entry.offset} ${entry.term}`);
  } finally {
    db.close();
  }
}
