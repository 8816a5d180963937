/**
 * `/fork [<item>]` in `ctxwin chat`: a new session sharing this one's history up to an item
 * (default: the last), without copying it (ADR 0059). The chat goes on in this session; the fork
 * is continued with `ctxwin chat --session <id>`.
 */
import { forkSession } from "../history/fork-session.js";
import { HistoryCommandError } from "../history/history-errors.js";
import type { SlashContext } from "./slash-commands.js";

/** @example await forkChat(context, "12") */
export async function forkChat(
  { session, store, output }: Pick<SlashContext, "session" | "store" | "output">,
  argument: string,
): Promise<void> {
  const at = argument === "" ? String(await store.lastSeq(session.sessionId)) : argument;
  try {
    const fork = await forkSession({ store, sessionId: session.sessionId, at });
    output.line(
      `Forked this session at #${at} as ${fork.session_id}. Continue it with \`ctxwin chat --session ${fork.session_id}\` (and this chat's model flags).`,
    );
  } catch (error) {
    if (!HistoryCommandError.isInstance(error)) throw error;
    output.problem(`/fork: ${error.message}`);
  }
}
