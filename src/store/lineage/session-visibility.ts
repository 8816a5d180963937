/**
 * Which sessions of a store may be listed, searched and read (ADR 0073): the one place every
 * surface asks — the `session_history` tool, the MCP server, the web API and `ctxwin history`.
 * A child is visible when its parent's `task` call item lies after the parent's privacy floor,
 * up the whole tree (`isSessionVisible` in core decides; this module looks up the ancestors).
 * A query that lists many sessions at once can apply the same predicate to each summary with
 * its ancestors' floors.
 */
import { isSessionVisible } from "../../core/visibility.js";
import type { HistoryStore, SessionSummary } from "../port.js";
import { MAX_LINEAGE_DEPTH } from "./attach-parent.js";

/** Summaries already at hand, by session id, so a walk up the tree need not read them again. */
export type KnownSessions = ReadonlyMap<string, SessionSummary>;

/** A session's summary, and where its ancestors are looked up: among `known` first, then in the store. */
export interface SessionInTree {
  store: HistoryStore;
  summary: SessionSummary;
  known?: KnownSessions;
}

/**
 * The session's parent, grandparent, … nearest first, up to the first without a parent (at most
 * `MAX_LINEAGE_DEPTH`); `undefined` stands for a parent the store no longer holds, and ends the list.
 *
 * @example const ancestors = await ancestorsOf({ store, summary: child });
 */
export async function ancestorsOf({ store, summary, known }: SessionInTree): Promise<(SessionSummary | undefined)[]> {
  const ancestors: (SessionSummary | undefined)[] = [];
  const seen = new Set([summary.sessionId]);
  for (let parent = summary.parent; parent !== undefined;) {
    // A cycle or an overlong chain ends the list early, which hides the session (fail closed).
    if (ancestors.length >= MAX_LINEAGE_DEPTH || seen.has(parent.sessionId)) break;
    seen.add(parent.sessionId);
    const found = known?.get(parent.sessionId) ?? (await store.session(parent.sessionId));
    ancestors.push(found);
    parent = found?.parent;
  }
  return ancestors;
}

/**
 * Whether the session is visible (ADR 0073): no clear above it hides it.
 *
 * @example if (!(await isVisibleSession({ store, summary }))) return notAvailable();
 */
export async function isVisibleSession(session: SessionInTree): Promise<boolean> {
  if (session.summary.parent === undefined) return true;
  return isSessionVisible(session.summary, await ancestorsOf(session));
}

/**
 * The session's summary when it is stored and visible; `undefined` for an unknown session and for
 * one a clear above it hides alike, so that a caller's answer reveals nothing.
 *
 * @example const summary = await visibleSession({ store, sessionId: "main/child" });
 */
export async function visibleSession({
  store,
  sessionId,
}: {
  store: HistoryStore;
  sessionId: string;
}): Promise<SessionSummary | undefined> {
  const summary = await store.session(sessionId);
  return summary !== undefined && (await isVisibleSession({ store, summary })) ? summary : undefined;
}

/**
 * `summaries` without the hidden ones, in their order. Ancestors among `summaries` are not read
 * again, so filtering `store.sessions()` reads nothing more.
 *
 * @example const listed = await visibleSessions({ store, summaries: await store.sessions() });
 */
export async function visibleSessions({
  store,
  summaries,
}: {
  store: HistoryStore;
  summaries: readonly SessionSummary[];
}): Promise<SessionSummary[]> {
  const known: KnownSessions = new Map(summaries.map((summary) => [summary.sessionId, summary]));
  const visible: SessionSummary[] = [];
  for (const summary of summaries) if (await isVisibleSession({ store, summary, known })) visible.push(summary);
  return visible;
}
