/**
 * The sessions below one session (its sub-agents, theirs, ...) that its `session_history` may
 * read (issue 30, ADR 0060). A manual clear of a session hides every child started at or before
 * it — the child's `task` call item is at or before the floor — and with it that child's own
 * children: the store-wide rule of ADR 0073 (`startedAfterFloor`, core/visibility.ts), walked down
 * from the calling session. Bounded: at most `MAX_DESCENDANTS` sessions, breadth first.
 */
import { startedAfterFloor } from "../../core/visibility.js";
import type { HistoryStore, SessionSummary } from "../../store/port.js";

export const MAX_DESCENDANTS = 200;

export interface Descendant {
  summary: SessionSummary;
  parentSessionId: string;
  /** The item of the parent's `task` call. */
  parentItemId: string;
  depth: number;
}

/** @example const children = await visibleDescendants(store, "main"); */
export async function visibleDescendants(
  store: HistoryStore,
  sessionId: string,
  floor?: number,
): Promise<Descendant[]> {
  const found: Descendant[] = [];
  const seen = new Set([sessionId]);
  let level: Array<{ sessionId: string; floor: number }> = [
    { sessionId, floor: floor ?? (await store.privacyFloor(sessionId)) },
  ];
  for (let depth = 1; level.length > 0 && found.length < MAX_DESCENDANTS; depth += 1) {
    const next: typeof level = [];
    for (const parent of level) {
      const children = await store.sessions({ parentSessionId: parent.sessionId });
      for (const child of children.sort(
        (left, right) => left.createdAt.localeCompare(right.createdAt) || left.sessionId.localeCompare(right.sessionId),
      )) {
        const itemId = child.parent?.itemId ?? "";
        const visible = startedAfterFloor({ itemId, floorSeq: parent.floor });
        if (seen.has(child.sessionId) || !visible || found.length >= MAX_DESCENDANTS) continue;
        seen.add(child.sessionId);
        found.push({ summary: child, parentSessionId: parent.sessionId, parentItemId: itemId, depth });
        next.push({ sessionId: child.sessionId, floor: child.floorSeq });
      }
    }
    level = next;
  }
  return found;
}
