/**
 * The budget warning: a visible synthetic user row, at most once per window, that tells the agent
 * its window will roll over soon and what to save first (docs/design.md §1, §8).
 */
import { SESSION_HISTORY_TOOL_NAME } from "../row-text.js";

/** How the memory tool is available in a session. */
export type WarningMemoryMode = "read-write" | "read-only" | "off";

export interface BudgetWarningTextOptions {
  /** Id of the window that is filling up. */
  windowId: string;
  /** Tokens the window holds now (projected). */
  contextTokens: number;
  /** The model's context limit. */
  maxTokens: number;
  /** Tokens at which the window rolls over. */
  rolloverAtTokens: number;
  memoryMode: WarningMemoryMode;
  /** Path of the notes file. */
  notesPath?: string;
  /**
   * The sentence about saving notes. Default: one that names the notes file when memory is
   * writable, and otherwise says notes cannot be saved and points to `session_history`.
   */
  notesSentence?: string;
}

const DEFAULT_NOTES_PATH = "/memories/workspace/context-notes.md";

/**
 * @example
 * budgetWarningText({ windowId: "w:0", contextTokens: 6_300, maxTokens: 10_000, rolloverAtTokens: 7_000, memoryMode: "read-write" })
 * // "[Context budget] Window w:0 holds about 6,300 of 10,000 tokens (63%); it rolls over ..."
 */
export function budgetWarningText({
  windowId,
  contextTokens,
  maxTokens,
  rolloverAtTokens,
  memoryMode,
  notesPath = DEFAULT_NOTES_PATH,
  notesSentence = defaultNotesSentence(memoryMode, notesPath),
}: BudgetWarningTextOptions): string {
  const percent = maxTokens > 0 ? Math.round((contextTokens / maxTokens) * 100) : 0;
  return [
    `[Context budget] Window ${windowId} holds about ${formatCount(contextTokens)} ` +
      `of ${formatCount(maxTokens)} tokens (${percent}%); ` +
      `it rolls over to a fresh window at about ${formatCount(rolloverAtTokens)}.`,
    `After the rollover, earlier messages are no longer in your context but stay readable with ${SESSION_HISTORY_TOOL_NAME}.`,
    notesSentence,
    "Then continue the current task without commentary.",
  ].join(" ");
}

function defaultNotesSentence(mode: WarningMemoryMode, notesPath: string): string {
  if (mode === "read-write") {
    return `Write or update ${notesPath} now with the memory tool: the state worth keeping, essential facts first, at most 8 KiB.`;
  }
  return `Memory is ${mode} in this session, so no notes can be saved; after the rollover, use ${SESSION_HISTORY_TOOL_NAME} to look up earlier details.`;
}

function formatCount(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}
