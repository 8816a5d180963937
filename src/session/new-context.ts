/**
 * The session's side of `new_context` (docs/adr/0025): the tool's requester checks the active
 * window and records the request; the turn that made it takes it after its settled step and stops
 * there, and the send flow latches a rollover with reason `requested`. The rollover itself happens
 * in the next turn's start, through the same transaction as every other rollover.
 */
import { checkNewContextRequest } from "../core/rollover/new-context.js";
import { modelKey } from "./budget-policy.js";
import { primaryModel, type SessionContext } from "./session-context.js";
import type { NewContextRequester } from "../tools/new-context/new-context-tool.js";

/** A request recorded by the tool, waiting for its step to settle. */
export interface NewContextRequest {
  windowId: string;
  note: string | undefined;
}

/**
 * @example
 * const tool = newContextTool({ request: newContextRequester(() => context) });
 */
export function newContextRequester(contextOf: () => SessionContext): NewContextRequester {
  return async ({ note }) => {
    const context = contextOf();
    const model = primaryModel(context);
    if (context.policy.limitOf(model).contextLimit === undefined) {
      return {
        status: "refused",
        code: "unavailable",
        message: `The context limit of ${modelKey(model)} is unknown, so no window can be opened on request. Keep working here.`,
      };
    }
    const window = await context.store.activeWindow(context.sessionId);
    if (context.newContextRequest?.windowId === window.windowId) {
      return {
        status: "accepted",
        window_id: window.windowId,
        message: "A fresh window is already requested; it opens when this step ends (the first call's note is kept).",
      };
    }
    const check = checkNewContextRequest({ windowId: window.windowId, rows: window.rows });
    if (!check.ok) return { status: "refused", code: check.code, message: check.message };
    context.newContextRequest = { windowId: window.windowId, note };
    return {
      status: "accepted",
      window_id: window.windowId,
      message:
        `Window ${window.windowId} ends when this step ends; ` +
        `your task continues in a fresh window${note === undefined ? "" : " that quotes your note"}.`,
    };
  };
}

/**
 * The request recorded for `windowId`, removed from the session; a request for another window is
 * stale and dropped.
 *
 * @example
 * const requested = takeNewContextRequest(context, windowId);
 */
export function takeNewContextRequest(context: SessionContext, windowId: string): NewContextRequest | undefined {
  const request = context.newContextRequest;
  context.newContextRequest = undefined;
  return request?.windowId === windowId ? request : undefined;
}
