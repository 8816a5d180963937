/** Rows the HistoryStore conformance suite appends (test-only). */
import type { RowInput } from "../../core/row.js";

export const text = (value: string, extra: Partial<RowInput> = {}): RowInput => ({
  role: "user",
  parts: [{ type: "text", text: value }],
  ...extra,
});
export const reply = (value: string, extra: Partial<RowInput> = {}): RowInput => ({
  role: "assistant",
  parts: [{ type: "text", text: value }],
  ...extra,
});
/** A rollover boundary (on-send), with the previous window's tokens and the model's limit. */
export const rollover = (
  rolloverId: string,
  previousWindowId = "w:0",
  { contextTokens = 900, maxTokens = 1000 }: { contextTokens?: number; maxTokens?: number } = {},
): RowInput => ({
  role: "assistant",
  parts: [],
  boundary: { kind: "rollover" },
  meta: {
    type: "rollover",
    rolloverId,
    reason: "on-send",
    previousWindowId,
    flushOpportunity: true,
    contextTokens,
    maxTokens,
  },
});
export const leadIn = (rolloverId: string): RowInput => ({
  role: "user",
  parts: [{ type: "text", text: `lead-in ${rolloverId}` }],
  synthetic: true,
  uiVisible: false,
  meta: { type: "lead-in", rolloverId },
});
export const reset = (): RowInput => ({ role: "assistant", parts: [], boundary: { kind: "reset" } });
export const compaction = (summary: string): RowInput => ({
  role: "user",
  parts: [{ type: "text", text: summary }],
  synthetic: true,
  boundary: { kind: "compaction" },
  meta: { type: "compaction-summary" },
});
export const textOf = (row: { parts: readonly { type: string }[] }) =>
  row.parts.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("");

/** `count` short assistant replies that match no search of the cases, numbered from `from`. */
export const fillers = (count: number, from = 0): RowInput[] =>
  Array.from({ length: count }, (_, index) => reply(`routine progress note ${from + index}`));
