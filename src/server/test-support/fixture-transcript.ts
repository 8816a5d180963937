/**
 * A small transcript with one of everything the web UI shows: messages, a tool call with its
 * result, a budget warning, a rollover (boundary + hidden lead-in), a `<script>` row, a rejected
 * input, and a manual soft clear (a privacy floor) with a row after it.
 */
import { budgetWarningRow, rejectedInputRow, resetBoundaryRow } from "../../core/rollover/notice-rows.js";
import type { HistoryStore } from "../../store/port.js";
import { rolloverRows } from "../../store/test-support/synthetic-transcript.js";

export const SCRIPT_TEXT = "<script>window.__pwned=1</script><img src=x onerror=alert(1)>";

/**
 * Writes the transcript; seqs: 1 user, 2 assistant tool call, 3 assistant, 4 warning, 5 rollover
 * boundary, 6 hidden lead-in, 7 user `<script>`, 8 assistant "secret-before-clear", 9 rejected
 * input, 10 reset boundary, 11 user "after the clear", 12 assistant "secret-after-clear".
 *
 * @example await writeFixtureTranscript({ store, sessionId: "s1" });
 */
export async function writeFixtureTranscript({
  store,
  sessionId,
}: {
  store: HistoryStore;
  sessionId: string;
}): Promise<void> {
  await store.append(sessionId, [
    { role: "user", parts: [{ type: "text", text: "Where is the retry policy configured?" }] },
    {
      role: "assistant",
      parts: [
        {
          type: "dynamic-tool",
          toolName: "read_file",
          toolCallId: "call-1",
          state: "output-available",
          input: { path: "src/retry.ts" },
          output: "export const RETRIES = 3;",
        },
      ],
      metadata: { ctxwinStep: { usage: { inputTokens: 1200, outputTokens: 20 }, model: "openai:gpt-4o" } },
    },
    {
      role: "assistant",
      parts: [{ type: "text", text: "In src/retry.ts: RETRIES = 3." }],
      metadata: { ctxwinStep: { usage: { inputTokens: 1300, outputTokens: 12 }, model: "openai:gpt-4o" } },
    },
    budgetWarningRow({
      text: "Your context window is 62% full: update your notes now.",
      windowId: "w:0",
      contextTokens: 1300,
      maxTokens: 2000,
    }),
  ]);
  const [boundary, leadIn] = rolloverRows("r-1", 0);
  await store.append(sessionId, [
    { ...boundary!, meta: { ...boundary!.meta!, contextTokens: 1420, maxTokens: 2000 } },
    leadIn!,
    { role: "user", parts: [{ type: "text", text: SCRIPT_TEXT }] },
    { role: "assistant", parts: [{ type: "text", text: "The word is secret-before-clear." }] },
    rejectedInputRow({
      parts: [{ type: "text", text: "a message far too large" }],
      reason: "too large for a fresh window",
      estimatedTokens: 99_000,
      hardCeiling: 1_500,
    }),
    resetBoundaryRow({}),
    { role: "user", parts: [{ type: "text", text: "after the clear" }] },
    { role: "assistant", parts: [{ type: "text", text: "The word is secret-after-clear." }] },
  ]);
}
