/**
 * The notes-flush row (docs/adr/0024): a short visible instruction in the window that is about to
 * roll over in the middle of a turn, answered by one step with only the memory tool, so the notes
 * pinned into the next window include the work done since the budget warning.
 */
import type { RowInput, RowMeta } from "../row.js";

/**
 * @example
 * notesFlushText({ windowId: "w:0", notesPath: "/memories/workspace/context-notes.md" })
 */
export function notesFlushText({ windowId, notesPath }: { windowId: string; notesPath: string }): string {
  return [
    `[Context window ${windowId} rolls over after this step.]`,
    `Update your notes file ${notesPath} now with the memory tool: what you are doing, what you found since you last wrote it, and what comes next.`,
    "Only the memory tool is available for this one step; then the turn continues in a fresh window with your notes pinned.",
  ].join(" ");
}

/**
 * A visible synthetic user row of type `notes-flush`, sent to the provider, at most one per window.
 * `activeTools` (the tools the flush step runs; every other one is held back) lets the carried
 * ledger say why a call of that step did not run.
 *
 * @example
 * notesFlushRow({ windowId: "w:0", notesPath, contextTokens: 15_200, maxTokens: 20_000, activeTools: ["memory"] })
 */
export function notesFlushRow({
  windowId,
  notesPath,
  contextTokens,
  maxTokens,
  activeTools,
  createdAt,
}: {
  windowId: string;
  notesPath: string;
  contextTokens: number;
  maxTokens: number;
  activeTools?: readonly string[];
  createdAt?: string;
}): RowInput {
  const meta: RowMeta = {
    type: "notes-flush",
    windowId,
    contextTokens: Math.max(0, Math.round(contextTokens)),
    maxTokens: Math.max(0, Math.round(maxTokens)),
  };
  if (activeTools !== undefined) meta["activeTools"] = [...activeTools];
  const row: RowInput = {
    role: "user",
    parts: [{ type: "text", text: notesFlushText({ windowId, notesPath }) }],
    synthetic: true,
    uiVisible: true,
    meta,
  };
  return createdAt === undefined ? row : { ...row, createdAt };
}

/**
 * Whether the window already had its notes flush (at most one per window).
 *
 * @example if (!hasNotesFlush(window.rows)) flush()
 */
export function hasNotesFlush(rows: readonly { meta?: { type?: unknown } | undefined }[]): boolean {
  return rows.some((row) => row.meta?.type === "notes-flush");
}
