/**
 * Shows a session's events in the terminal while turns run: assistant text as it streams, one dim
 * line per tool call (`· read_file src/x.ts`), and divider lines for rollovers, budget warnings
 * and compactions, and a dim line when a step cut by a provider failure is requested again.
 * Failures and blocks are printed from the send's result, once.
 */
import { toolNameOf } from "../../core/row-text.js";
import type { AgentSession } from "../../session/create-agent-session.js";
import type { CompactionInfo, RolloverInfo, WarningInfo } from "../../session/session-types.js";
import type { StoredRow } from "../../store/port.js";
import type { ChatOutput } from "./chat-output.js";

/** Longest tool line argument text. */
const MAX_TOOL_ARGUMENT_CHARS = 80;
/** Longest provider reason in a retry line. */
const MAX_RETRY_REASON_CHARS = 160;

/**
 * Subscribes to `session`; returns the function that unsubscribes.
 *
 * @example
 * const stop = printTurns({ session, output });
 */
export function printTurns({ session, output }: { session: AgentSession; output: ChatOutput }): () => void {
  const subscriptions = [
    session.on("text-delta", ({ delta }) => output.text(delta)),
    session.on("step-end", ({ row }) => {
      for (const line of toolLines(row)) output.note(line);
    }),
    session.on("rollover", (rollover) => output.divider(rolloverText(rollover))),
    session.on("compaction", (compaction) => output.divider(compactionText(compaction))),
    session.on("budget-warning", (warning) => output.divider(warningText(warning))),
    session.on("retry", (retry) => output.note(retryText(retry))),
  ];
  return () => {
    for (const unsubscribe of subscriptions) unsubscribe();
  };
}

/**
 * @example rolloverText({ windowId: "w:57", reason: "on-send", contextTokens: 11_360, maxTokens: 16_000, ... })
 * // "new context window w:57 · rolled over at 71% of 16,000 tokens (on-send)"
 */
export function rolloverText(
  rollover: Pick<RolloverInfo, "windowId" | "reason" | "contextTokens" | "maxTokens" | "flushOpportunity">,
): string {
  const share =
    rollover.maxTokens > 0
      ? ` at ${Math.round((rollover.contextTokens / rollover.maxTokens) * 100)}% of ${rollover.maxTokens.toLocaleString("en-US")} tokens`
      : "";
  const notes = rollover.flushOpportunity ? "" : ", no chance to save notes";
  return `new context window ${rollover.windowId} · rolled over${share} (${rollover.reason}${notes})`;
}

/** @example warningText({ contextTokens: 9_900, maxTokens: 16_000, ... }) // "budget warning at 62%: the agent is asked to save its notes" */
export function warningText(warning: Pick<WarningInfo, "contextTokens" | "maxTokens">): string {
  const share = warning.maxTokens > 0 ? ` at ${Math.round((warning.contextTokens / warning.maxTokens) * 100)}%` : "";
  return `budget warning${share}: the agent is asked to save its notes`;
}

/** @example compactionText({ windowId: "w:30", previousWindowId: "w:0" }) // "new context window w:30 · compacted (summary of w:0)" */
export function compactionText(compaction: CompactionInfo): string {
  return `new context window ${compaction.windowId} · compacted (summary of ${compaction.previousWindowId})`;
}

/**
 * @example retryText({ error: new Error("The call to anthropic:claude-sonnet-4-5 failed: Overloaded (overloaded_error)"), retry: 1, discardedText: "Partial" })
 * // "↻ the provider failed mid-answer (Overloaded (overloaded_error)); asking again (retry 1), the partial answer above is not kept"
 */
export function retryText({
  error,
  retry,
  discardedText,
}: {
  error: Error;
  retry: number;
  discardedText: string;
}): string {
  const reason = oneLine(error.message.replace(/^The call to \S+ failed: /, ""), MAX_RETRY_REASON_CHARS);
  const discarded = discardedText.length > 0 ? ", the partial answer above is not kept" : "";
  return `↻ the provider failed mid-answer (${reason}); asking again (retry ${retry})${discarded}`;
}

/** One `· name argument…` line per tool call of a stored step, marked when the call failed. */
export function toolLines(row: Pick<StoredRow, "parts">): string[] {
  const lines: string[] = [];
  for (const part of row.parts) {
    const name = toolNameOf(part);
    if (name === undefined) continue;
    const record = part as Record<string, unknown>;
    const argument = argumentText(record["input"]);
    const failed =
      record["state"] === "output-error"
        ? `  (failed: ${oneLine(String(record["errorText"] ?? ""), MAX_TOOL_ARGUMENT_CHARS)})`
        : "";
    lines.push(`· ${name}${argument === "" ? "" : ` ${argument}`}${failed}`);
  }
  return lines;
}

/** The scalar values of a tool input, in order: `{ path: "src/x.ts" }` → `src/x.ts`. */
function argumentText(input: unknown): string {
  if (input === undefined || input === null) return "";
  if (typeof input !== "object") return oneLine(String(input), MAX_TOOL_ARGUMENT_CHARS);
  const values = Object.values(input as Record<string, unknown>)
    .filter((value) => typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    .map((value) => (typeof value === "string" && /\s/.test(value) ? JSON.stringify(value) : String(value)));
  return oneLine(values.join(" "), MAX_TOOL_ARGUMENT_CHARS);
}

function oneLine(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars)}…` : flat;
}
