/**
 * RowView: one stored row as the web UI shows it (docs/web-api.md). Text is rendered by the core
 * renderer, stripped of terminal escape codes (an imported CLI session's `␛[2m…␛[22m`) and capped;
 * the UI renders every string as text, never as HTML.
 */
import stripAnsi from "strip-ansi";
import { classifyBoundary, rolloverMetaOf } from "../core/boundary.js";
import { renderRowText, toolNameOf, truncate } from "../core/row-text.js";
import { readCarry } from "../core/rollover/turn-carry.js";
import { toolCallOutcome } from "../core/rollover/turn-ledger.js";
import { hasUnknownType, internalTypeOf, isHidden } from "../core/visibility.js";
import type { StoredRow } from "../store/port.js";
import { NO_CHILD_LINKS, type ChildLinks } from "./child-links.js";
import type { NumberedWindow } from "./session-windows.js";
import type { BoundaryView, CarryView, PartView, RejectedView, RowKind, RowView } from "./view-types.js";

/** Caps of the strings of a RowView (UTF-16 units). */
export const ROW_TEXT_MAX_CHARS = 64 * 1024;
export const TOOL_INPUT_MAX_CHARS = 16 * 1024;
export const TOOL_OUTPUT_MAX_CHARS = 64 * 1024;

/**
 * `links` names the child session a call started (a `task` call of a sub-agent, ADR 0060).
 *
 * @example rowView({ row, window }) // { seq: 12, kind: "tool", text: "read_file({…}) → …", … }
 */
export function rowView({
  row,
  window,
  links = NO_CHILD_LINKS,
}: {
  row: StoredRow;
  window: NumberedWindow | undefined;
  links?: ChildLinks;
}): RowView {
  const text = displayText(renderRowText(row));
  const boundary = boundaryView(row);
  const carry = carryView(row);
  const kind = kindOf(row);
  const rejected = kind === "rejected-input" ? rejectedView(row) : undefined;
  return {
    seq: row.seq,
    itemId: String(row.seq),
    windowId: window?.windowId ?? "w:0",
    windowNumber: window?.number ?? 1,
    role: row.role,
    createdAt: row.createdAt,
    kind,
    hidden: isHidden(row),
    text: truncate(text, ROW_TEXT_MAX_CHARS),
    truncated: text.length > ROW_TEXT_MAX_CHARS,
    parts: row.parts.flatMap((part) => partView(part as { type: string; [key: string]: unknown }, row, links)),
    ...(boundary === undefined ? {} : { boundary }),
    ...(carry === undefined ? {} : { carry }),
    ...(rejected === undefined ? {} : { rejected }),
  };
}

/**
 * Whether a row is left out of the transcript while "Show internal rows" is off: hidden synthetic
 * rows, and every row shown as an internal one (a `meta.type` of ctxwin's bookkeeping that has no
 * view of its own, an imported line kept as written, a type from a newer build).
 *
 * @example isInternalRow(leadInRow) // true
 */
export function isInternalRow(row: StoredRow): boolean {
  return isHidden(row) || kindOf(row) === "internal";
}

/** Text as a person reads it: without terminal escape codes (colours, dim, cursor moves). */
export function displayText(text: string): string {
  return text.includes("\u001b") || text.includes("\u009b") ? stripAnsi(text) : text;
}

function kindOf(row: StoredRow): RowKind {
  if (classifyBoundary(row) !== undefined) return "boundary";
  const type = internalTypeOf(row);
  if (type === "budget-warning") return "warning";
  if (type === "notes-flush") return "notes-flush";
  if (type === "rejected-input") return "rejected-input";
  if (type !== undefined || hasUnknownType(row) || isHidden(row)) return "internal";
  return row.parts.some((part) => toolNameOf(part as { type: string }) !== undefined) ? "tool" : "message";
}

function boundaryView(row: StoredRow): BoundaryView | undefined {
  const kind = classifyBoundary(row);
  if (kind === undefined) return undefined;
  const rollover = rolloverMetaOf(row);
  if (rollover === undefined) return { kind };
  return {
    kind,
    reason: rollover.reason,
    contextTokens: rollover.contextTokens,
    maxTokens: rollover.maxTokens,
    ...(rollover.maxTokens > 0 ? { percent: Math.round((rollover.contextTokens / rollover.maxTokens) * 100) } : {}),
  };
}

function carryView(row: StoredRow): CarryView | undefined {
  if (internalTypeOf(row) !== "continue") return undefined;
  const carry = readCarry(row.meta?.["carry"]);
  if (carry === undefined) return undefined;
  const calls = carry.ledger.map(({ itemId, toolName, input, outcome, detail }) => ({
    itemId,
    toolName,
    input: truncate(input, TOOL_INPUT_MAX_CHARS),
    outcome,
    ...(detail === undefined ? {} : { detail: truncate(detail, TOOL_INPUT_MAX_CHARS) }),
  }));
  const input =
    carry.input === undefined
      ? undefined
      : { itemId: carry.input.itemId, windowId: carry.input.windowId, truncated: carry.input.truncated };
  return { calls, omittedCalls: carry.omittedCalls, ...(input === undefined ? {} : { input }) };
}

const countOf = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;

function rejectedView(row: StoredRow): RejectedView {
  const meta: Record<string, unknown> = row.meta ?? {};
  const reason =
    typeof meta["reason"] === "string" ? truncate(displayText(meta["reason"]), TOOL_INPUT_MAX_CHARS) : undefined;
  const estimatedTokens = countOf(meta["estimatedTokens"]);
  const hardCeiling = countOf(meta["hardCeiling"]);
  const stored = meta["cut"] as Record<string, unknown> | undefined;
  const totalChars = countOf(stored?.["totalChars"]);
  const keptChars = countOf(stored?.["keptChars"]);
  const cut =
    totalChars === undefined || keptChars === undefined
      ? undefined
      : { totalChars, keptChars, droppedFiles: countOf(stored?.["droppedFiles"]) ?? 0 };
  return {
    ...(reason === undefined ? {} : { reason }),
    ...(estimatedTokens === undefined ? {} : { estimatedTokens }),
    ...(hardCeiling === undefined ? {} : { hardCeiling }),
    ...(cut === undefined ? {} : { cut }),
  };
}

function partView(part: { type: string; [key: string]: unknown }, row: StoredRow, links: ChildLinks): PartView[] {
  if (part.type === "text")
    return [{ type: "text", text: truncate(displayText(String(part["text"] ?? "")), ROW_TEXT_MAX_CHARS) }];
  if (part.type === "step-start") return [];
  if (part.type === "file") {
    const filename = typeof part["filename"] === "string" ? part["filename"] : undefined;
    return [
      { type: "file", mediaType: String(part["mediaType"] ?? ""), ...(filename === undefined ? {} : { filename }) },
    ];
  }
  const toolName = toolNameOf(part);
  if (toolName !== undefined) {
    const state = typeof part["state"] === "string" ? part["state"] : "unknown";
    const outcome = toolCallOutcome({ part, row })?.outcome ?? "not-run";
    // A call refused before it ran keeps its arguments as `rawInput`.
    const input = jsonText(part["input"] !== undefined ? part["input"] : part["rawInput"]);
    const childSessionId = links.childOf(row, part);
    return [
      {
        type: "tool",
        toolName,
        state,
        outcome,
        input: truncate(displayText(input), TOOL_INPUT_MAX_CHARS),
        output: truncate(displayText(toolOutput(part, state)), TOOL_OUTPUT_MAX_CHARS),
        ...(childSessionId === undefined ? {} : { childSessionId }),
      },
    ];
  }
  return [{ type: "other", label: part.type }];
}

function toolOutput(part: { [key: string]: unknown }, state: string): string {
  if (state === "output-available")
    return typeof part["output"] === "string" ? part["output"] : jsonText(part["output"]);
  if (state === "output-error") return `error: ${String(part["errorText"] ?? "")}`;
  if (state === "output-denied") return "denied";
  return "";
}

function jsonText(value: unknown): string {
  if (value === undefined) return "";
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}
