/**
 * Prepared statements of the SQLite backend, in one place so the queries can be read together.
 * Every read is bounded by the session's seq index; search joins an FTS5 index to the rows.
 */
import type Database from "better-sqlite3";
import { INSERT_FILTER_TERM } from "./filter-terms.js";
import { WORD_SCORE } from "./word-index.js";

export type { SessionRecord } from "../session-record.js";
export type { WindowRecord } from "../window-record.js";

const rowColumns = "seq, window_seq, body";
// Filters shared by the search statements (session, exclusive seq bounds) and their columns.
const searchFilter = "r.session_key = ? AND r.seq > ? AND r.seq < ?";
const candidateColumns = "r.row_key, r.seq, r.window_seq, r.body";

// The search statements use CROSS JOIN on purpose: it makes SQLite drive the query from the FTS5
// index (newest match first, stopping at the page limit) instead of walking every row of the
// session and probing the index per row. `statements.test.ts` pins these query plans.
export const statementSql = {
  session: "SELECT * FROM ctxwin_sessions WHERE session_id = ?",
  sessions: `SELECT s.*, (SELECT count(*) FROM ctxwin_windows w WHERE w.session_key = s.session_key) AS window_count
       FROM ctxwin_sessions s ORDER BY s.updated_at DESC, s.session_id`,
  insertSession: "INSERT INTO ctxwin_sessions (session_id, incarnation, created_at, updated_at) VALUES (?, ?, ?, ?)",
  sessionSummary: `SELECT s.*, (SELECT count(*) FROM ctxwin_windows w WHERE w.session_key = s.session_key) AS window_count
     FROM ctxwin_sessions s WHERE s.session_id = ?`,
  updateSession:
    "UPDATE ctxwin_sessions SET last_seq = ?, active_window_seq = ?, floor_seq = ?, updated_at = ? WHERE session_key = ?",
  operation: "SELECT first_seq, last_seq FROM ctxwin_operations WHERE session_key = ? AND operation_id = ?",
  insertOperation: "INSERT INTO ctxwin_operations (session_key, operation_id, first_seq, last_seq) VALUES (?, ?, ?, ?)",
  rolloverExists: "SELECT 1 FROM ctxwin_windows WHERE session_key = ? AND rollover_id = ?",
  insertRow: "INSERT INTO ctxwin_rows (session_key, seq, window_seq, visible, tokens, body) VALUES (?, ?, ?, ?, ?, ?)",
  insertLiteral: "INSERT INTO ctxwin_search_literal (rowid, text) VALUES (?, ?)",
  insertWords: "INSERT INTO ctxwin_search_words (rowid, text, context) VALUES (?, ?, ?)",
  insertFilterTerm: INSERT_FILTER_TERM,
  upsertWindow: `INSERT INTO ctxwin_windows (session_key, window_seq, kind, reason, rollover_id, context_tokens, max_tokens,
       first_seq, last_seq, row_count, visible_count, started_at, ended_at)
       VALUES (@session_key, @window_seq, @kind, @reason, @rollover_id, @context_tokens, @max_tokens, @seq, @seq, 1, @visible, @at, @at)
       ON CONFLICT (session_key, window_seq) DO UPDATE SET
         last_seq = excluded.last_seq, row_count = row_count + 1,
         visible_count = visible_count + excluded.visible_count, ended_at = excluded.ended_at`,
  window: "SELECT * FROM ctxwin_windows WHERE session_key = ? AND window_seq = ?",
  windows:
    "SELECT * FROM ctxwin_windows WHERE session_key = ? AND window_seq >= ? AND window_seq < ? ORDER BY window_seq DESC LIMIT ?",
  row: `SELECT ${rowColumns} FROM ctxwin_rows WHERE session_key = ? AND seq = ?`,
  rowRange: `SELECT ${rowColumns} FROM ctxwin_rows WHERE session_key = ? AND seq BETWEEN ? AND ? ORDER BY seq`,
  rowsFrom: `SELECT ${rowColumns} FROM ctxwin_rows WHERE session_key = ? AND seq >= ? ORDER BY seq`,
  rowsBetween: `SELECT ${rowColumns} FROM ctxwin_rows WHERE session_key = ? AND seq > ? AND seq < ? ORDER BY seq LIMIT ?`,
  rowsBetweenDescending: `SELECT ${rowColumns} FROM ctxwin_rows WHERE session_key = ? AND seq > ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
  firstRowKeyAfter: "SELECT row_key, seq FROM ctxwin_rows WHERE session_key = ? AND seq > ? ORDER BY seq LIMIT 1",
  lastRowKeyBefore: "SELECT row_key, seq FROM ctxwin_rows WHERE session_key = ? AND seq < ? ORDER BY seq DESC LIMIT 1",
  searchLiteral: `SELECT ${candidateColumns} FROM ctxwin_search_literal f CROSS JOIN ctxwin_rows r ON r.row_key = f.rowid
     WHERE ctxwin_search_literal MATCH ? AND f.rowid BETWEEN ? AND ? AND ${searchFilter} ORDER BY f.rowid DESC`,
  // The first `?` trigram matches in the range, oldest first: FTS5 walks an AND of trigrams without
  // positions 2–3× faster ascending than descending, so a rare query is answered by this walk.
  literalKeysAscending: `SELECT f.rowid AS row_key FROM ctxwin_search_literal f
     WHERE ctxwin_search_literal MATCH ? AND f.rowid BETWEEN ? AND ? ORDER BY f.rowid LIMIT ?`,
  // The first `?` rows holding one trigram, in the whole file: how rare it is (trigram-plan.ts).
  literalProbe: `SELECT rowid AS row_key FROM ctxwin_search_literal WHERE ctxwin_search_literal MATCH ? ORDER BY rowid LIMIT ?`,
  // Filter terms (ADR 0051): how many rows of the range hold a term, up to a cap, and those rows newest first.
  countFilterTermRows: `SELECT count(*) AS matches FROM (SELECT 1 FROM ctxwin_filter_terms
     WHERE session_key = ? AND term = ? AND seq > ? AND seq < ? LIMIT ?)`,
  filterTermRows: `SELECT ${candidateColumns} FROM ctxwin_filter_terms t CROSS JOIN ctxwin_rows r ON r.session_key = t.session_key AND r.seq = t.seq
     WHERE t.session_key = ? AND t.term = ? AND t.seq > ? AND t.seq < ? ORDER BY t.seq DESC`,
  sessionRowByKey: `SELECT ${candidateColumns} FROM ctxwin_rows r WHERE r.row_key = ? AND ${searchFilter}`,
  searchWordPhrase: `SELECT ${candidateColumns} FROM ctxwin_search_words f CROSS JOIN ctxwin_rows r ON r.row_key = f.rowid
     WHERE ctxwin_search_words MATCH ? AND f.rowid BETWEEN ? AND ? AND ${searchFilter} ORDER BY f.rowid DESC`,
  scanVisible: `SELECT ${candidateColumns} FROM ctxwin_rows r
     WHERE r.row_key BETWEEN ? AND ? AND r.visible = 1 AND ${searchFilter} ORDER BY r.seq DESC`,
  // Ranked search (ADR 0016). The plain forms serve a row-key range that holds only the session's
  // rows between the bounds; the `Session` forms join the rows to leave out other sessions' rows.
  // Each word is counted newest first up to a cap; then BM25 scores only the newest `?` matching
  // rows (FTS5's own `ORDER BY rank` would score every match in the file, whatever the range).
  // In the plain forms consecutive row keys are consecutive rows of the session.
  countWordRows: `SELECT count(*) AS matches FROM (SELECT 1 FROM ctxwin_search_words f
     WHERE ctxwin_search_words MATCH ? AND f.rowid BETWEEN ? AND ? ORDER BY f.rowid DESC LIMIT ?)`,
  countSessionWordRows: `SELECT count(*) AS matches FROM (SELECT 1 FROM ctxwin_search_words f CROSS JOIN ctxwin_rows r ON r.row_key = f.rowid
     WHERE ctxwin_search_words MATCH ? AND f.rowid BETWEEN ? AND ? AND ${searchFilter} ORDER BY f.rowid DESC LIMIT ?)`,
  // The newest `?` matching rows with their BM25 scores over both columns (higher is better; a
  // context term weighs CONTEXT_WEIGHT, ADR 0052) and their places in the session (consecutive
  // for consecutive rows); core orders them (ADR 0031).
  scoreWordsNewest: `SELECT f.rowid AS row_key, f.rowid AS position, ${WORD_SCORE} AS score FROM ctxwin_search_words f
     WHERE ctxwin_search_words MATCH ? AND f.rowid BETWEEN ? AND ? ORDER BY f.rowid DESC LIMIT ?`,
  scoreSessionWordsNewest: `SELECT f.rowid AS row_key, r.seq AS position, ${WORD_SCORE} AS score FROM ctxwin_search_words f
     CROSS JOIN ctxwin_rows r ON r.row_key = f.rowid
     WHERE ctxwin_search_words MATCH ? AND f.rowid BETWEEN ? AND ? AND ${searchFilter} ORDER BY f.rowid DESC LIMIT ?`,
  // Two sessions' ranges in one walk of the index, newest first, read until the caller stops
  // (`searchParts`): a fork's own rows and its origin's, whose scores do not depend on the range.
  // The plain form serves two ranges that hold only their sessions' rows: the caller keeps the
  // keys inside them.
  scoreWordsBetweenNewest: `SELECT f.rowid AS row_key, f.rowid AS position, ${WORD_SCORE} AS score FROM ctxwin_search_words f
     WHERE ctxwin_search_words MATCH ? AND f.rowid BETWEEN ? AND ? ORDER BY f.rowid DESC`,
  scoreTwoSessionsWordsNewest: `SELECT f.rowid AS row_key, r.seq AS position, ${WORD_SCORE} AS score FROM ctxwin_search_words f
     CROSS JOIN ctxwin_rows r ON r.row_key = f.rowid
     WHERE ctxwin_search_words MATCH ? AND f.rowid BETWEEN ? AND ? AND ((${searchFilter}) OR (${searchFilter})) ORDER BY f.rowid DESC`,
  rowByKey: `SELECT ${candidateColumns} FROM ctxwin_rows r WHERE r.row_key = ?`,
  deleteLiteral:
    "DELETE FROM ctxwin_search_literal WHERE rowid IN (SELECT row_key FROM ctxwin_rows WHERE session_key = ?)",
  deleteWords: "DELETE FROM ctxwin_search_words WHERE rowid IN (SELECT row_key FROM ctxwin_rows WHERE session_key = ?)",
  deleteFilterTerms: "DELETE FROM ctxwin_filter_terms WHERE session_key = ?",
  deleteRows: "DELETE FROM ctxwin_rows WHERE session_key = ?",
  deleteWindows: "DELETE FROM ctxwin_windows WHERE session_key = ?",
  deleteOperations: "DELETE FROM ctxwin_operations WHERE session_key = ?",
  deleteSession: "DELETE FROM ctxwin_sessions WHERE session_key = ?",
} as const;

export type StatementName = keyof typeof statementSql;

export function prepareStatements(db: Database.Database): Record<StatementName, Database.Statement> {
  const entries = Object.entries(statementSql).map(([name, text]) => [name, db.prepare(text)] as const);
  return Object.fromEntries(entries) as Record<StatementName, Database.Statement>;
}
