/**
 * SQLite store format 6 → 7 (issue 30, ADR 0059): each session records its parent (a sub-agent's
 * session: the parent's id and the item id of its `task` call) and, for a fork, its origin and
 * the seq it shares up to, plus how many of the origin's windows it inherits. No row is touched.
 */
import type Database from "better-sqlite3";

const lineageColumns = [
  ["parent_session_id", "TEXT"],
  ["parent_item_id", "TEXT"],
  ["fork_of_session_id", "TEXT"],
  ["fork_at_seq", "INTEGER"],
  ["inherited_window_count", "INTEGER NOT NULL DEFAULT 0"],
] as const;

/** The migration; columns and indexes already there (a file rewound to an older format by hand) are kept. */
export function addSessionLineage(db: Database.Database): void {
  const existing = new Set(
    (db.prepare("SELECT name FROM pragma_table_info('ctxwin_sessions')").all() as { name: string }[]).map(
      (column) => column.name,
    ),
  );
  for (const [name, type] of lineageColumns) {
    if (!existing.has(name)) db.exec(`ALTER TABLE ctxwin_sessions ADD COLUMN ${name} ${type}`);
  }
  db.exec(`
CREATE INDEX IF NOT EXISTS ctxwin_sessions_by_parent ON ctxwin_sessions (parent_session_id) WHERE parent_session_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS ctxwin_sessions_by_fork_origin ON ctxwin_sessions (fork_of_session_id) WHERE fork_of_session_id IS NOT NULL;
`);
}

/** Statements of the lineage columns, kept apart from the row and search statements. */
export const lineageStatementSql = {
  setParent: "UPDATE ctxwin_sessions SET parent_session_id = ?, parent_item_id = ? WHERE session_key = ?",
  sessionLineage:
    "SELECT parent_session_id, parent_item_id, fork_of_session_id, fork_at_seq FROM ctxwin_sessions WHERE session_id = ?",
  attachParent: `UPDATE ctxwin_sessions SET parent_session_id = ?, parent_item_id = ?
       WHERE session_id = ? AND parent_session_id IS NULL AND fork_of_session_id IS NULL`,
  lineage: "SELECT fork_of_session_id, fork_at_seq, floor_seq FROM ctxwin_sessions WHERE session_id = ?",
  insertFork: `INSERT INTO ctxwin_sessions (session_id, incarnation, created_at, updated_at, last_seq, active_window_seq, floor_seq,
       fork_of_session_id, fork_at_seq, inherited_window_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  insertForkWindow: `INSERT INTO ctxwin_windows (session_key, window_seq, kind, reason, rollover_id, context_tokens, max_tokens,
       first_seq, last_seq, row_count, visible_count, started_at, ended_at)
       VALUES (@session_key, @window_seq, @kind, @reason, @rollover_id, @context_tokens, @max_tokens,
       @first_seq, @last_seq, @row_count, @visible_count, @started_at, @ended_at)`,
  childSessions: `SELECT s.*, (SELECT count(*) FROM ctxwin_windows w WHERE w.session_key = s.session_key) AS window_count
       FROM ctxwin_sessions s WHERE s.parent_session_id = ? ORDER BY s.updated_at DESC, s.session_id`,
  forkSessions: `SELECT s.*, (SELECT count(*) FROM ctxwin_windows w WHERE w.session_key = s.session_key) AS window_count
       FROM ctxwin_sessions s WHERE s.fork_of_session_id = ? ORDER BY s.updated_at DESC, s.session_id`,
} as const;
