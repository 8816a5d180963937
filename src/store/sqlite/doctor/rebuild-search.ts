/**
 * Rebuilds both search indexes of a database whose history tables are intact (ADR 0021). The
 * indexes are derived data: every visible row's text is indexed again from `ctxwin_rows`. A
 * damaged index cannot be trusted to drop itself (FTS5 reads its configuration first, and
 * freeing a damaged tree fails), so its entries are removed from the schema, `VACUUM` writes the
 * file again without their pages, and the indexes are created anew.
 */
import type Database from "better-sqlite3";
import { LITERAL_INDEX_V4 } from "../search-index.js";
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
  const unhook = connect();
  try {
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
      db.exec(LITERAL_INDEX_V4);
      db.exec(WORD_INDEX_V6);
      const insertLiteral = db.prepare("INSERT INTO ctxwin_search_literal (rowid, text) VALUES (?, ?)");
      const insertWords = db.prepare("INSERT INTO ctxwin_search_words (rowid, text, context) VALUES (?, ?, ?)");
      // The same rows, terms and contexts as appends and the format 5 migration write (word-index.ts).
      for (const row of indexedRows(db)) {
        insertLiteral.run(row.rowKey, row.text);
        insertWords.run(row.rowKey, row.terms, row.context);
        indexed += 1;
      }
    }).immediate();
    return indexed;
  } finally {
    db.close();
  }
}
