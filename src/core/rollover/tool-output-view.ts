/**
 * A single tool result too large for any window is stored intact and replaced, in the request
 * only, by a truncated view that says how to read the rest with `session_history` (docs/design.md §6).
 * Stored rows are never rewritten: this returns new row objects for the request.
 */
import { SESSION_HISTORY_TOOL_NAME, sliceSafe, toolNameOf } from "../row-text.js";

interface ViewablePart {
  type: string;
  [key: string]: unknown;
}

export interface ViewableRow {
  seq: number;
  parts: readonly ViewablePart[];
}

export interface ToolOutputViewOptions<T extends ViewableRow> {
  rows: readonly T[];
  /** A tool output above this many tokens is replaced by a view. */
  maxOutputTokens: number;
  /** Characters of the output kept at the head of the view. */
  headChars: number;
  countTokens: (text: string) => number;
}

export interface ToolOutputViews<T> {
  /** The rows for the request: untouched rows are the same objects, viewed rows are copies. */
  rows: T[];
  /** View text per tool call id, for the conversion of the viewed parts to model messages. */
  views: Map<string, string>;
}

/**
 * @example
 * const { rows, views } = viewOversizedToolOutputs({ rows: window.rows, maxOutputTokens: 4_000, headChars: 2_000, countTokens })
 */
export function viewOversizedToolOutputs<T extends ViewableRow>({
  rows,
  maxOutputTokens,
  headChars,
  countTokens,
}: ToolOutputViewOptions<T>): ToolOutputViews<T> {
  const views = new Map<string, string>();
  const viewed = rows.map((row) => {
    let changed = false;
    const parts = row.parts.map((part) => {
      const text = oversizedOutputText(part, maxOutputTokens, countTokens);
      if (text === undefined) return part;
      const toolCallId = String(part["toolCallId"]);
      const view = toolOutputViewText({ output: text, itemId: String(row.seq), headChars, tokens: countTokens(text) });
      views.set(toolCallId, view);
      changed = true;
      return { ...part, output: view };
    });
    return changed ? { ...row, parts } : row;
  });
  return { rows: viewed, views };
}

/**
 * The text that stands in for an oversized tool output.
 *
 * @example
 * toolOutputViewText({ output: hugeText, itemId: "42", headChars: 2_000, tokens: 1_300_000 })
 */
export function toolOutputViewText({
  output,
  itemId,
  headChars,
  tokens,
}: {
  output: string;
  itemId: string;
  headChars: number;
  tokens: number;
}): string {
  const head = sliceSafe(output, 0, headChars);
  const call = JSON.stringify({ action: "read_item", item_id: itemId, offset_chars: 0 });
  return (
    `${head}\n[ctxwin: this tool result is too large for a context window (${output.length.toLocaleString("en-US")} characters, about ` +
    `${tokens.toLocaleString("en-US")} tokens); only the first ${head.length.toLocaleString("en-US")} characters are shown here. ` +
    `It is stored intact as item ${itemId}: read it with ${SESSION_HISTORY_TOOL_NAME} ${call} and page on with offset_chars.]`
  );
}

/** The output text of a finished tool part when it is above the limit, else `undefined`. */
function oversizedOutputText(
  part: ViewablePart,
  maxOutputTokens: number,
  countTokens: (text: string) => number,
): string | undefined {
  if (toolNameOf(part) === undefined || part["state"] !== "output-available" || typeof part["toolCallId"] !== "string")
    return undefined;
  const output = part["output"];
  const text = typeof output === "string" ? output : safeStringify(output);
  // No tokenizer spends more than three tokens on one UTF-16 unit, so short outputs skip the count.
  if (text.length * 3 <= maxOutputTokens) return undefined;
  return countTokens(text) > maxOutputTokens ? text : undefined;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}
