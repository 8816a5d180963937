/**
 * The SQLite backend's filter terms (store format 5, ADR 0051): for every row in the search
 * indexes, one entry per `filterTermsOf` term (`role:user`, `tool:bash`), keyed by session, term
 * and seq. A filtered search asks it how many rows of its range can pass the filter (none: the
 * answer is empty at once) and, when they are fewer than the text index's candidates, reads just
 * those rows instead of scanning candidates that the filter would drop (`search.ts`).
 */
import type Database from "better-sqlite3";
import { renderRowText } from "../../core/row-text.js";
import { filterTermsOf } from "../../core/search-filter.js";
import { decodeRow } from "../row-codec.js";

export const FILTER_TERMS_SCHEMA = `
CREATE TABLE ctxwin_filter_terms (
  session_key INTEGER NOT NULL,
  term TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (session_key, term, seq)
) WITHOUT ROWID;
`;

/** Rows read per query while filling the table, so memory stays bounded on a large database. */
const PAGE = 1_000;

interface StoredRecord {
  row_key: number;
  session_key: number;
  seq: number;
  session_id: string;
  body: string;
}

/**
 * Store format 4 → 5: creates `ctxwin_filter_terms` and fills it from every row the search
 * indexes hold (visible, with text), decoded with the codec every read uses (a row that no longer
 * decodes is left out, as every read skips it). Runs inside the migration's transaction, so a
 * crash part-way leaves format 4 whole.
 *
 * @example db.transaction(() => addFilterTerms(db)).immediate();
 */
export function addFilterTerms(db: Database.Database): void {
  db.exec(FILTER_TERMS_SCHEMA);
  const rows = db.prepare(
    `SELECT r.row_key, r.session_key, r.seq, s.session_id, r.body FROM ctxwin_rows r JOIN ctxwin_sessions s ON s.session_key = r.session_key
     WHERE r.visible = 1 AND r.row_key > ? ORDER BY r.row_key LIMIT ?`,
  );
  const insert = db.prepare("INSERT OR IGNORE INTO ctxwin_filter_terms (session_key, term, seq) VALUES (?, ?, ?)");
  for (let after = 0; ; ) {
    const page = rows.all(after, PAGE) as StoredRecord[];
    for (const record of page) {
      const decoded = decodeRow(record.session_id, record.seq, record.body);
      if (!decoded.ok || renderRowText(decoded.row).length === 0) continue;
      for (const term of filterTermsOf(decoded.row)) insert.run(record.session_key, term, record.seq);
    }
    const last = page.at(-1);
    if (page.length < PAGE || last === undefined) return;
    after = last.row_key;
  }
}
