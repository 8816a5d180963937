/**
 * Rebuilds both search indexes of a database whose history tables are intact (ADR 0021), and its
 * filter terms (format 6, ADR 0051). They are derived data: every visible row's text and terms are
 * indexed again from `ctxwin_rows`. A damaged index cannot be trusted to drop itself (FTS5 reads
 * its configuration first, and freeing a damaged tree fails), so its entries are removed from the
 * schema, `VACUUM` writes the file again without their pages, and the indexes are created anew.
 */
import type Database from "better-sqlite3";
import { FILTER_TERMS_SCHEMA, FILTER_TERMS_TABLE, INSERT_FILTER_TERM } from "../filter-terms.js";
import { STORE_FORMAT_VERSION } from "../schema.js";
import { LITERAL_INDEX_V4, SINGLE_COLUMN_WORD_INDEX } from "../search-index.js";
import { WORD_INDEX_V6, indexedRows } from "../word-index.js";
import { SEARCH_INDEXES } from "./check-database.js";

const SHADOW_TABLES = ["data", "idx", "docsize", "config"] as const;

/**
 * Returns how many rows were indexed. Needs the only connection to the file: run it while no
 * other process uses the store.
 *
 * @example
 * const indexed = rebuildSearchIndexes(() => new Database(file));
 */
export function rebuildSearchIndexes(connect: () => Database.Database): number {
  const names = SEARCH_INDEXES.flatMap((name) => [name, ...SHADOW_TABLES.map((shadow) => `${name}_${shadow}`)]);
  let current = false;
  const unhook = connect();
  try {
    current = unhook.pragma("user_version", { simple: true }) === STORE_FORMAT_VERSION;
    if (unhook.prepare("SELECT 1 FROM sqlite_schema WHERE name = ?").get(FILTER_TERMS_TABLE) !== undefined)
      names.push(FILTER_TERMS_TABLE);
    // Editing the schema table needs SQLite's defensive mode off, which better-sqlite3 ties to unsafe mode.
    unhook.unsafeMode(true);
    unhook.pragma("writable_schema = ON");
    const remove = unhook.prepare("DELETE FROM sqlite_schema WHERE name = ?");
    unhook
      .transaction(() => {
        for (const name of names) remove.run(name);
      })
      .immediate();
    unhook.pragma("writable_schema = OFF");
  } finally {
    unhook.close();
  }

  const db = connect();
  try {
    db.exec("VACUUM");
    let indexed = 0;
    db.transaction(() => {
      db.exec(LITERAL_INDEX_V4);
      // A file of an older format keeps its format: formats 4 and 5 had one word column and no filter terms.
      db.exec(current ? WORD_INDEX_V6 : SINGLE_COLUMN_WORD_INDEX);
      if (current) db.exec(FILTER_TERMS_SCHEMA);
      const insertLiteral = db.prepare("INSERT INTO ctxwin_search_literal (rowid, text) VALUES (?, ?)");
      const insertWords = current
        ? db.prepare("INSERT INTO ctxwin_search_words (rowid, text, context) VALUES (?, ?, ?)")
        : db.prepare("INSERT INTO ctxwin_search_words (rowid, text) VALUES (?, ?)");
      const insertTerm = current ? db.prepare(INSERT_FILTER_TERM) : undefined;
      // The same rows, terms, contexts and filter terms as appends and the format 6 migration write (word-index.ts).
      for (const row of indexedRows(db)) {
        insertLiteral.run(row.rowKey, row.text);
        if (current) insertWords.run(row.rowKey, row.terms, row.context);
        else insertWords.run(row.rowKey, row.terms);
        for (const term of row.filterTerms) insertTerm?.run(row.sessionKey, term, row.seq);
        indexed += 1;
      }
    }).immediate();
    return indexed;
  } finally {
    db.close();
  }
}
