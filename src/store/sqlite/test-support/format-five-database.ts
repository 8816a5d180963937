/**
 * Test fixture: a store-format-5 database, as main shipped it before format 6 (issue 27: no
 * context column in the word index, ADR 0052, and no filter terms, ADR 0051), with real content.
 * The rows are appended through this build's store, then the filter terms table is dropped, the
 * word index is rebuilt as formats 4 and 5 had it (one column of stemmed terms of each row's
 * search text) and `user_version` is set: what a format-5 build would have written for the same
 * appends. `format: 4` labels the same file format 4, which differed only in indexing the agent's
 * own history lookups (ADR 0053) and text past the search cut (ADR 0048): rows without those
 * are written alike.
 */
import Database from "better-sqlite3";
import type { RowInput } from "../../../core/row.js";
import { rankedTerms } from "../../../core/search-query.js";
import { indexedTextOf } from "../../append-plan.js";
import { openStore } from "../../open-store.js";
import type { StoredRow } from "../../port.js";
import { decodeRow } from "../../row-codec.js";
import { SINGLE_COLUMN_WORD_INDEX } from "../search-index.js";

/** Removes what format 6 added to the tables (the filter terms table); older fixtures start from here too. */
export function dropFilterTerms(db: Database.Database): void {
  db.exec("DROP TABLE IF EXISTS ctxwin_filter_terms");
}

/** A fixture file and the sessions it holds: for each session id, its appends in order. */
export interface FixtureFile {
  file: string;
  sessions: Record<string, readonly (readonly RowInput[])[]>;
}

/**
 * @example
 * await writeFormatFiveDatabase({ file, sessions: { s: [[text("painted a sunrise")]] } });
 */
export function writeFormatFiveDatabase({ format = 5, ...fixture }: FixtureFile & { format?: 4 | 5 }): Promise<void> {
  return writeOlderDatabase({
    ...fixture,
    format,
    downgrade: (db) =>
      db.transaction(() => {
        dropFilterTerms(db);
        db.exec("DROP TABLE ctxwin_search_words;");
        db.exec(SINGLE_COLUMN_WORD_INDEX);
        const words = db.prepare("INSERT INTO ctxwin_search_words (rowid, text) VALUES (?, ?)");
        for (const { rowKey, row } of visibleRows(db)) {
          const text = row === undefined ? "" : indexedTextOf(row);
          if (text.length > 0) words.run(rowKey, rankedTerms(text).join(" "));
        }
      })(),
  });
}

/**
 * A database of an older format: the current format's file holding `sessions`, which `downgrade`
 * takes apart, labelled `format`.
 *
 * @example await writeOlderDatabase({ file, sessions, format: 3, downgrade: downgradeSearchIndexes });
 */
export async function writeOlderDatabase({
  file,
  sessions,
  format,
  downgrade,
}: FixtureFile & { format: number; downgrade: (db: Database.Database) => void }): Promise<void> {
  await writeCurrentDatabase({ file, sessions });
  const db = new Database(file);
  try {
    downgrade(db);
    db.pragma(`user_version = ${format}`);
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

/** Each visible row of a file with its row key; `row` is undefined where the stored body does not decode. */
export function* visibleRows(db: Database.Database): Generator<{ rowKey: number; row: StoredRow | undefined }> {
  const records = db
    .prepare(
      "SELECT r.row_key, r.seq, s.session_id, r.body FROM ctxwin_rows r " +
        "JOIN ctxwin_sessions s USING (session_key) WHERE r.visible = 1",
    )
    .all() as { row_key: number; seq: number; session_id: string; body: string }[];
  for (const record of records) {
    const decoded = decodeRow(record.session_id, record.seq, record.body);
    yield { rowKey: record.row_key, row: decoded.ok ? decoded.row : undefined };
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

/**
 * A database of the current format holding `sessions` (each a list of appends), which the writers of
 * older formats then take apart.
 *
 * @example await writeCurrentDatabase({ file, sessions: { s: [[text("a")]] } });
 */
export async function writeCurrentDatabase({ file, sessions }: FixtureFile): Promise<void> {
  const store = openStore({ path: file, durability: "normal" });
  try {
    for (const [sessionId, appends] of Object.entries(sessions)) {
      for (const rows of appends) await store.append(sessionId, rows);
    }
  } finally {
    await store.close();
  }
}
