/**
 * Which stored rows a cross-session search may find, and under which session (ADR 0089). Worked
 * out from the sessions table alone, before the one indexed query: every visible session
 * (`isSessionVisible`, ADR 0073), restricted to a caller's ids when given, owns its stored rows
 * above its privacy floor and, for a fork, its origin's rows from above the fork's floor up to the
 * fork point (ADR 0059), through a chain of forks. A stored row can thus be found under several
 * sessions (an origin and its forks); a row owned by none is never a hit.
 */
import { isSessionVisible } from "../../core/visibility.js";
import { MAX_LINEAGE_DEPTH } from "../lineage/attach-parent.js";
import type { SessionParent, SessionSummary } from "../port.js";

/**
 * What the scope needs of a session: one light row of the sessions table each; with its last seq
 * where the backend reads it (a hybrid search counts the rows not embedded yet with it, ADR 0105).
 */
export type ScopeSession = Pick<SessionSummary, "sessionId" | "floorSeq" | "updatedAt" | "parent" | "forkOf"> & {
  lastSeq?: number;
};

/** The stored rows of one session with `low < seq <= high`, found under `ownerId`. */
export interface ScopeSegment {
  ownerId: string;
  /** The owner's place in the newest-activity-first order of sessions (0 is the newest). */
  rank: number;
  low: number;
  high: number;
}

export interface SearchScope {
  /** By the id of the session that stores the rows: the segments reading them. */
  segments: ReadonlyMap<string, readonly ScopeSegment[]>;
  /** Sessions searched. */
  owners: number;
  /** By the id of the session that stores the rows: its last seq, where the backend read it. */
  lastSeqs: ReadonlyMap<string, number>;
}

/**
 * @example const scope = searchScope({ summaries: sessionsTableRows });
 */
export function searchScope({
  summaries,
  sessionIds,
}: {
  summaries: readonly ScopeSession[];
  sessionIds?: readonly string[] | undefined;
}): SearchScope {
  const known = new Map(summaries.map((summary) => [summary.sessionId, summary]));
  const wanted = sessionIds === undefined ? undefined : new Set(sessionIds);
  const owners = summaries
    .filter((summary) => (wanted === undefined || wanted.has(summary.sessionId)) && isVisibleAmong(summary, known))
    .sort((left, right) =>
      left.updatedAt < right.updatedAt
        ? 1
        : left.updatedAt > right.updatedAt
          ? -1
          : left.sessionId < right.sessionId
            ? -1
            : 1,
    );
  const segments = new Map<string, ScopeSegment[]>();
  const add = (storedIn: string, segment: ScopeSegment) => {
    const list = segments.get(storedIn);
    if (list === undefined) segments.set(storedIn, [segment]);
    else list.push(segment);
  };
  owners.forEach((owner, rank) => {
    const low = owner.floorSeq;
    let high = Number.MAX_SAFE_INTEGER;
    let current: ScopeSession | undefined = owner;
    for (let depth = 0; current !== undefined && high > low && depth <= MAX_LINEAGE_DEPTH; depth += 1) {
      const atSeq = current.forkOf?.atSeq ?? 0;
      if (high > Math.max(low, atSeq))
        add(current.sessionId, { ownerId: owner.sessionId, rank, low: Math.max(low, atSeq), high });
      if (current.forkOf === undefined) break;
      high = Math.min(high, atSeq);
      current = known.get(current.forkOf.sessionId);
    }
  });
  const lastSeqs = new Map<string, number>();
  for (const storedIn of segments.keys()) {
    const lastSeq = known.get(storedIn)?.lastSeq;
    if (lastSeq !== undefined) lastSeqs.set(storedIn, lastSeq);
  }
  return { segments, owners: owners.length, lastSeqs };
}

/** The segments of `scope` that hold the stored row `seq` of `storedIn` (none: the row is no hit). */
export function ownersOf(scope: SearchScope, storedIn: string, seq: number): readonly ScopeSegment[] {
  const list = scope.segments.get(storedIn);
  if (list === undefined) return [];
  return list.filter((segment) => seq > segment.low && seq <= segment.high);
}

/** `isSessionVisible` with the ancestors taken from `known` (a missing one hides the session, fail closed). */
function isVisibleAmong(summary: ScopeSession, known: ReadonlyMap<string, ScopeSession>): boolean {
  if (summary.parent === undefined) return true;
  const ancestors: (ScopeSession | undefined)[] = [];
  const seen = new Set([summary.sessionId]);
  for (let parent: SessionParent | undefined = summary.parent; parent !== undefined;) {
    if (ancestors.length >= MAX_LINEAGE_DEPTH || seen.has(parent.sessionId)) break;
    seen.add(parent.sessionId);
    const found = known.get(parent.sessionId);
    ancestors.push(found);
    parent = found?.parent;
  }
  return isSessionVisible(summary, ancestors);
}

/** The columns of the sessions table a scope reads (the same names on SQLite and PostgreSQL). */
export const SCOPE_SESSION_COLUMNS =
  "session_key, session_id, floor_seq, updated_at, parent_session_id, parent_item_id, fork_of_session_id, fork_at_seq";

export interface ScopeSessionRecord {
  session_key: number | string;
  session_id: string;
  floor_seq: number | string;
  updated_at: string;
  parent_session_id: string | null;
  parent_item_id: string | null;
  fork_of_session_id: string | null;
  fork_at_seq: number | string | null;
  /** Read by the backends that select it beside `SCOPE_SESSION_COLUMNS`. */
  last_seq?: number | string;
}

/** One row of the sessions table as a `ScopeSession`. */
export function scopeSessionOf(record: ScopeSessionRecord): ScopeSession {
  return {
    sessionId: record.session_id,
    floorSeq: Number(record.floor_seq),
    updatedAt: record.updated_at,
    ...(record.parent_session_id === null || record.parent_item_id === null
      ? {}
      : { parent: { sessionId: record.parent_session_id, itemId: record.parent_item_id } }),
    ...(record.fork_of_session_id === null || record.fork_at_seq === null
      ? {}
      : { forkOf: { sessionId: record.fork_of_session_id, atSeq: Number(record.fork_at_seq) } }),
    ...(record.last_seq === undefined ? {} : { lastSeq: Number(record.last_seq) }),
  };
}
