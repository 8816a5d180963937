/**
 * The JSON a coding CLI writes to a `SessionStart` hook's stdin. Claude Code and Codex send the
 * same fields: `session_id`, `transcript_path` (Codex: a string or null), `cwd`,
 * `hook_event_name` ("SessionStart") and `source` (Claude Code: startup, resume, clear, compact;
 * Codex: startup, resume, clear). Codex's `PostCompact` hook sends the same `session_id` and
 * `transcript_path` with `hook_event_name` "PostCompact" (and a `trigger`): it cannot add context,
 * so for it the hook only imports. Anything else in the object is ignored.
 */

export interface SessionStartInput {
  /** The CLI's own session id (a uuid), as it names the transcript. */
  sessionId: string;
  /** The transcript file, when the CLI has one. */
  transcriptPath: string | undefined;
  /** Why the session (re)started: `compact`, `resume`, `startup`, `clear`, or what a newer CLI sends. */
  source: string | undefined;
  /** `PostCompact` (Codex, after its own compaction: import only), else `SessionStart`. */
  event: "SessionStart" | "PostCompact";
}

/** The input, or one sentence saying what is wrong with it. */
export type ParsedHookInput = { input: SessionStartInput } | { problem: string };

/**
 * @example parseHookInput('{"session_id":"5f0c…","transcript_path":"/…/5f0c….jsonl","source":"compact"}')
 */
export function parseHookInput(text: string): ParsedHookInput {
  if (text.trim() === "") return { problem: "no hook input on stdin (expected the SessionStart hook's JSON object)" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `the hook input is not JSON (${(error as Error).message})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { problem: "the hook input is not a JSON object" };
  const fields = value as Record<string, unknown>;
  const event = fields["hook_event_name"];
  if (event !== undefined && event !== "SessionStart" && event !== "PostCompact") {
    return {
      problem:
        `the hook input is for '${String(event)}', not SessionStart: ` +
        "register 'ctxwin hook session-start' only for SessionStart (or Codex's PostCompact)",
    };
  }
  const sessionId = fields["session_id"];
  if (typeof sessionId !== "string" || sessionId.trim() === "")
    return { problem: "the hook input has no session_id string" };
  const transcript = fields["transcript_path"];
  if (transcript !== undefined && transcript !== null && typeof transcript !== "string")
    return { problem: "the hook input's transcript_path is not a string" };
  const source = fields["source"];
  return {
    input: {
      sessionId,
      transcriptPath: typeof transcript === "string" && transcript !== "" ? transcript : undefined,
      source: typeof source === "string" ? source : undefined,
      event: event === "PostCompact" ? "PostCompact" : "SessionStart",
    },
  };
}
