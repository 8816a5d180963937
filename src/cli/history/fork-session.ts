/**
 * `ctxwin history fork`: a new session sharing a session's history up to an item (ADR 0059). The
 * store's refusals (unknown session or item, an item behind the privacy floor, an id in use)
 * become one-line command errors; nothing is written then.
 */
import { parseItemId } from "../../core/windows.js";
import { ForkRefusedError } from "../../store/lineage/lineage-errors.js";
import { forkStoredSession } from "../../session/lineage/fork-stored-session.js";
import type { HistoryStore } from "../../store/port.js";
import { listSessions, type SessionEntry } from "./history-queries.js";
import { HistoryCommandError } from "./history-errors.js";

/** @example await forkSession({ store, sessionId: "build-42", at: "17", as: "build-42-retry" }) */
export async function forkSession({
  store,
  sessionId,
  at,
  as,
  generateId = () => crypto.randomUUID(),
}: {
  store: HistoryStore;
  sessionId: string;
  at: string;
  as?: string;
  generateId?: () => string;
}): Promise<SessionEntry> {
  const atSeq = parseItemId(at);
  if (atSeq === undefined || atSeq < 1)
    throw new HistoryCommandError(
      `--at must be an item id such as 42, as \`ctxwin history items\` shows them; got ${JSON.stringify(at)}.`,
    );
  let newSessionId: string;
  try {
    newSessionId = await forkStoredSession({
      store,
      sessionId,
      atSeq,
      generateId,
      ...(as === undefined ? {} : { newSessionId: as }),
    });
  } catch (error) {
    if (ForkRefusedError.isInstance(error)) throw new HistoryCommandError(error.message);
    throw error;
  }
  const entry = (await listSessions({ store })).find((session) => session.session_id === newSessionId);
  if (entry === undefined)
    throw new HistoryCommandError(`The fork ${newSessionId} was written but cannot be read back.`);
  return entry;
}
