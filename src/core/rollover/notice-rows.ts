/**
 * The other rows the session engine writes for itself: the budget warning, a rejected input, a
 * manual reset and a compaction summary (DESIGN.md §1, §3).
 */
import type { RowInput, RowPart } from "../row.js";

/**
 * The visible budget warning (at most one per window).
 *
 * @example
 * budgetWarningRow({ text, windowId: "w:0", contextTokens: 6_300, maxTokens: 10_000 })
 */
export function budgetWarningRow({ text, windowId, contextTokens, maxTokens, createdAt }: { text: string; windowId: string; contextTokens: number; maxTokens: number; createdAt?: string }): RowInput {
  const row: RowInput = {
    role: "user",
    parts: [{ type: "text", text }],
    synthetic: true,
    uiVisible: true,
    meta: { type: "budget-warning", windowId, contextTokens: Math.round(contextTokens), maxTokens: Math.round(maxTokens) },
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
export function rejectedInputRow({ parts, reason, estimatedTokens, hardCeiling, model, metadata, createdAt }: RejectedInputOptions): RowInput {
  const row: RowInput = {
    role: "user",
    parts,
    uiVisible: true,
    meta: { type: "rejected-input", reason, estimatedTokens: Math.round(estimatedTokens), hardCeiling: Math.round(hardCeiling), ...(model === undefined ? {} : { model }) },
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
export const COMPACTION_SUMMARY_HEADING = "[Summary of the earlier conversation, written when the context was compacted]";

/**
 * A compaction boundary carrying an LLM summary; unlike a rollover it is sent to the provider.
 *
 * @example
 * compactionSummaryRow({ summary: "We fixed the parser; next: tests.", previousWindowId: "w:0" })
 */
export function compactionSummaryRow({ summary, previousWindowId, createdAt }: { summary: string; previousWindowId: string; createdAt?: string }): RowInput {
  const row: RowInput = {
    role: "user",
    parts: [{ type: "text", text: `${COMPACTION_SUMMARY_HEADING}\n${summary}` }],
    synthetic: true,
    uiVisible: true,
    boundary: { kind: "compaction" },
    meta: { type: "compaction-summary", previousWindowId },
  };
  return createdAt === undefined ? row : { ...row, createdAt };
}
