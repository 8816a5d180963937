/**
 * `new_context`: the agent asks for a fresh context window itself, e.g. after finishing a
 * sub-task (docs/adr/0025). The tool only records the request; the session rolls over at the
 * step boundary, through the same transaction as every other rollover (reason `requested`).
 * Every answer is a result the model can act on, a refusal included, never an exception.
 */
import { tool, type Tool } from "ai";
import { z } from "zod";
import { checkHandoffNote, HANDOFF_NOTE_MAX_CHARS } from "../../core/rollover/new-context.js";

export const NEW_CONTEXT_DESCRIPTION = [
  "Ask for a fresh context window, e.g. after finishing a sub-task whose details you no longer need in context.",
  "When the current step ends, work continues in a new window holding the system prompt, " +
    "your pinned notes, a short lead-in and your current task; " +
    "earlier windows stay readable with session_history.",
  "Update your notes file first if you keep one.",
  `note (optional, at most ${HANDOFF_NOTE_MAX_CHARS} characters): a handoff for yourself, quoted at the start of the new window.`,
  "Refused when the window is already fresh or began at your own request only a few steps ago.",
].join(" ");

const noteDescription = `A handoff note for the next window, at most ${HANDOFF_NOTE_MAX_CHARS} characters.`;

/**
 * The input schema handed to the AI SDK: it advertises `note` as an optional string (nullish for
 * strict-mode providers) but lets every value through to `execute`, which answers a bad one with
 * a refusal instead of the SDK's raw validation dump (as `session_history` does, ADR 0010).
 */
function permissiveInputSchema(): z.ZodType<{ note?: unknown }, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(
    z.string().max(HANDOFF_NOTE_MAX_CHARS).nullish().describe(noteDescription),
    { io: "input", target: "draft-7" },
  ) as Record<string, unknown>;
  return z.preprocess(
    (value) => (typeof value === "object" && value !== null && !Array.isArray(value) ? value : {}),
    z.object({ note: z.unknown().optional().meta(json) }),
  ) as unknown as z.ZodType<{ note?: unknown }, unknown>;
}

export type NewContextResult =
  | { status: "accepted"; window_id: string; message: string }
  | { status: "refused"; code: "invalid_input" | "window_fresh" | "too_recent" | "unavailable"; message: string };

/** What the session does with a checked request: records it, or says why it cannot. */
export type NewContextRequester = (request: { note: string | undefined }) => Promise<NewContextResult>;

/**
 * The `new_context` tool over a session's requester. Its schema accepts any value, so that a
 * wrong note reaches `execute` and comes back as a refusal the model can act on.
 *
 * @example
 * const tools = { new_context: newContextTool({ request: async ({ note }) => recordRequest(note) }) };
 */
export function newContextTool({
  request,
  description = NEW_CONTEXT_DESCRIPTION,
}: {
  request: NewContextRequester;
  description?: string;
}): Tool<{ note?: unknown }, NewContextResult> {
  return tool({
    description,
    inputSchema: permissiveInputSchema(),
    execute: async (input) => {
      const checked = checkHandoffNote(input.note);
      if (!checked.ok) return { status: "refused", code: "invalid_input", message: checked.message };
      return request({ note: checked.note });
    },
  });
}
