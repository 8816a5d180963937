/**
 * Store format 2 → 3: fills `context_tokens` and `max_tokens` of every existing rollover window
 * from its boundary row, read once with the same codec as every read path. A boundary whose body
 * no longer decodes (edited by hand, newer row format) keeps NULL figures and the migration goes
 * on: the read path skips that row too, so no view ever showed a figure for it.
 */
import type Database from "better-sqlite3";
import { rolloverMetaOf } from "../../core/boundary.js";
import { decodeRow } from "../row-codec.js";

/** Boundaries read per query, so memory stays bounded on a database with many windows. */
const PAGE = 500;

interface BoundaryRecord {
  session_key: number;
  window_seq: number;
  session_id: string;
  body: string;
}

/**
 * Runs inside the migration's transaction (`initialize` in open-database.ts).
 *
 * @example
 * db.transaction(() => backfillRolloverFigures(db)).immediate();
 */
export function backfillRolloverFigures(db: Database.Database): void {
  const boundaries = db.prepare(
    `SELECT w.session_key, w.window_seq, s.session_id, r.body FROM ctxwin_windows w
       JOIN ctxwin_sessions s ON s.session_key = w.session_key
       JOIN ctxwin_rows r ON r.session_key = w.session_key AND r.seq = w.window_seq
     WHERE w.kind = 'rollover' AND (w.session_key, w.window_seq) > (?, ?)
     ORDER BY w.session_key, w.window_seq LIMIT ?`,
  );
  const update = db.prepare(
    "UPDATE ctxwin_windows SET context_tokens = ?, max_tokens = ? WHERE session_key = ? AND window_seq = ?",
  );
  let after = { sessionKey: -1, windowSeq: -1 };
  for (;;) {
    const page = boundaries.all(after.sessionKey, after.windowSeq, PAGE) as BoundaryRecord[];
    for (const record of page) {
      const decoded = decodeRow(record.session_id, record.window_seq, record.body);
      const meta = decoded.ok ? rolloverMetaOf(decoded.row) : undefined;
      if (meta !== undefined) update.run(meta.contextTokens, meta.maxTokens, record.session_key, record.window_seq);
    }
    const last = page.at(-1);
    if (page.length < PAGE || last === undefined) return;
    after = { sessionKey: last.session_key, windowSeq: last.window_seq };
  }
}
