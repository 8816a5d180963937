/**
 * Row builders for the session_history tests: the kinds of rows a real transcript holds
 * (text, tool calls, reasoning, media, rollover/compaction/reset boundaries, lead-ins, warnings,
 * rejected input) and a few legacy-looking ones. Test-only: excluded from the build.
 */
import type { RowInput } from "../../../core/row.js";

// The boundary rows are the store conformance suite's own.
export { compaction, reset, rollover } from "../../../store/test-support/conformance-rows.js";

export const userText = (text: string, extra: Partial<RowInput> = {}): RowInput => ({
  role: "user",
  parts: [{ type: "text", text }],
  ...extra,
});

export const assistantText = (text: string, extra: Partial<RowInput> = {}): RowInput => ({
  role: "assistant",
  parts: [{ type: "text", text }],
  ...extra,
});

let toolCallCounter = 0;

/** An assistant row with one tool call and its result in the same part. */
export const toolCall = ({ name, input, output }: { name: string; input: unknown; output: unknown }): RowInput => ({
  role: "assistant",
  parts: [
    {
      type: `tool-${name}`,
      toolCallId: `call-${(toolCallCounter += 1)}`,
      state: "output-available",
      input,
      output,
    } as never,
  ],
});

/** The envelope of a row ctxwin writes for the model only: synthetic, and never shown to people. */
const hidden = { synthetic: true, uiVisible: false } as const;

export const leadIn = (
  rolloverId: string,
  text = `New context window after rollover ${rolloverId}; use session_history.`,
): RowInput => userText(text, { ...hidden, meta: { type: "lead-in", rolloverId } });

export const continueRow = (text = "continue"): RowInput => userText(text, { ...hidden, meta: { type: "continue" } });

export const budgetWarning = (text: string): RowInput =>
  userText(text, { synthetic: true, meta: { type: "budget-warning" } });

export const rejectedInput = (text: string): RowInput => userText(text, { meta: { type: "rejected-input" } });

/** A row of a type this build does not know (written by a newer build): shown as a generic synthetic row. */
export const unknownTypeRow = (text: string): RowInput =>
  userText(text, { synthetic: true, meta: { type: "checkpoint-v9" } });

/** A boundary written without rollover metadata, as an older build might have: fails closed as a reset. */
export const legacyBareBoundary = (): RowInput => ({ role: "assistant", parts: [], boundary: { kind: "rollover" } });

/** An assistant row in an older shape: reasoning, a step marker, a source, an image, a tool call without a result. */
export const legacyMixedRow = (text: string): RowInput => ({
  role: "assistant",
  parts: [
    { type: "step-start" },
    { type: "reasoning", text: "private reasoning that is never shown" },
    { type: "text", text },
    { type: "source-url", sourceId: "s1", url: "https://example.com/doc" },
    { type: "file", mediaType: "image/png", url: "data:image/png;base64,AAAA" },
    {
      type: "dynamic-tool",
      toolName: "grep",
      toolCallId: "legacy-1",
      state: "input-available",
      input: { pattern: "TODO" },
    },
  ] as never,
  metadata: { legacy: true },
});

/** An earlier session_history call and its result: rendered as `[history result omitted]`. */
export const historyToolRow = (): RowInput =>
  toolCall({
    name: "session_history",
    input: { action: "search", query: "secret" },
    output: { hits: [{ snippet: "secret earlier output" }] },
  });
