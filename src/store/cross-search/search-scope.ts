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
}

/**
 * @example const scope = searchScope({ summaries: await raw.sessions() });
 */
export function searchScope({ summaries, sessionIds }: { summaries: readonly SessionSummary[]; sessionIds?: readonly string[] | undefined }): SearchScope {
  const known = new Map(summaries.map((summary) => [summary.sessionId, summary]));
  const wanted = sessionIds === undefined ? undefined : new Set(sessionIds);
  const owners = summaries
    .filter((summary) => (wanted === undefined || wanted.has(summary.sessionId)) && isVisibleAmong(summary, known))
    .sort((left, right) => (left.updatedAt < right.updatedAt ? 1 : left.updatedAt > right.updatedAt ? -1 : left.sessionId < right.sessionId ? -1 : 1));
  const segments = new Map<string, ScopeSegment[]>();
  const add = (storedIn: string, segment: ScopeSegment) => {
    const list = segments.get(storedIn);
    if (list === undefined) segments.set(storedIn, [segment]);
    else list.push(segment);
  };
  owners.forEach((owner, rank) => {
    const low = owner.floorSeq;
    let high = Number.MAX_SAFE_INTEGER;
    let current: SessionSummary | undefined = owner;
    for (let depth = 0; current !== undefined && high > low && depth <= MAX_LINEAGE_DEPTH; depth += 1) {
      const atSeq = current.forkOf?.atSeq ?? 0;
      if (high > Math.max(low, atSeq)) add(current.sessionId, { ownerId: owner.sessionId, rank, low: Math.max(low, atSeq), high });
      if (current.forkOf === undefined) break;
      high = Math.min(high, atSeq);
      current = known.get(current.forkOf.sessionId);
    }
  });
  return { segments, owners: owners.length };
}

/** The segments of `scope` that hold the stored row `seq` of `storedIn` (none: the row is no hit). */
export function ownersOf(scope: SearchScope, storedIn: string, seq: number): readonly ScopeSegment[] {
  const list = scope.segments.get(storedIn);
  if (list === undefined) return [];
  return list.filter((segment) => seq > segment.low && seq <= segment.high);
}

/** `isSessionVisible` with the ancestors taken from `known` (a missing one hides the session, fail closed). */
function isVisibleAmong(summary: SessionSummary, known: ReadonlyMap<string, SessionSummary>): boolean {
  if (summary.parent === undefined) return true;
  const ancestors: (SessionSummary | undefined)[] = [];
  const seen = new Set([summary.sessionId]);
  for (let parent: SessionParent | undefined = summary.parent; parent !== undefined; ) {
    if (ancestors.length >= MAX_LINEAGE_DEPTH || seen.has(parent.sessionId)) break;
    seen.add(parent.sessionId);
    const found = known.get(parent.sessionId);
    ancestors.push(found);
    parent = found?.parent;
  }
  return isSessionVisible(summary, ancestors);
}
