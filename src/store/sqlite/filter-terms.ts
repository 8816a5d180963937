/**
 * The SQLite backend's filter terms (store format 6, ADR 0051): for every row in the search
 * indexes, one entry per `filterTermsOf` term (`role:user`, `tool:bash`), keyed by session, term
 * and seq. A filtered search asks it how many rows of its range can pass the filter (none: the
 * answer is empty at once) and, when they are fewer than the text index's candidates, reads just
 * those rows instead of scanning candidates that the filter would drop (`search.ts`). Appends
 * write it (`statements.ts`); the format 5 → 6 migration and `ctxwin doctor` fill it from the rows.
 */

export const FILTER_TERMS_TABLE = "ctxwin_filter_terms";

export const FILTER_TERMS_SCHEMA = `
CREATE TABLE ${FILTER_TERMS_TABLE} (
  session_key INTEGER NOT NULL,
  term TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (session_key, term, seq)
) WITHOUT ROWID;
`;

/** One term of one row; a term is listed once per row. */
export const INSERT_FILTER_TERM = `INSERT OR IGNORE INTO ${FILTER_TERMS_TABLE} (session_key, term, seq) VALUES (?, ?, ?)`;
