/**
 * Rebuilds both search indexes of a database whose history tables are intact (ADR 0021), and its
 * filter terms (format 5, ADR 0051). They are derived data: every visible row's text and terms are
 * indexed again from `ctxwin_rows`. A damaged index cannot be trusted to drop itself (FTS5 reads
 * its configuration first, and freeing a damaged tree fails), so its entries are removed from the
 * schema, `VACUUM` writes the file again without their pages, and the indexes are created anew.
 */
import type Database from "better-sqlite3";
import { renderRowText } from "../../../core/row-text.js";
import { filterTermsOf } from "../../../core/search-filter.js";
import { decodeRow } from "../../row-codec.js";
import { FILTER_TERMS_SCHEMA } from "../filter-terms.js";
import { SEARCH_INDEXES_V4, wordIndexText } from "../search-index.js";
import { SEARCH_INDEXES } from "./check-database.js";

const SHADOW_TABLES = ["data", "idx", "docsize", "config"] as const;
/** Rows read per query while indexing, so memory stays bounded. */
const PAGE = 500;

/** Derived from the rows like the search indexes; a file of format 4 or older does not have it yet. */
const FILTER_TERMS = "ctxwin_filter_terms";

interface IndexedRow {
  row_key: number;
  session_key: number;
  seq: number;
  body: string;
  session_id: string;
}

/**
 * Returns how many rows were indexed. Needs the only connection to the file: run it while no
 * other process uses the store.
 *
 * @example
 * const indexed = rebuildSearchIndexes(() => new Database(file));
 */
export function rebuildSearchIndexes(connect: () => Database.Database): number {
  const names = SEARCH_INDEXES.flatMap((name) => [name, ...SHADOW_TABLES.map((shadow) => `${name}_${shadow}`)]);
  let hasFilterTerms = false;
  const unhook = connect();
  try {
    hasFilterTerms = unhook.prepare("SELECT 1 FROM sqlite_schema WHERE name = ?").get(FILTER_TERMS) !== undefined;
    if (hasFilterTerms) names.push(FILTER_TERMS);
    // Editing the schema table needs SQLite's defensive mode off, which better-sqlite3 ties to unsafe mode.
    unhook.unsafeMode(true);
    unhook.pragma("writable_schema = ON");
    const remove = unhook.prepare("DELETE FROM sqlite_schema WHERE name = ?");
    unhook.transaction(() => {
      for (const name of names) remove.run(name);
    }).immediate();
    unhook.pragma("writable_schema = OFF");
  } finally {
    unhook.close();
  }

  const db = connect();
  try {
    db.exec("VACUUM");
    let indexed = 0;
    db.transaction(() => {
      db.exec(SEARCH_INDEXES_V4);
      if (hasFilterTerms) db.exec(FILTER_TERMS_SCHEMA);
      const insertTerm = hasFilterTerms ? db.prepare(`INSERT OR IGNORE INTO ${FILTER_TERMS} (session_key, term, seq) VALUES (?, ?, ?)`) : undefined;
      const insertLiteral = db.prepare("INSERT INTO ctxwin_search_literal (rowid, text) VALUES (?, ?)");
      const insertWords = db.prepare("INSERT INTO ctxwin_search_words (rowid, text) VALUES (?, ?)");
      const page = db.prepare(
        `SELECT r.row_key, r.session_key, r.seq, r.body, s.session_id FROM ctxwin_rows r JOIN ctxwin_sessions s ON s.session_key = r.session_key
         WHERE r.visible = 1 AND r.row_key > ? ORDER BY r.row_key LIMIT ${PAGE}`,
      );
      for (let after = 0; ; ) {
        const rows = page.all(after) as IndexedRow[];
        for (const row of rows) {
          const decoded = decodeRow(row.session_id, row.seq, row.body);
          const text = decoded.ok ? renderRowText(decoded.row) : "";
          if (text.length === 0) continue;
          insertLiteral.run(row.row_key, text);
          insertWords.run(row.row_key, wordIndexText(text));
          if (insertTerm !== undefined && decoded.ok) for (const term of filterTermsOf(decoded.row)) insertTerm.run(row.session_key, term, row.seq);
          indexed += 1;
        }
        const last = rows.at(-1);
        if (last === undefined) break;
        after = last.row_key;
      }
    }).immediate();
    return indexed;
  } finally {
    db.close();
  }
}
