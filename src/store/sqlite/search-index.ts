/**
 * What the SQLite backend wrote into its two search indexes for a row at formats 4 and 5 (ADR
 * 0032), the format 3 → 4 rebuild of both indexes and the format 4 → 5 re-index of history lookups
 * (format 6 changed the word index: `word-index.ts`):
 * - `ctxwin_search_literal`: the row's rendered text, trigram-tokenized, without positions
 *   (`detail=none`): literal candidates are the rows holding every trigram of the query, each then
 *   verified as a substring.
 * - `ctxwin_search_words`: the row's ranked terms (`rankedTerms`: words folded and stemmed),
 *   space-separated, with positions: BM25 for ranked search, and phrases for literal search's
 *   word pre-filter.
 * Both hold `renderSearchText(row)`: the rendering without the agent's own history lookups; format 5
 * re-indexes the rows that hold one (`reindexHistoryLookups`).
 */
import type Database from "better-sqlite3";
import { SESSION_HISTORY_TOOL_NAME } from "../../core/row-text.js";
import { rankedTerms } from "../../core/search-query.js";
import { MAX_SEARCH_VALUE_CHARS, renderSearchText } from "../../core/search-text.js";
import { decodeRow } from "../row-codec.js";

/** The text format 4's and 5's word index held for a row's rendered text. */
function wordIndexText(searchText: string): string {
  return rankedTerms(searchText).join(" ");
}

/** Format 4's trigram index (unchanged since); format 3's had positions. */
export const LITERAL_INDEX_V4 = `
CREATE VIRTUAL TABLE ctxwin_search_literal USING fts5(
  text, content = '', contentless_delete = 1, detail = none, tokenize = 'trigram case_sensitive 0'
);
`;

/** Format 4's and 5's word index: one column of stemmed terms (format 6 added `context`, word-index.ts). */
export const SINGLE_COLUMN_WORD_INDEX = `
CREATE VIRTUAL TABLE ctxwin_search_words USING fts5(
  text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);
`;

/** Format 4's search indexes; format 3 had positions in the trigram index and unstemmed words. */
const SEARCH_INDEXES_V4 = `${LITERAL_INDEX_V4}${SINGLE_COLUMN_WORD_INDEX}`;

/** Rows read per query, so memory stays bounded on a large database. */
const PAGE = 1_000;

interface IndexedRecord {
  row_key: number;
  seq: number;
  session_id: string;
  body: string;
}

/**
 * Store format 3 → 4: drops both search indexes and builds them again in format 4 from every
 * history-visible row, decoded with the codec every read path uses. A row whose body no longer
 * decodes is left out of the indexes: every read path skips it too. Runs inside the migration's
 * transaction (`initialize` in open-database.ts), so a crash part-way leaves format 3 whole.
 *
 * @example db.transaction(() => rebuildSearchIndexes(db)).immediate();
 */
export function rebuildSearchIndexes(db: Database.Database): void {
  db.exec("DROP TABLE ctxwin_search_literal; DROP TABLE ctxwin_search_words;");
  db.exec(SEARCH_INDEXES_V4);
  const rows = db.prepare(
    `SELECT r.row_key, r.seq, s.session_id, r.body FROM ctxwin_rows r JOIN ctxwin_sessions s ON s.session_key = r.session_key
     WHERE r.visible = 1 AND r.row_key > ? ORDER BY r.row_key LIMIT ?`,
  );
  const insertLiteral = db.prepare("INSERT INTO ctxwin_search_literal (rowid, text) VALUES (?, ?)");
  const insertWords = db.prepare("INSERT INTO ctxwin_search_words (rowid, text) VALUES (?, ?)");
  for (let after = 0; ;) {
    const page = rows.all(after, PAGE) as IndexedRecord[];
    for (const record of page) {
      const decoded = decodeRow(record.session_id, record.seq, record.body);
      const text = decoded.ok ? renderSearchText(decoded.row) : "";
      if (text.length === 0) continue;
      insertLiteral.run(record.row_key, text);
      insertWords.run(record.row_key, wordIndexText(text));
    }
    const last = page.at(-1);
    if (page.length < PAGE || last === undefined) return;
    after = last.row_key;
  }
}

/**
 * Store format 4 → 5: rows holding a call of the history tool were indexed with the call's text
 * (its query); they are indexed again without it, so a lookup is never a hit for the next one
 * (ADR 0053). Rows with a value over the search cut are indexed again with the cut (ADR 0048).
 * Only rows whose body names the tool or is longer than the cut are read. Runs inside the
 * migration's transaction.
 *
 * @example db.transaction(() => reindexHistoryLookups(db)).immediate();
 */
export function reindexHistoryLookups(db: Database.Database): void {
  const rows = db.prepare(
    `SELECT r.row_key, r.seq, s.session_id, r.body FROM ctxwin_rows r JOIN ctxwin_sessions s ON s.session_key = r.session_key
     WHERE r.visible = 1 AND r.row_key > ? AND (instr(r.body, '${SESSION_HISTORY_TOOL_NAME}') > 0 OR length(r.body) > ${MAX_SEARCH_VALUE_CHARS})
     ORDER BY r.row_key LIMIT ?`,
  );
  const deleteLiteral = db.prepare("DELETE FROM ctxwin_search_literal WHERE rowid = ?");
  const deleteWords = db.prepare("DELETE FROM ctxwin_search_words WHERE rowid = ?");
  const insertLiteral = db.prepare("INSERT INTO ctxwin_search_literal (rowid, text) VALUES (?, ?)");
  const insertWords = db.prepare("INSERT INTO ctxwin_search_words (rowid, text) VALUES (?, ?)");
  for (let after = 0; ;) {
    const page = rows.all(after, PAGE) as IndexedRecord[];
    for (const record of page) {
      const decoded = decodeRow(record.session_id, record.seq, record.body);
      if (!decoded.ok) continue;
      deleteLiteral.run(record.row_key);
      deleteWords.run(record.row_key);
      const text = renderSearchText(decoded.row);
      if (text.length === 0) continue;
      insertLiteral.run(record.row_key, text);
      insertWords.run(record.row_key, wordIndexText(text));
    }
    const last = page.at(-1);
    if (page.length < PAGE || last === undefined) return;
    after = last.row_key;
  }
}
