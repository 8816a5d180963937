/**
 * The SQLite rows behind a session's lineage and summary, and the summary the store port returns.
 */
import type { SessionSummary } from "../port.js";
import type { SessionRecord } from "./statements.js";

export interface LineageRecord {
  parent_session_id: string | null;
  parent_item_id: string | null;
  fork_of_session_id: string | null;
  fork_at_seq: number | null;
}

export type SessionSummaryRecord = SessionRecord & {
  window_count: number;
  parent_session_id: string | null;
  parent_item_id: string | null;
  fork_of_session_id: string | null;
  fork_at_seq: number | null;
  inherited_window_count: number;
};

export function toSessionSummary(record: SessionSummaryRecord): SessionSummary {
  return {
    sessionId: record.session_id,
    incarnation: record.incarnation,
    lastSeq: record.last_seq,
    floorSeq: record.floor_seq,
    windowCount: record.window_count + record.inherited_window_count,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    ...(record.parent_session_id === null
      ? {}
      : { parent: { sessionId: record.parent_session_id, itemId: record.parent_item_id ?? "" } }),
    ...(record.fork_of_session_id === null
      ? {}
      : { forkOf: { sessionId: record.fork_of_session_id, atSeq: Number(record.fork_at_seq) } }),
  };
}
