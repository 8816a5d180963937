/**
 * Which tool calls of a transcript started a child session (ADR 0060, 0070): a call whose result
 * names a session that the store records as a child of this session at the call's item, or, while
 * the call has no result yet, the child at that item whose id ends with the call's id (the `task`
 * tool's readable ids, `<parent>/<agent>-[<itemId>-]<toolCallId>`, ADR 0074). A fork's rows up to
 * its fork point are its origin's, and so are the children started from them. A child a clear
 * hides (ADR 0073) is not linked: its page is not available.
 */
import { visibleSessions } from "../store/lineage/session-visibility.js";
import type { ForkOrigin, HistoryStore, SessionSummary, StoredRow } from "../store/port.js";

/** How deep a chain of forks is followed to find the children of shared rows. */
const MAX_FORK_DEPTH = 32;

export interface ChildLinks {
  /** The child session a tool part of `row` started, if any. */
  childOf(row: StoredRow, part: { [key: string]: unknown }): string | undefined;
}

export const NO_CHILD_LINKS: ChildLinks = { childOf: () => undefined };

/**
 * @example
 * const links = await childLinks({ store, sessionId: "lead" });
 * links.childOf(row, part); // "lead/reviewer-call-1"
 */
export async function childLinks({
  store,
  sessionId,
}: {
  store: HistoryStore;
  sessionId: string;
}): Promise<ChildLinks> {
  /** Child session id → the item id of the call that started it, in this session's numbering. */
  const itemOfChild = new Map<string, string>();
  let current: string | undefined = sessionId;
  let sharedUpTo = Number.POSITIVE_INFINITY;
  for (let depth = 0; current !== undefined && depth < MAX_FORK_DEPTH; depth += 1) {
    const [summary, children]: [SessionSummary | undefined, SessionSummary[]] = await Promise.all([
      store.session(current),
      store.sessions({ parentSessionId: current }),
    ]);
    for (const child of await visibleSessions({ store, summaries: children })) {
      const itemId = child.parent?.itemId;
      if (itemId !== undefined && Number(itemId) <= sharedUpTo && !itemOfChild.has(child.sessionId))
        itemOfChild.set(child.sessionId, itemId);
    }
    const origin: ForkOrigin | undefined = summary?.forkOf;
    if (origin !== undefined) sharedUpTo = Math.min(sharedUpTo, origin.atSeq);
    current = origin?.sessionId;
  }
  if (itemOfChild.size === 0) return NO_CHILD_LINKS;
  return {
    childOf(row, part) {
      const itemId = String(row.seq);
      const named = namedSession(part["output"]);
      if (named !== undefined && itemOfChild.get(named) === itemId) return named;
      const callId = part["toolCallId"];
      if (typeof callId !== "string" || callId === "") return undefined;
      for (const [childId, childItemId] of itemOfChild)
        if (childItemId === itemId && childId.endsWith(`-${callId}`)) return childId;
      return undefined;
    },
  };
}

/** The `session_id` a `task` result names. */
function namedSession(output: unknown): string | undefined {
  if (output === null || typeof output !== "object") return undefined;
  const named = (output as Record<string, unknown>)["session_id"];
  return typeof named === "string" ? named : undefined;
}
