/**
 * A stored session as both database backends keep it (one row of their sessions table), its
 * lineage columns, and the `SessionSummary` the port returns for it.
 */
import { windowIdFor, type WindowKind } from "../core/windows.js";
import type { AttachTarget } from "./lineage/attach-parent.js";
import type { ActiveWindow, SessionSummary, StoredRow } from "./port.js";

export interface SessionRecord {
  session_key: number;
  session_id: string;
  incarnation: string;
  last_seq: number;
  active_window_seq: number;
  floor_seq: number;
  created_at: string;
  updated_at: string;
}

/** A session's parent and fork origin (ADR 0059, 0067); NULL where it has none. */
export interface LineageRecord {
  parent_session_id: string | null;
  parent_item_id: string | null;
  fork_of_session_id: string | null;
  /** A number, or its text where the driver reads 64-bit integers as text. */
  fork_at_seq: number | string | null;
}

export type SessionSummaryRecord = SessionRecord &
  LineageRecord & {
    window_count: number;
    inherited_window_count: number;
  };

/**
 * The parent and fork origin of a stored session.
 *
 * @example lineageOfRecord({ parent_session_id: null, parent_item_id: null, fork_of_session_id: "s1", fork_at_seq: 4 })
 * // { forkOf: { sessionId: "s1", atSeq: 4 } }
 */
export function lineageOfRecord(record: LineageRecord): AttachTarget {
  return {
    ...(record.parent_session_id === null
      ? {}
      : { parent: { sessionId: record.parent_session_id, itemId: record.parent_item_id ?? "" } }),
    ...(record.fork_of_session_id === null
      ? {}
      : { forkOf: { sessionId: record.fork_of_session_id, atSeq: Number(record.fork_at_seq) } }),
  };
}

/** The port's summary of a stored session; its window count includes the windows a fork inherits. */
export function toSessionSummary(record: SessionSummaryRecord): SessionSummary {
  return {
    sessionId: record.session_id,
    incarnation: record.incarnation,
    lastSeq: record.last_seq,
    floorSeq: record.floor_seq,
    windowCount: Number(record.window_count) + Number(record.inherited_window_count),
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    ...lineageOfRecord(record),
  };
}

/** The active window of a session with no rows yet. */
export const emptyActiveWindow = (): ActiveWindow => ({
  windowId: "w:0",
  boundarySeq: 0,
  kind: "start",
  rows: [],
  skipped: 0,
  lastSeq: 0,
});

/**
 * The port's active window of a stored session: its boundary, the kind of its window record, and
 * the rows read from the boundary on.
 */
export function activeWindowOf(
  session: SessionRecord,
  window: { kind: string } | undefined,
  { rows, skipped }: { rows: StoredRow[]; skipped: number },
): ActiveWindow {
  return {
    windowId: windowIdFor(session.active_window_seq),
    boundarySeq: session.active_window_seq,
    kind: (window?.kind ?? "start") as WindowKind,
    rows,
    skipped,
    lastSeq: session.last_seq,
  };
}
