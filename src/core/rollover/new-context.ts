/**
 * The rules of `new_context`, the model-callable rollover (docs/adr/0025): when the agent may ask
 * for a fresh window, how long its handoff note may be, and how the lead-in quotes that note.
 * Decided from the active window's stored rows alone.
 */
import { isSubstantive, type VisibilityFields } from "../visibility.js";

export const NEW_CONTEXT_TOOL_NAME = "new_context";

/** Longest handoff note, in characters (about 250 tokens): a pointer for the next window, not a summary. */
export const HANDOFF_NOTE_MAX_CHARS = 1_000;

/** A window opened by a requested rollover needs this many settled steps before the next request. */
export const MIN_STEPS_AFTER_REQUESTED = 3;

export interface NewContextWindowRow extends VisibilityFields {
  role: string;
}

export type NewContextCheck = { ok: true } | { ok: false; code: "window_fresh" | "too_recent"; message: string };

/**
 * Whether the agent may ask for a fresh window now. `rows` is the active window as stored before
 * the calling step (that step is stored when it settles). Refused when the window holds no settled
 * step yet (it is as fresh as it gets) or when it was itself opened by a requested rollover fewer
 * than `MIN_STEPS_AFTER_REQUESTED` steps ago.
 *
 * @example
 * checkNewContextRequest({ windowId: "w:0", rows }) // { ok: false, code: "window_fresh", ... }
 */
export function checkNewContextRequest({
  windowId,
  rows,
}: {
  windowId: string;
  rows: readonly NewContextWindowRow[];
}): NewContextCheck {
  const steps = rows.filter((row) => row.role === "assistant" && isSubstantive(row)).length;
  if (steps === 0) {
    return {
      ok: false,
      code: "window_fresh",
      message:
        `Window ${windowId} is already fresh: no step of yours has finished in it yet. ` +
        "Keep working here; ask again once this window holds work you no longer need in context.",
    };
  }
  const opened = rows[0]?.meta;
  if (opened?.type === "rollover" && opened["reason"] === "requested" && steps < MIN_STEPS_AFTER_REQUESTED) {
    return {
      ok: false,
      code: "too_recent",
      message:
        `Window ${windowId} began at your own request ${steps} step${steps === 1 ? "" : "s"} ago. ` +
        `A new one can be requested after ${MIN_STEPS_AFTER_REQUESTED} steps in this window; keep working here.`,
    };
  }
  return { ok: true };
}

/**
 * The handoff note when it is acceptable: `undefined` for none, an error message when it is not
 * text or longer than the bound (it is refused, never cut, so nothing is lost silently).
 *
 * @example
 * checkHandoffNote("Next: write the report from notes.") // { ok: true, note: "Next: write ..." }
 */
export function checkHandoffNote(
  value: unknown,
): { ok: true; note: string | undefined } | { ok: false; message: string } {
  if (value === undefined || value === null) return { ok: true, note: undefined };
  if (typeof value !== "string") return { ok: false, message: "note must be a string (or left out)." };
  const note = value.trim();
  if (note.length > HANDOFF_NOTE_MAX_CHARS) {
    return {
      ok: false,
      message:
        `note has ${note.length} characters; at most ${HANDOFF_NOTE_MAX_CHARS} are allowed. ` +
        "Shorten it (details belong in your notes file), then call new_context again.",
    };
  }
  return { ok: true, note: note.length === 0 ? undefined : note };
}

const HANDOFF_TAG = /<(\s*\/?\s*)(handoff_note)(?![\w-])/gi;

/**
 * The lead-in's quotation of the agent's own handoff note, marked as the agent's note (not the
 * user's words, not ctxwin's). The note cannot close its own block.
 *
 * @example
 * handoffNoteText("Report next.") // "You left yourself this handoff note ...\n<handoff_note>\nReport next.\n</handoff_note>"
 */
export function handoffNoteText(note: string): string {
  const body = note.replace(HANDOFF_TAG, (_match, between: string, name: string) => `&lt;${between}${name}`);
  return `You left yourself this handoff note when you asked for this window (your own words, quoted):\n<handoff_note>\n${body}\n</handoff_note>`;
}
