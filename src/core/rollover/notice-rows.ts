/**
 * The other rows the session engine writes for itself: the budget warning, a rejected input, a
 * manual reset and a compaction summary (docs/design.md §1, §3).
 */
import type { RowInput, RowMeta, RowPart } from "../row.js";

/**
 * The visible budget warning (at most one per window).
 *
 * @example
 * budgetWarningRow({ text, windowId: "w:0", contextTokens: 6_300, maxTokens: 10_000 })
 */
export function budgetWarningRow({
  text,
  windowId,
  contextTokens,
  maxTokens,
  createdAt,
}: {
  text: string;
  windowId: string;
  contextTokens: number;
  maxTokens: number;
  createdAt?: string;
}): RowInput {
  const row: RowInput = {
    role: "user",
    parts: [{ type: "text", text }],
    synthetic: true,
    uiVisible: true,
    meta: {
      type: "budget-warning",
      windowId,
      contextTokens: Math.round(contextTokens),
      maxTokens: Math.round(maxTokens),
    },
  };
  return createdAt === undefined ? row : { ...row, createdAt };
}

export interface RejectedInputOptions {
  /** The user's parts, kept as they were typed (editable, never sent). */
  parts: RowPart[];
  /** Why it was refused, in one sentence for people. */
  reason: string;
  /** Estimated tokens of the smallest request that could carry it. */
  estimatedTokens: number;
  /** The hard ceiling it did not fit under. */
  hardCeiling: number;
  /** `provider:modelId` of the model it was checked against. */
  model?: string;
  metadata?: unknown;
  createdAt?: string;
}

/**
 * A user input that cannot fit even a fresh window: stored visibly, excluded from requests.
 *
 * @example
 * rejectedInputRow({ parts, reason: "too long", estimatedTokens: 50_000, hardCeiling: 12_000 })
 */
export function rejectedInputRow({
  parts,
  reason,
  estimatedTokens,
  hardCeiling,
  model,
  metadata,
  createdAt,
}: RejectedInputOptions): RowInput {
  const row: RowInput = {
    role: "user",
    parts,
    uiVisible: true,
    meta: {
      type: "rejected-input",
      reason,
      estimatedTokens: Math.round(estimatedTokens),
      hardCeiling: Math.round(hardCeiling),
      ...(model === undefined ? {} : { model }),
    },
  };
  if (metadata !== undefined) row.metadata = metadata;
  return createdAt === undefined ? row : { ...row, createdAt };
}

/**
 * A manual soft clear: a `reset` boundary, which is also a privacy floor.
 *
 * @example
 * await store.append(sessionId, [resetBoundaryRow({})]);
 */
export function resetBoundaryRow({ createdAt }: { createdAt?: string }): RowInput {
  const row: RowInput = { role: "assistant", parts: [], synthetic: true, uiVisible: true, boundary: { kind: "reset" } };
  return createdAt === undefined ? row : { ...row, createdAt };
}

/** Heading of a compaction summary as the model reads it. */
export const COMPACTION_SUMMARY_HEADING =
  "[Summary of the earlier conversation, written when the context was compacted]";

/** Rows of the compacted window a summary request could not hold (a step that pushed the window past it). */
export interface UnsummarizedItems {
  firstItemId: string;
  lastItemId: string;
  /** Whether the agent can read them back with `session_history`. */
  historyToolAvailable: boolean;
}

/**
 * A compaction boundary carrying an LLM summary; unlike a rollover it is sent to the provider.
 * When the summary covers only the window's oldest rows, it names the rows it does not cover.
 *
 * @example
 * compactionSummaryRow({ summary: "We fixed the parser; next: tests.", previousWindowId: "w:0" })
 */
export function compactionSummaryRow({
  summary,
  previousWindowId,
  unsummarized,
  createdAt,
}: {
  summary: string;
  previousWindowId: string;
  unsummarized?: UnsummarizedItems;
  createdAt?: string;
}): RowInput {
  const note = unsummarized === undefined ? "" : `\n${unsummarizedNote(unsummarized)}`;
  const meta: RowMeta = { type: "compaction-summary", previousWindowId };
  if (unsummarized !== undefined)
    meta["unsummarized"] = { firstItemId: unsummarized.firstItemId, lastItemId: unsummarized.lastItemId };
  const row: RowInput = {
    role: "user",
    parts: [{ type: "text", text: `${COMPACTION_SUMMARY_HEADING}\n${summary}${note}` }],
    synthetic: true,
    uiVisible: true,
    boundary: { kind: "compaction" },
    meta,
  };
  return createdAt === undefined ? row : { ...row, createdAt };
}

function unsummarizedNote({ firstItemId, lastItemId, historyToolAvailable }: UnsummarizedItems): string {
  const items = firstItemId === lastItemId ? `Item ${firstItemId}` : `Items ${firstItemId}–${lastItemId}`;
  const reach = historyToolAvailable
    ? "read them with session_history read_item if you need them"
    : "this session cannot read them back, so redo that work if you need it";
  return (
    `[${items} of the compacted window came after what this summary covers (the summary request ` +
    `could not hold them). They are stored in the transcript: ${reach}.]`
  );
}
