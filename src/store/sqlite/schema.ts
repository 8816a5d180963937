/**
 * On-disk format of the SQLite backend. `application_id` marks the file as ctxwin's;
 * `user_version` is the format version (older versions are migrated, newer ones refused).
 * A new database is created as format 1 and migrated up, so every file ends in the same schema.
 */
import type Database from "better-sqlite3";
import { migrateToFormatSix } from "./format-six-migration.js";
import { backfillRolloverFigures } from "./rollover-figures-backfill.js";
import { addSessionLineage } from "./lineage-migration.js";
import { rebuildSearchIndexes, reindexHistoryLookups } from "./search-index.js";

/** "ctxw" as a big-endian 32-bit integer. */
export const CTXWIN_APPLICATION_ID = 0x63747877;

/** Format version written by this build. */
export const STORE_FORMAT_VERSION = 7;

/**
 * The two search indexes as format 1 created them (format 4 rebuilds them, `SEARCH_INDEXES_V4`; format 6
 * the word index, `WORD_INDEX_V6`; `ctxwin doctor` builds the current ones, `SEARCH_INDEXES`).
 */
export const SEARCH_INDEX_SCHEMA = `
CREATE VIRTUAL TABLE ctxwin_search_literal USING fts5(
  text, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 0'
);
CREATE VIRTUAL TABLE ctxwin_search_words USING fts5(
  text, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);
`;

export const SCHEMA_V1 = `
CREATE TABLE ctxwin_sessions (
  session_key INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL UNIQUE,
  last_seq INTEGER NOT NULL DEFAULT 0,
  active_window_seq INTEGER NOT NULL DEFAULT 0,
  floor_seq INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE ctxwin_rows (
  row_key INTEGER PRIMARY KEY,
  session_key INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  window_seq INTEGER NOT NULL,
  visible INTEGER NOT NULL,
  tokens INTEGER,
  body TEXT NOT NULL
);
CREATE UNIQUE INDEX ctxwin_rows_by_seq ON ctxwin_rows (session_key, seq);

CREATE TABLE ctxwin_windows (
  session_key INTEGER NOT NULL,
  window_seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  reason TEXT,
  rollover_id TEXT,
  first_seq INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  row_count INTEGER NOT NULL,
  visible_count INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  ended_at TEXT NOT NULL,
  PRIMARY KEY (session_key, window_seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX ctxwin_windows_by_rollover ON ctxwin_windows (session_key, rollover_id) WHERE rollover_id IS NOT NULL;

CREATE TABLE ctxwin_operations (
  session_key INTEGER NOT NULL,
  operation_id TEXT NOT NULL,
  first_seq INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  PRIMARY KEY (session_key, operation_id)
) WITHOUT ROWID;

${SEARCH_INDEX_SCHEMA}`;

/** SQL to run, or a function for a migration that must read stored rows with this build's codec. */
export type Migration = string | ((db: Database.Database) => void);

/**
 * Migrations: `MIGRATIONS[n]` turns format n into format n + 1. They run inside the same
 * `BEGIN IMMEDIATE` transaction that checks the version, so concurrent openers migrate once and a
 * crash part-way leaves the file at its old format (the next open migrates again).
 */
export const MIGRATIONS: Readonly<Record<number, Migration>> = {
  // 1 → 2: each session gets an incarnation, a value that changes when a session is recreated.
  1: `
ALTER TABLE ctxwin_sessions ADD COLUMN incarnation TEXT NOT NULL DEFAULT '';
UPDATE ctxwin_sessions SET incarnation = lower(hex(randomblob(16)));
`,
  // 2 → 3: a rollover window's summary keeps its boundary's contextTokens and maxTokens (ADR 0015),
  // filled in for existing windows from their boundary rows.
  2: (db) => {
    db.exec(`
ALTER TABLE ctxwin_windows ADD COLUMN context_tokens INTEGER;
ALTER TABLE ctxwin_windows ADD COLUMN max_tokens INTEGER;
`);
    backfillRolloverFigures(db);
  },
  // 3 → 4: smaller search indexes, and stemmed words for ranked search (ADR 0032): the trigram
  // index keeps no positions, the word index holds `rankedTerms`. Both are rebuilt from the rows.
  3: rebuildSearchIndexes,
  // 4 → 5: rows holding a history lookup are indexed without it (issue 27: search never returns
  // the agent's own lookups).
  4: reindexHistoryLookups,
  // 5 → 6: the word index carries each row's context, the last terms of the row before it, in a
  // second column that ranked search weighs lower (ADR 0052); each indexed row's role and called
  // tools become filter terms (ADR 0051). Both built from the rows.
  5: migrateToFormatSix,
  // 6 → 7: sessions record their parent and fork origin (issue 30, ADR 0059).
  6: addSessionLineage,
};
