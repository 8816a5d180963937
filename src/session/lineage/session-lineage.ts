/**
 * `fork` and `edit` as both faces of the engine offer them (ADR 0068): the store's fork, then the
 * same face opened on the new session with the options this one was made with. `open` builds a
 * new engine, so the fork starts with an empty turn queue: no latched rollover, no pending warning.
 */
import type { HistoryStore } from "../../store/port.js";
import type { SendInput, SendOptions, SendResult } from "../session-types.js";
import { forkForEdit, forkStoredSession, type SessionForkOptions } from "./fork-stored-session.js";

export interface SessionEditOptions {
  /** The user message to replace (its item id); a `rejected-input` row can be edited too. */
  itemId: string;
  /** The edited message, sent as the fork's next turn. */
  input: SendInput;
  /** The new session's id (it must not exist); default `<sessionId>-fork-<8 characters>`. */
  newSessionId?: string;
}

export interface LineageEdit<Opened> {
  opened: Opened;
  /** The edited message's item id in the original session. */
  editedItemId: string;
  /** The send of the edited message in the new session. */
  result: SendResult;
}

/**
 * @example
 * const lineage = lineageMethods({
 *   store,
 *   sessionId,
 *   generateId,
 *   open: (id) => createAgentSession({ ...options, sessionId: id }),
 *   send: (s, input, o) => s.send(input, o),
 * });
 */
export function lineageMethods<Opened>({
  store,
  sessionId,
  generateId,
  open,
  send,
}: {
  store: HistoryStore;
  sessionId: string;
  generateId: () => string;
  open: (sessionId: string) => Opened;
  send: (opened: Opened, input: SendInput, options: SendOptions) => Promise<SendResult>;
}) {
  return {
    async fork(options: SessionForkOptions = {}): Promise<Opened> {
      return open(await forkStoredSession({ store, sessionId, generateId, ...options }));
    },
    async edit(
      { itemId, input, newSessionId }: SessionEditOptions,
      options: SendOptions = {},
    ): Promise<LineageEdit<Opened>> {
      const fork = await forkForEdit({
        store,
        sessionId,
        itemId,
        generateId,
        ...(newSessionId === undefined ? {} : { newSessionId }),
      });
      const opened = open(fork.sessionId);
      return { opened, editedItemId: String(fork.point.itemSeq), result: await send(opened, input, options) };
    },
  };
}
