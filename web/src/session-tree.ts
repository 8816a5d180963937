/**
 * The sessions list as a tree (ADR 0070): a sub-agent's session sits under its parent when the
 * parent is listed too, in the order of their `task` calls; one whose parent is not listed (cut
 * by the filter or the limit) stays at the top level and says whose it is. Forks are sessions of
 * their own: they stay where their activity puts them and say where they came from.
 */
import type { SessionSummary } from "./api/types";

export interface SessionNode {
  session: SessionSummary;
  children: SessionNode[];
}

/**
 * @example sessionTree([lead, child]) // [{ session: lead, children: [{ session: child, children: [] }] }]
 */
export function sessionTree(sessions: readonly SessionSummary[]): SessionNode[] {
  const nodes = new Map(sessions.map((session) => [session.sessionId, { session, children: [] as SessionNode[] }]));
  const roots: SessionNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.session.parent === null ? undefined : nodes.get(node.session.parent.sessionId);
    if (parent === undefined || parent === node || isBelow(parent, node, nodes)) roots.push(node);
    else parent.children.push(node);
  }
  for (const node of nodes.values())
    node.children.sort(
      (left, right) => Number(left.session.parent?.itemId ?? 0) - Number(right.session.parent?.itemId ?? 0),
    );
  return roots;
}

/** Whether `candidate` lies below `node` already (a cycle, which only a hand-written store could hold). */
function isBelow(candidate: SessionNode, node: SessionNode, nodes: Map<string, SessionNode>): boolean {
  const seen = new Set<string>();
  for (let current: SessionNode | undefined = candidate; current !== undefined;) {
    if (current === node) return true;
    if (seen.has(current.session.sessionId)) return true;
    seen.add(current.session.sessionId);
    const parentId: string | undefined = current.session.parent?.sessionId;
    current = parentId === undefined ? undefined : nodes.get(parentId);
  }
  return false;
}
