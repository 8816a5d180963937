/**
 * The store half of `session.fork` and `session.edit` (ADR 0068): a new session sharing this one's
 * rows up to a point (ADR 0059). Nothing of a running session's memory goes with it: no latched
 * rollover, no warning waiting for the next input, no queued turn. The fork re-derives its budget
 * from its own stored rows, like a session reopened after a restart; the origin is not touched.
 */
import { InvalidArgumentError } from "../../core/errors.js";
import { assertSessionId } from "../../core/row.js";
import { parseItemId } from "../../core/windows.js";
import { sessionExists } from "../../store/lineage/create-fork.js";
import type { HistoryStore } from "../../store/port.js";
import { editPointOf, type EditPoint } from "./edit-point.js";

export interface SessionForkOptions {
  /** The last item the fork shares (an item id such as "17"); default: the session's last item. */
  atItem?: string;
  /** The same as a seq; give `atItem` or `atSeq`, not both. */
  atSeq?: number;
  /** The new session's id (it must not exist); default `<sessionId>-fork-<8 characters>`. */
  newSessionId?: string;
}

/**
 * @example
 * const forkId = await forkStoredSession({ store, sessionId: "build-42", atItem: "17" });
 */
export async function forkStoredSession({
  store,
  sessionId,
  atItem,
  atSeq,
  newSessionId,
  generateId = () => crypto.randomUUID(),
}: SessionForkOptions & { store: HistoryStore; sessionId: string; generateId?: () => string }): Promise<string> {
  if (atItem !== undefined && atSeq !== undefined)
    throw new InvalidArgumentError("fork takes atItem or atSeq, not both.");
  const at = atItem === undefined ? atSeq : parseItemId(atItem);
  if (atItem !== undefined && at === undefined)
    throw new InvalidArgumentError(`atItem must be an item id such as "42"; got ${JSON.stringify(atItem)}.`);
  const target = newSessionId ?? defaultForkId(sessionId, generateId);
  await store.fork(sessionId, { atSeq: at ?? (await store.lastSeq(sessionId)), newSessionId: target });
  return target;
}

/**
 * The session an edit continues in: a fork just before the edited message (editPointOf). When
 * nothing before it can be shared (the first message, or the first after a manual clear, whose
 * fork point is the privacy floor), a new empty session: what came before it was never visible.
 *
 * @example
 * const { sessionId, point } = await forkForEdit({ store, sessionId: "build-42", itemId: "17" });
 */
export async function forkForEdit({
  store,
  sessionId,
  itemId,
  newSessionId,
  generateId = () => crypto.randomUUID(),
}: {
  store: HistoryStore;
  sessionId: string;
  itemId: string;
  newSessionId?: string;
  generateId?: () => string;
}): Promise<{ sessionId: string; point: EditPoint; linked: boolean }> {
  const point = await editPointOf({ store, sessionId, itemId });
  const target = newSessionId ?? defaultForkId(sessionId, generateId);
  if (point.atSeq > (await store.privacyFloor(sessionId))) {
    await store.fork(sessionId, { atSeq: point.atSeq, newSessionId: target });
    return { sessionId: target, point, linked: true };
  }
  assertSessionId(target);
  if ((await store.session(target)) !== undefined) throw sessionExists(target);
  return { sessionId: target, point, linked: false };
}

function defaultForkId(sessionId: string, generateId: () => string): string {
  return `${sessionId}-fork-${generateId().replaceAll("-", "").slice(0, 8)}`;
}
