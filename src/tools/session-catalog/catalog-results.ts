/**
 * Result shapes of the store-wide `session_history` actions: `list_sessions` and cross-session
 * `search`. Like every session_history result they carry a label, `ok`, `has_more` and `next`
 * (the plain parameters to change for the next page), and fit in 16 KiB of JSON.
 */
import { STORE_HISTORY_LABEL } from "../../core/history-view/limits.js";
import type { SearchHitEntry } from "../session-history/results.js";
import type { CatalogAction } from "./catalog-input.js";
import type { SessionDescriptor, SessionSource } from "./session-descriptors.js";

export type CatalogErrorCode = "invalid_input" | "invalid_query" | "session_not_available";

export interface CatalogErrorResult {
  label: string;
  ok: false;
  action: CatalogAction | null;
  error: { code: CatalogErrorCode; message: string };
}

export interface SessionEntry {
  session_id: string;
  source: SessionSource;
  title: string | null;
  project: string | null;
  /** Imported sessions: the git branch the transcript records, else null. */
  git_branch: string | null;
  /** Imported sessions: the model of the first turn, else null. */
  model: string | null;
  /** A sub-agent's session: its parent session and the item id of the call that started it (a `task` call, an imported sub-agent's call), else null. */
  parent_session_id: string | null;
  parent_item_id: string | null;
  started_at: string;
  ended_at: string;
  window_count: number;
  /** A fork: its origin session and the last item it shares with it (ADR 0059), else null. */
  fork_of_session_id: string | null;
  fork_at_item: string | null;
}

interface SessionPageFields {
  label: string;
  ok: true;
  /** Sessions that match the filters, in all. */
  sessions_total: number;
  has_more: boolean;
}

export interface ListSessionsResult extends SessionPageFields {
  action: "list_sessions";
  next: { session_offset: number } | null;
  sessions: SessionEntry[];
}

/** A hit of a cross-session search: a session_history hit that also names its session. */
export interface CrossSessionHit extends SearchHitEntry {
  session_id: string;
}

/** The hits of one session, in that session's own order (literal: newest first). */
export interface SessionHits {
  session_id: string;
  source: SessionSource;
  title: string | null;
  project: string | null;
  hits: CrossSessionHit[];
  /**
   * The session has further hits than the page shows of it. Search again with this session_id to page on.
   */
  more_hits_in_session: boolean;
}

export interface SearchSessionsResult extends SessionPageFields {
  action: "search";
  scope: "all_sessions";
  mode: "literal" | "ranked" | "hybrid";
  /** Sessions looked into by this call: every visible session (in the filters' sessions). */
  sessions_searched: number;
  results: SessionHits[];
  /** The next page: `offset` (hits) across sessions (ADR 0089, 0105). */
  next: { offset: number } | null;
  /** Set when the query matched more items than one search reads (`partial`, ADR 0089). */
  note?: string;
}

export type CatalogResult = CatalogErrorResult | ListSessionsResult | SearchSessionsResult;

/** @example catalogError({ action: "list_windows", code: "session_not_available", message: "…" }) */
export function catalogError({
  action,
  code,
  message,
}: {
  action: CatalogAction | null;
  code: CatalogErrorCode;
  message: string;
}): CatalogErrorResult {
  return { label: STORE_HISTORY_LABEL, ok: false, action, error: { code, message } };
}

export function sessionEntry(descriptor: SessionDescriptor): SessionEntry {
  return {
    session_id: descriptor.sessionId,
    source: descriptor.source,
    title: descriptor.title,
    project: descriptor.project,
    git_branch: descriptor.gitBranch,
    model: descriptor.model,
    parent_session_id: descriptor.summary.parent?.sessionId ?? null,
    parent_item_id: descriptor.summary.parent?.itemId ?? null,
    started_at: descriptor.startedAt,
    ended_at: descriptor.endedAt,
    window_count: descriptor.windowCount,
    fork_of_session_id: descriptor.summary.forkOf?.sessionId ?? null,
    fork_at_item: descriptor.summary.forkOf === undefined ? null : String(descriptor.summary.forkOf.atSeq),
  };
}
