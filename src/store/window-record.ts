/**
 * A stored window as both database backends keep it (one row of their windows table), and the
 * `WindowSummary` the port returns for it.
 */
import { windowIdFor, type WindowKind } from "../core/windows.js";
import type { WindowSummary } from "./port.js";

export interface WindowRecord {
  window_seq: number;
  kind: string;
  reason: string | null;
  rollover_id: string | null;
  /** A rollover boundary's figures (SQLite format 3 and later); NULL for other windows. */
  context_tokens: number | null;
  max_tokens: number | null;
  first_seq: number;
  last_seq: number;
  row_count: number;
  visible_count: number;
  started_at: string;
  ended_at: string;
}

/**
 * The port's summary of a stored window; `activeWindowSeq` is its session's active window.
 *
 * @example windowSummaryOf(record, session.active_window_seq).windowId // "w-12"
 */
export function windowSummaryOf(record: WindowRecord, activeWindowSeq: number): WindowSummary {
  return {
    windowId: windowIdFor(record.window_seq),
    boundarySeq: record.window_seq,
    kind: record.kind as WindowKind,
    ...(record.reason === null ? {} : { reason: record.reason }),
    ...(record.rollover_id === null ? {} : { rolloverId: record.rollover_id }),
    ...(record.context_tokens === null || record.max_tokens === null
      ? {}
      : { contextTokens: record.context_tokens, maxTokens: record.max_tokens }),
    firstSeq: record.first_seq,
    lastSeq: record.last_seq,
    rowCount: record.row_count,
    visibleCount: record.visible_count,
    startedAt: record.started_at,
    endedAt: record.ended_at,
    active: record.window_seq === activeWindowSeq,
  };
}
