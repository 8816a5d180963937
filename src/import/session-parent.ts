/**
 * Where an imported sub-agent's session hangs in the tree (ADR 0067): its parent session, and the
 * item of the parent's call that started it. The parent's importer names each child in the
 * metadata of that call's row (`childSessions`); a parent whose transcript does not name the child
 * (an older CLI version) gets it under its first item once the parent's transcript is settled.
 * A parent that is not in the store cannot be named: the child waits while the transcripts are
 * still written, then is imported on its own, and the report says so. A child imported on its own
 * is attached to its parent by a later import that finds the parent (ADR 0067, amended 2026-12-06).
 */
import { AttachParentRefusedError } from "../store/lineage/lineage-errors.js";
import type { HistoryStore, SessionParent, SessionSummary } from "../store/port.js";
import type { ImportReport } from "./import-report.js";

const PAGE = 1_000;

/**
 * Where a child goes: under its parent (recorded with its first rows), on its own, or nowhere yet
 * (its parent has not named it). An existing child is always `alone`: its rows go on without a
 * parent option, and `parentOf` has attached it already where it could.
 */
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
  calls = new ChildCalls(),
}: {
  store: HistoryStore;
  sessionId: string;
  parentSessionId: string;
  parentSettled: boolean;
  report: ImportReport;
  /** Shared by one import's children, so each parent's rows are read once. */
  calls?: ChildCalls;
}): Promise<ParentDecision> {
  const existing = await store.session(sessionId);
  if (existing !== undefined) {
    // A session keeps the parent it has; one imported before its parent is attached now if it can be.
    if (existing.parent === undefined && existing.forkOf === undefined) {
      await reattach({ store, existing, parentSessionId, parentSettled, report, calls });
    }
    return { kind: "alone" };
  }
  const summary = await store.session(parentSessionId);
  if (summary === undefined) {
    if (!parentSettled) return { kind: "wait" };
    report.warnings.push(
      `session '${sessionId}' is a sub-agent of '${parentSessionId}', which is not in the store: ` +
        "imported as a session of its own (import the parent's transcript to attach it).",
    );
    return { kind: "alone" };
  }
  const item = await calls.startingItem(store, parentSessionId, sessionId, summary.lastSeq);
  if (item === undefined && !parentSettled) return { kind: "wait" };
  return { kind: "attach", parent: { sessionId: parentSessionId, itemId: String(item ?? 1) } };
}

/**
 * A child stored without a parent (imported before it): attached to the parent's call once the
 * parent is in the store and names it, or to its first item once the parent is settled. While the
 * parent is written and does not name it yet, the child's rows go on and a later import attaches it.
 */
async function reattach({
  store,
  existing,
  parentSessionId,
  parentSettled,
  report,
  calls,
}: {
  store: HistoryStore;
  existing: SessionSummary;
  parentSessionId: string;
  parentSettled: boolean;
  report: ImportReport;
  calls: ChildCalls;
}): Promise<void> {
  const { sessionId } = existing;
  const summary = await store.session(parentSessionId);
  if (summary === undefined) {
    report.warnings.push(
      `session '${sessionId}' was imported before its parent '${parentSessionId}' and stays a session of its own until the parent's transcript is imported.`,
    );
    return;
  }
  const item = await calls.startingItem(store, parentSessionId, sessionId, summary.lastSeq);
  if (item === undefined && !parentSettled) return;
  try {
    const result = await store.attachParent(sessionId, { sessionId: parentSessionId, itemId: String(item ?? 1) });
    if (result === "attached") report.childrenReattached += 1;
  } catch (error) {
    if (!AttachParentRefusedError.isInstance(error)) throw error;
    report.warnings.push(
      `session '${sessionId}' was imported before its parent '${parentSessionId}' and stays a session of its own: ${error.message}`,
    );
  }
}

/**
 * Where each parent's calls started their children, as far as the parent's rows were read: one
 * import reads each parent's rows once, however many children it has (a parent with thousands of
 * sub-agents made every child re-read all of them).
 */
export class ChildCalls {
  private readonly parents = new Map<string, { readTo: number; items: Map<string, number> }>();

  /** The seq of the parent's row whose call started `childSessionId`, or undefined. */
  async startingItem(
    store: HistoryStore,
    parentSessionId: string,
    childSessionId: string,
    lastSeq: number,
  ): Promise<number | undefined> {
    let known = this.parents.get(parentSessionId);
    if (known === undefined || known.readTo > lastSeq) {
      known = { readTo: 0, items: new Map() };
      this.parents.set(parentSessionId, known);
    }
    // Rows are only appended: the rows after the last one read are all that can be new.
    for (let afterSeq = known.readTo; afterSeq < lastSeq;) {
      const options = { includeCleared: true, afterSeq, beforeSeq: lastSeq + 1, limit: PAGE };
      const page = await store.items(parentSessionId, options);
      for (const row of page.rows) {
        const children = (row.metadata as { childSessions?: unknown } | undefined)?.childSessions;
        if (!Array.isArray(children)) continue;
        for (const child of children) {
          if (typeof child === "string" && !known.items.has(child)) known.items.set(child, row.seq);
        }
      }
      afterSeq += page.rows.length + page.skipped;
      known.readTo = afterSeq;
      if (!page.hasMore || page.rows.length + page.skipped === 0) break;
    }
    return known.items.get(childSessionId);
  }
}
