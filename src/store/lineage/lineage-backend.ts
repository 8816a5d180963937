/**
 * What a backend provides so that `withLineage` can fork its sessions (ADR 0059): the ordinary
 * port over each session's own rows, and one write that records a fork without copying rows.
 */
import type { SessionCursor } from "../append-plan.js";
import type { ScopeSearchRequest, ScopeSearchResult } from "../cross-search/cross-search.js";
import type { ForkOrigin, HistoryStore, SearchOptions, SearchPage, WindowSummary } from "../port.js";

/** Everything a fork's session record holds: no rows, only where its history comes from. */
export interface ForkRecord {
  sessionId: string;
  forkOf: ForkOrigin;
  /** The fork's counters: last seq `atSeq`, the window and the privacy floor as they were at `atSeq`. */
  cursor: SessionCursor;
  /** The window holding `atSeq`, cut at `atSeq`: the fork's first own window record. */
  window: WindowSummary;
  /** The origin's windows before `window`, counted into the fork's `windowCount`. */
  inheritedWindowCount: number;
}

/**
 * A backend before `withLineage`: its reads see a fork's own rows only (seq above `atSeq`), its
 * summaries carry `parent` and `forkOf`, and `windowCount` includes the inherited windows.
 */
export interface LineageBackend extends Omit<HistoryStore, "fork" | "searchSessions"> {
  /** Writes the fork's session record and first window; `ForkRefusedError` when the id is taken. */
  createFork(record: ForkRecord): Promise<void>;
  /** One cheap lookup per read: `undefined` for a session with no record. */
  lineageOf(sessionId: string): Promise<SessionLineage | undefined>;
  /**
   * Optional: the same pages as one `search` per part (sessions that are no fork), at the cost of
   * fewer index reads where the backend can share them (a fork's own part and its origin's).
   */
  searchParts?(parts: readonly SearchPartOptions[]): Promise<SearchPage[]>;
  /**
   * The rows of `scope` matching the query, in one query over the backend's indexes (ADR 0089):
   * hidden rows are never matches; the scope already holds each session's floor and lineage.
   */
  searchScope(request: ScopeSearchRequest): Promise<ScopeSearchResult>;
}

/** One session's search in `searchParts`. */
export interface SearchPartOptions {
  sessionId: string;
  options: SearchOptions;
}

/** What reads need to know about a session's lineage: where a fork's rows come from, and its floor. */
export interface SessionLineage {
  forkOf?: ForkOrigin;
  floorSeq: number;
}
