/**
 * The ledger of a turn stopped by a rollover (docs/adr/0023, 0050): each tool call of the turn
 * with its real arguments (cut to a bound) and what truly became of it, read from stored rows:
 * - `finished`: the tool ran and its result is stored in the step's item;
 * - `failed`: the tool ran and threw; its error text (cut) is kept;
 * - `not-run`: it never executed (an unavailable tool, input its schema refused, a denied
 *   approval, a call without a result); the agent must call it again if it still needs it.
 * `session_history` lookups are counted by action, never quoted: their query text would make the
 * ledger a search hit for the agent's own lookups.
 */
import { SESSION_HISTORY_TOOL_NAME, toolNameOf } from "../row-text.js";
import { internalTypeOf, isProviderEligible } from "../visibility.js";
import { itemIdFor } from "../windows.js";
import { readStepMetadata } from "./step-usage.js";

/** Longest rendering of one call's arguments in the ledger. */
export const LEDGER_ARGUMENT_CHARS = 200;
/** Longest error text or reason of a failed or not-run call in the ledger. */
export const LEDGER_DETAIL_CHARS = 200;

export type CallOutcome = "finished" | "failed" | "not-run";

export interface LedgerEntry {
  /** Item id of the assistant step that made the call (its result or error is stored there). */
  itemId: string;
  toolName: string;
  /**
   * The arguments as JSON, cut to `LEDGER_ARGUMENT_CHARS`. For `session_history` only the action
   * (`{"action":"search"}`): a lookup's query is never carried.
   */
  input: string;
  outcome: CallOutcome;
  /** `failed`: the error the tool threw; `not-run`: why it never ran. Cut to `LEDGER_DETAIL_CHARS`. */
  detail?: string;
}

interface LedgerPart {
  type: string;
  [key: string]: unknown;
}

export interface LedgerRow {
  seq: number;
  role: string;
  parts: readonly LedgerPart[];
  synthetic?: boolean | undefined;
  uiVisible?: boolean | undefined;
  boundary?: unknown;
  meta?: { type?: unknown; [key: string]: unknown } | undefined;
  metadata?: unknown;
}

/**
 * The outcome of one tool part of a stored assistant row, with its error text or reason.
 * `undefined` for a part that is not a tool call.
 *
 * @example toolCallOutcome({ part, row }) // { outcome: "failed", detail: "ENOENT: no such file" }
 */
export function toolCallOutcome({
  part,
  row,
}: {
  part: LedgerPart;
  row: { metadata?: unknown };
}): { outcome: CallOutcome; detail?: string } | undefined {
  if (toolNameOf(part) === undefined) return undefined;
  const state = part["state"];
  const errorText = typeof part["errorText"] === "string" ? part["errorText"] : "";
  if (state === "output-available") return { outcome: "finished" };
  if (state === "output-error") {
    const refused = readStepMetadata(row)?.notRunToolCallIds;
    const notRun =
      refused !== undefined
        ? refused.includes(String(part["toolCallId"]))
        : part["input"] === undefined && "rawInput" in part;
    return { outcome: notRun ? "not-run" : "failed", detail: errorText };
  }
  if (state === "output-denied") return { outcome: "not-run", detail: deniedReason(part) };
  return { outcome: "not-run", detail: "it has no result" };
}

/**
 * Every tool call of `rows` (the turn's rows after its start), in order. A call the notes-flush
 * step held back because it runs only its own tools says so.
 *
 * @example ledgerEntriesOf(window.rows.slice(start + 1))
 */
export function ledgerEntriesOf(rows: readonly LedgerRow[]): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  let flushTools: readonly string[] | undefined;
  for (const row of rows) {
    if (internalTypeOf(row) === "notes-flush") flushTools = offeredTools(row.meta?.["activeTools"]);
    if (row.role !== "assistant" || !isProviderEligible(row)) continue;
    // The flush is one step: only the row right after its instruction was limited to its tools.
    const offered = flushTools;
    flushTools = undefined;
    for (const part of row.parts) {
      const toolName = toolNameOf(part);
      const outcome = toolCallOutcome({ part, row });
      if (toolName === undefined || outcome === undefined) continue;
      const input = toolName === SESSION_HISTORY_TOOL_NAME ? historyActionOf(part["input"]) : argumentsOf(part);
      // The flush step runs only its own tools: a call of any other one was held back, whether the
      // SDK refused it or ctxwin's flush wrapper answered it with an error (session/flush-tools.ts).
      const heldBack = outcome.outcome !== "finished" && offered !== undefined && !offered.includes(toolName);
      const entry: LedgerEntry = {
        itemId: itemIdFor(row.seq),
        toolName,
        input: cutChars(input, LEDGER_ARGUMENT_CHARS),
        outcome: heldBack ? "not-run" : outcome.outcome,
      };
      const detail = heldBack ? notOfferedInFlush(offered) : outcome.detail;
      if (outcome.outcome !== "finished" && detail !== undefined && detail !== "")
        entry.detail = cutChars(oneLine(detail), LEDGER_DETAIL_CHARS);
      entries.push(entry);
    }
  }
  return entries;
}

/**
 * The ledger as the model reads it: one line per call in order, then the `session_history`
 * lookups as one line of counts.
 *
 * @example renderLedger({ entries, omitted: 0 })
 */
export function renderLedger({
  entries,
  omitted,
  historyToolAvailable = true,
}: {
  entries: readonly LedgerEntry[];
  omitted: number;
  historyToolAvailable?: boolean;
}): string {
  const lines = [
    historyToolAvailable
      ? "Tool calls of that turn before the rollover, in order, and what became of each. " +
        "finished: its result is stored in the item named (not repeated here); " +
        "read it with session_history read_item and that item id instead of calling the tool again. " +
        "failed: it ran and ended with the error shown. not run: it never executed; " +
        "call it again if you still need it."
      : "Tool calls of that turn before the rollover, in order, and what became of each. " +
        "finished: its result is stored (not repeated here). failed: it ran and ended with the error shown. " +
        "not run: it never executed; call it again if you still need it.",
  ];
  if (omitted > 0) lines.push(`- (${omitted} earlier call${omitted === 1 ? "" : "s"} of the turn left out)`);
  const lookups = entries.filter((entry) => entry.toolName === SESSION_HISTORY_TOOL_NAME);
  for (const entry of entries) if (entry.toolName !== SESSION_HISTORY_TOOL_NAME) lines.push(ledgerLine(entry));
  if (lookups.length > 0) lines.push(lookupsLine(lookups));
  return lines.join("\n");
}

/**
 * A ledger entry as stored, or `undefined` when it is not one. Entries of older builds have no
 * `outcome` (a finished call, or `failed: true`).
 *
 * @example readLedgerEntry({ itemId: "4", toolName: "read", input: "{}", failed: true }) // { ..., outcome: "failed" }
 */
export function readLedgerEntry(value: unknown): LedgerEntry | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (
    typeof record["itemId"] !== "string" ||
    typeof record["toolName"] !== "string" ||
    typeof record["input"] !== "string"
  )
    return undefined;
  const stored = record["outcome"];
  const outcome: CallOutcome =
    stored === "finished" || stored === "failed" || stored === "not-run"
      ? stored
      : record["failed"] === true
        ? "failed"
        : "finished";
  const entry: LedgerEntry = {
    itemId: record["itemId"],
    toolName: record["toolName"],
    input: record["input"],
    outcome,
  };
  if (typeof record["detail"] === "string" && outcome !== "finished") entry.detail = record["detail"];
  return entry;
}

function ledgerLine(entry: LedgerEntry): string {
  const call = `${entry.toolName} ${entry.input}`;
  const detail = entry.detail === undefined ? "" : `: ${entry.detail}`;
  if (entry.outcome === "finished") return `- item ${entry.itemId}: ${call} → finished`;
  if (entry.outcome === "failed") return `- item ${entry.itemId}: ${call} → failed${detail}`;
  return `- ${call} → not run${detail}`;
}

/** `- session_history: 3 lookups (search ×2, read_item ×1; 1 not run), query text not repeated` */
function lookupsLine(lookups: readonly LedgerEntry[]): string {
  const actions = new Map<string, number>();
  for (const entry of lookups) {
    const action = historyActionName(entry.input);
    actions.set(action, (actions.get(action) ?? 0) + 1);
  }
  const counts = [...actions].map(([action, count]) => `${action} ×${count}`).join(", ");
  const notRun = lookups.filter((entry) => entry.outcome === "not-run").length;
  const failed = lookups.filter((entry) => entry.outcome === "failed").length;
  const outcomes = [failed > 0 ? `${failed} failed` : "", notRun > 0 ? `${notRun} not run` : ""]
    .filter((text) => text !== "")
    .join(", ");
  const noun = lookups.length === 1 ? "lookup" : "lookups";
  return (
    `- ${SESSION_HISTORY_TOOL_NAME}: ${lookups.length} ${noun} ` +
    `(${counts}${outcomes === "" ? "" : `; ${outcomes}`}); their queries and results are not repeated here`
  );
}

/** `{"action":"search"}`: the one field of a lookup that is carried. */
function historyActionOf(input: unknown): string {
  const action = typeof input === "object" && input !== null ? (input as Record<string, unknown>)["action"] : undefined;
  return JSON.stringify({ action: typeof action === "string" ? cutChars(action, 40) : "unknown" });
}

function historyActionName(input: string): string {
  try {
    const action = (JSON.parse(input) as { action?: unknown }).action;
    return typeof action === "string" ? action : "unknown";
  } catch {
    return "unknown";
  }
}

/** The call's arguments: its parsed input, or the raw input of a call the SDK refused to parse. */
function argumentsOf(part: LedgerPart): string {
  const value = part["input"] !== undefined ? part["input"] : part["rawInput"];
  if (value === undefined) return "{}";
  if (typeof value === "string") return oneLine(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function deniedReason(part: LedgerPart): string {
  const approval = part["approval"];
  const reason =
    typeof approval === "object" && approval !== null ? (approval as Record<string, unknown>)["reason"] : undefined;
  return typeof reason === "string" && reason !== "" ? `denied: ${reason}` : "denied";
}

function offeredTools(value: unknown): readonly string[] | undefined {
  return Array.isArray(value) && value.every((name) => typeof name === "string") ? (value as string[]) : undefined;
}

function notOfferedInFlush(tools: readonly string[]): string {
  return `held back in the notes-flush step (only ${tools.join(", ")} ran there)`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function cutChars(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
