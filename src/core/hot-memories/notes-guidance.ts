/**
 * Sentences about the notes file for the texts the session engine writes (the budget warning).
 * When memory is off or read-only the agent cannot save notes, so the sentence says so and points
 * to `session_history` instead.
 */
import { CONTEXT_NOTES_PATH, DEFAULT_HOT_MEMORY_LIMITS } from "./limits.js";

/** How the memory tool is available in a session. */
export type MemoryMode = "read-write" | "read-only" | "off";

/**
 * The memory mode from the session's settings.
 *
 * @example
 * memoryModeOf({ enabled: true, readOnly: true }) // "read-only"
 */
export function memoryModeOf({
  enabled = true,
  readOnly = false,
}: {
  enabled?: boolean;
  readOnly?: boolean;
}): MemoryMode {
  if (!enabled) return "off";
  return readOnly ? "read-only" : "read-write";
}

/**
 * The sentence of the budget warning that tells the agent where to save its working state.
 *
 * @example
 * notesWarningSentence({ mode: "read-write" })
 * // "Write or update /memories/workspace/context-notes.md now with the memory tool: ..."
 * notesWarningSentence({ mode: "off" })
 * // "Memory is off in this session, so no notes can be saved; ... use session_history ..."
 */
export function notesWarningSentence({
  mode,
  notesPath = CONTEXT_NOTES_PATH,
  notesBytes = DEFAULT_HOT_MEMORY_LIMITS.notesBytes,
  historyToolName = "session_history",
}: {
  mode: MemoryMode;
  notesPath?: string;
  notesBytes?: number;
  historyToolName?: string;
}): string {
  if (mode === "read-write") {
    return (
      `Write or update ${notesPath} now with the memory tool: the state worth keeping, essential facts first, ` +
      `at most ${formatKibibytes(notesBytes)}. It is shown to you again in the next context window.`
    );
  }
  const state = mode === "off" ? "off" : "read-only";
  return (
    `Memory is ${state} in this session, so no notes can be saved; ` +
    `after the rollover, use ${historyToolName} to look up earlier details when you need them.`
  );
}

function formatKibibytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
