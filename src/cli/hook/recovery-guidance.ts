/**
 * The text the SessionStart hook adds to the agent's new context: labelled as tool guidance, at
 * most `MAX_GUIDANCE_CHARS` characters, naming the exact `session_id` to pass to
 * `session_history`, how much history precedes, and one example call. Facts only: no summary of
 * the transcript (that is what compaction already did).
 */

/** The most the hook ever adds to a context. */
export const MAX_GUIDANCE_CHARS = 800;

export interface GuidanceFacts {
  /** The session id in the ctxwin store (`claude-code:<uuid>`, `codex:<uuid>`). */
  storeSessionId: string;
  /** Items stored for the session (item ids run from 1 to this). */
  items: number;
  windows: number;
  /** Why the session started (`compact`, `resume`, ...). */
  source: string | undefined;
  /** The import stopped at its time budget: the newest lines come later. */
  importPending: boolean;
}

/** The first line of every guidance: how the hook finds its own earlier output in a transcript. */
export const GUIDANCE_MARKER = "[ctxwin tool guidance, not from the user]";

/**
 * @example recoveryGuidance({ storeSessionId: "claude-code:5f0c…", items: 42, windows: 2, source: "compact", importPending: false })
 */
export function recoveryGuidance({ storeSessionId, items, windows, source, importPending }: GuidanceFacts): string {
  const id = JSON.stringify(storeSessionId);
  const counts = `${items} ${items === 1 ? "item" : "items"} in ${windows} ${windows === 1 ? "window" : "windows"}`;
  // Only a compaction leaves a summary; a resumed or restarted session lacks what its context no longer holds.
  const [moment, need] =
    source === "compact"
      ? ["Your context was just compacted, but this", "a detail the summary lacks"]
      : [source === "resume" ? "This resumed" : "This", "a detail of an earlier turn that your context does not hold"];
  const lines = [
    GUIDANCE_MARKER,
    `${moment} session's earlier turns are stored verbatim: ${counts} ${importPending ? "are stored so far" : "precede this point"}.`,
    `When you need ${need}, call the ctxwin MCP tool session_history with session_id ${id} instead of guessing.`,
    `Example: {"action":"search","session_id":${id},"query":"<words of the detail>","mode":"ranked"}, then "read_item" with an item_id it returns.`,
  ];
  if (importPending)
    lines.push(
      "The history is still partial: the newest turns are being imported in the background and become searchable shortly.",
    );
  const text = lines.join("\n");
  return text.length <= MAX_GUIDANCE_CHARS ? text : `${text.slice(0, MAX_GUIDANCE_CHARS - 1)}…`;
}

/**
 * What the hook prints on stdout: the JSON both Claude Code and Codex read from a SessionStart
 * hook (`hookSpecificOutput.additionalContext`).
 *
 * @example hookOutput("[ctxwin tool guidance …]")
 */
export function hookOutput(guidance: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: guidance } })}\n`;
}
