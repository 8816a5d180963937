/**
 * Where an imported sub-agent's session hangs in the tree (ADR 0067): its parent session, and the
 * item of the parent's call that started it. The parent's importer names each child in the
 * metadata of that call's row (`childSessions`); a parent whose transcript does not name the child
 * (an older CLI version) gets it under its first item once the parent's transcript is settled.
 * A parent that is not in the store cannot be named: the child waits while the transcripts are
 * still written, then is imported on its own, and the report says so.
 */
import type { HistoryStore, SessionParent } from "../store/port.js";
import type { ImportReport } from "./import-report.js";

const PAGE = 1_000;

/** Where a child goes: under its parent, on its own, or nowhere yet (its parent has not named it). */
export type ParentDecision = { kind: "attach"; parent: SessionParent } | { kind: "alone" } | { kind: "wait" };

/**
 * `parentSettled`: the parent's transcript is no longer written. While it is, a parent that does
 * not name the child yet (Claude Code writes the `Task` result when the sub-agent ends) makes the
 * child wait, so that it is attached to the call and not to the parent's first item.
 *
 * @example const decision = await parentOf({ store, sessionId: "codex:child", parentSessionId: "codex:parent", parentSettled: true, report });
 */
export async function parentOf({
  store,
  sessionId,
  parentSessionId,
  parentSettled,
  report,
}: {
  store: HistoryStore;
  sessionId: string;
  parentSessionId: string;
  parentSettled: boolean;
  report: ImportReport;
}): Promise<ParentDecision> {
  const existing = await store.session(sessionId);
  // A session keeps the parent it was created with (the store records it once).
  if (existing !== undefined) {
    if (existing.parent === undefined) {
      report.warnings.push(`session '${sessionId}' was imported before its parent '${parentSessionId}' and stays a session of its own.`);
    }
    return { kind: "alone" };
  }
  const summary = await store.session(parentSessionId);
  if (summary === undefined) {
    if (!parentSettled) return { kind: "wait" };
    report.warnings.push(`session '${sessionId}' is a sub-agent of '${parentSessionId}', which is not in the store: imported as a session of its own (import the parent's transcript with it to attach it).`);
    return { kind: "alone" };
  }
  const item = await startingItem(store, parentSessionId, sessionId, summary.lastSeq);
  if (item === undefined && !parentSettled) return { kind: "wait" };
  return { kind: "attach", parent: { sessionId: parentSessionId, itemId: String(item ?? 1) } };
}

/** The seq of the parent's row whose call started `childSessionId`, or undefined. */
async function startingItem(store: HistoryStore, parentSessionId: string, childSessionId: string, lastSeq: number): Promise<number | undefined> {
  for (let afterSeq = 0; afterSeq < lastSeq; ) {
    const page = await store.items(parentSessionId, { includeCleared: true, afterSeq, beforeSeq: lastSeq + 1, limit: PAGE });
    for (const row of page.rows) {
      const children = (row.metadata as { childSessions?: unknown } | undefined)?.childSessions;
      if (Array.isArray(children) && children.includes(childSessionId)) return row.seq;
    }
    if (!page.hasMore || page.rows.length + page.skipped === 0) return undefined;
    afterSeq += page.rows.length + page.skipped;
  }
  return undefined;
}
