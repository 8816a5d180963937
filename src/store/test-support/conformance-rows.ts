/** Rows the HistoryStore conformance suite appends (test-only). */
import type { RowInput, RowPart } from "../../core/row.js";

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
/** A tool call that finished: its input and output. */
export const finishedCall = ({
  toolName,
  toolCallId,
  input,
  output,
}: {
  toolName: string;
  toolCallId: string;
  input: unknown;
  output: unknown;
}): RowPart => ({ type: "dynamic-tool", toolName, toolCallId, state: "output-available", input, output }) as RowPart;
/**
 * The agent's search of its own history, a call of the history tool (as ctxwin names it, or as an
 * MCP client does): stored and readable, never indexed (ADR 0053).
 */
export const historyLookup = (
  query: string,
  { toolName = "session_history", toolCallId = "h1" }: { toolName?: string; toolCallId?: string } = {},
): RowInput => ({
  role: "assistant",
  parts: [finishedCall({ toolName, toolCallId, input: { action: "search", query }, output: "hit" })],
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
