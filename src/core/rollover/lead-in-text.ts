/**
 * The lead-in: the hidden user row right after a rollover boundary. It names the new window, says
 * that earlier windows exist and how to read them, and summarizes nothing (docs/design.md §1).
 */
import type { RolloverReason } from "../row.js";
import { SESSION_HISTORY_TOOL_NAME } from "../row-text.js";
import { handoffNoteText } from "./new-context.js";

export interface LeadInTextOptions {
  /** Id of the window the lead-in opens, e.g. `w:42`. */
  windowId: string;
  /** Id of the window that just ended. */
  previousWindowId: string;
  reason: RolloverReason;
  /** Whether the agent was warned in the previous window and could save notes. */
  flushOpportunity: boolean;
  /** Whether the session offers `session_history` (it does unless a tool policy withholds it). */
  historyToolAvailable?: boolean;
  /** Path of the notes file when memory is on, shown in `<hot_memories>`; omitted when memory is off. */
  notesPath?: string;
  /** A requested rollover's handoff note (docs/adr/0025), quoted as the agent's own words. */
  handoffNote?: string;
}

const reasonSentences: Record<RolloverReason, string> = {
  "on-send": "The previous window was near its token budget, so this message starts a fresh one.",
  "mid-stream":
    "Your previous turn was stopped at a step boundary because its window reached the token " +
    "budget; no tool call was cut off, and every call that ran has its result stored.",
  "context-exceeded":
    "The provider refused the previous request as too long, so the request was sent again in a fresh window.",
  requested:
    "You asked for a fresh window with new_context, so the previous one ended after that step; every tool call of it that ran has its result stored.",
};

/**
 * @example
 * leadInText({ windowId: "w:42", previousWindowId: "w:0", reason: "on-send", flushOpportunity: true })
 * // "[Context window w:42 begins.] The previous window was near its token budget, ..."
 */
export function leadInText({
  windowId,
  previousWindowId,
  reason,
  flushOpportunity,
  historyToolAvailable = true,
  notesPath,
  handoffNote,
}: LeadInTextOptions): string {
  const sentences = [`[Context window ${windowId} begins.]`, reasonSentences[reason]];
  sentences.push(
    `Earlier windows (the one just before is ${previousWindowId}) are not part of this request but nothing was deleted: they stay in the session transcript.`,
  );
  if (historyToolAvailable) {
    sentences.push(
      `To look something up, call ${SESSION_HISTORY_TOOL_NAME}: list_windows to see them, search to find a word or phrase, read_item to page through one item.`,
    );
  } else {
    sentences.push(
      `This session has no ${SESSION_HISTORY_TOOL_NAME} tool, so earlier windows cannot be read from here.`,
    );
  }
  if (notesPath !== undefined) {
    sentences.push(
      flushOpportunity
        ? `Your notes from ${notesPath}, if you wrote any, are in <hot_memories>.`
        : `The previous window ended without a chance to update ${notesPath}; rely on ${SESSION_HISTORY_TOOL_NAME} for details you need.`,
    );
  }
  sentences.push("This note does not summarize earlier work.");
  const text = sentences.join(" ");
  return handoffNote === undefined ? text : `${text}\n${handoffNoteText(handoffNote)}`;
}
