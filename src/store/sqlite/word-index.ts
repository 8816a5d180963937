/**
 * The SQLite backend's word index at store format 6 (ADR 0052): `ctxwin_search_words` holds each
 * indexed row's ranked terms (`rankedTerms`, space-separated) in `text`, and the last terms of the
 * indexed row right before it in `context` (`core/ranked-context.ts`). Ranked search scores both
 * with FTS5's `bm25()`, a context term counting `CONTEXT_WEIGHT` of an own one; literal search's
 * word pre-filter reads `text` only.
 *
 * `indexedRows` reads every indexed row of a file with its terms, context and filter terms, for
 * the format 5 → 6 migration (`format-six-migration.ts`) and for `ctxwin doctor`'s rebuild, so
 * both build the indexes an append builds.
 */
import type Database from "better-sqlite3";
import { CONTEXT_WEIGHT, contextTerms } from "../../core/ranked-context.js";
import { filterTermsOf } from "../../core/search-filter.js";
import { rankedTerms } from "../../core/search-query.js";
import { indexedTextOf } from "../append-plan.js";
import { decodeRow } from "../row-codec.js";

/** Format 6's word index (formats 4 and 5 had no `context`). */
export const WORD_INDEX_V6 = `
CREATE VIRTUAL TABLE ctxwin_search_words USING fts5(
  text, context, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);
`;

/** The relevance of a row in ranked search: FTS5's BM25 over both columns, higher is better. */
export const WORD_SCORE = `-bm25(ctxwin_search_words, 1.0, ${CONTEXT_WEIGHT})`;

/** A word-index match of `phrase` (quoted terms) in the rows' own text only. */
export function ownTextMatch(phrase: string): string {
  return `{text} : ${phrase}`;
}

export interface IndexedRow {
  rowKey: number;
  sessionKey: number;
  seq: number;
  /** The text the literal index holds. */
  text: string;
  /** Word-index columns: the row's terms, and its context's. */
  terms: string;
  context: string;
  /** The row's role and called tools (`filterTermsOf`, ADR 0051). */
  filterTerms: string[];
}

interface StoredRecord {
  row_key: number;
  session_key: number;
  seq: number;
  session_id: string;
  body: string;
}

/** Rows read per query, so memory stays bounded on a large database. */
const PAGE = 500;

/**
 * Every indexed row of the file in row-key order: history-visible rows whose body decodes (with
 * the read path's codec; a row that no longer decodes is left out, as every read skips it) and
 * whose text is not empty. A row's context is the terms of the indexed row at seq − 1 of its
 * session, as an append computes it.
 *
 * @example for (const row of indexedRows(db)) insertWords.run(row.rowKey, row.terms, row.context);
 */
export function* indexedRows(db: Database.Database): Generator<IndexedRow> {
  const page = db.prepare(
    `SELECT r.row_key, r.session_key, r.seq, s.session_id, r.body FROM ctxwin_rows r JOIN ctxwin_sessions s ON s.session_key = r.session_key
     WHERE r.visible = 1 AND r.row_key > ? ORDER BY r.row_key LIMIT ${PAGE}`,
  );
  // Row keys grow with seq inside a session, so a row's predecessor, when indexed, came just before.
  const previousBySession = new Map<number, { seq: number; terms: readonly string[] }>();
  for (let after = 0; ;) {
    const records = page.all(after) as StoredRecord[];
    for (const record of records) {
      const decoded = decodeRow(record.session_id, record.seq, record.body);
      const text = decoded.ok ? indexedTextOf(decoded.row) : "";
      const terms = rankedTerms(text);
      const previous = previousBySession.get(record.session_key);
      previousBySession.set(record.session_key, { seq: record.seq, terms: contextTerms(terms) });
      if (!decoded.ok || text.length === 0) continue;
      const context = previous !== undefined && previous.seq === record.seq - 1 ? previous.terms : [];
      yield {
        rowKey: record.row_key,
        sessionKey: record.session_key,
        seq: record.seq,
        text,
        terms: terms.join(" "),
        context: context.join(" "),
        filterTerms: filterTermsOf(decoded.row),
      };
    }
    const last = records.at(-1);
    if (records.length < PAGE || last === undefined) return;
    after = last.row_key;
  }
}
