/**
 * Renders a row's parts to plain text: what `session_history` pages and what search indexes.
 * Text parts as they are; tool parts as `name(input) → output`; reasoning dropped; media as
 * `[image]` / `[file]`; earlier `session_history` results as `[history result omitted]`. Search
 * indexes the same text without the agent's own `session_history` calls (`renderSearchText` in
 * search-text.ts): a lookup is bookkeeping, not history, and must never be a hit for the next lookup.
 * Terminal escapes (ANSI colours in a command's output) are left out of text and tool values: the
 * stored row keeps them, what people read and search finds does not.
 */
import stripAnsi from "strip-ansi";
import { splitsSurrogatePair } from "./code-units.js";

/** Name of the recovery tool; its own earlier results are never rendered back. */
export const SESSION_HISTORY_TOOL_NAME = "session_history";
export const HISTORY_RESULT_OMITTED = "[history result omitted]";
export const TRUNCATION_MARKER = "…[truncated]";

/**
 * Whether a tool name is the recovery tool: ctxwin's own `session_history`, or the name an MCP
 * client gives it (Claude Code: `mcp__<server>__session_history`; Codex's `namespace` joined the
 * same way by the importer).
 *
 * @example isHistoryToolName("mcp__ctxwin__session_history") // true
 */
export function isHistoryToolName(name: string): boolean {
  return (
    name === SESSION_HISTORY_TOOL_NAME || (name.startsWith("mcp__") && name.endsWith(`__${SESSION_HISTORY_TOOL_NAME}`))
  );
}

export interface RenderOptions {
  /** Longest rendering of one tool input or output before it is cut with a marker. */
  maxValueChars?: number;
  /** Longest text part before it is cut with a marker (default: text parts are never cut). */
  maxTextChars?: number;
  /** What ends a cut value; default `TRUNCATION_MARKER`. */
  truncationMarker?: string;
  /** Leave out calls of the history tool entirely (the text search indexes). */
  omitHistoryCalls?: boolean;
}

interface PartLike {
  type: string;
  [key: string]: unknown;
}

/**
 * @example
 * renderRowText({ parts: [{ type: "text", text: "hello" }] }) // "hello"
 */
export function renderRowText(row: { parts: readonly PartLike[] }, options: RenderOptions = {}): string {
  const lines: string[] = [];
  for (const part of row.parts) {
    const line = renderPart(part, options);
    if (line !== undefined) lines.push(line);
  }
  return lines.join("\n");
}

/** Stands in for each character of a history lookup in `searchableText`: it matches no query. */
const MASK = "\u0000";

/**
 * A row's rendering and, of the same length, the text search matches are looked for in: the
 * rendering with the history tool's calls blanked out. A snippet found in `searchable` lies at the
 * same offset in `text`, so `read_item` offsets stay right.
 *
 * @example renderRowForSearch(row).searchable.length === renderRowText(row).length // true
 */
export function renderRowForSearch(row: { parts: readonly PartLike[] }): { text: string; searchable: string } {
  const lines: string[] = [];
  const searchable: string[] = [];
  for (const part of row.parts) {
    const line = renderPart(part);
    if (line === undefined) continue;
    lines.push(line);
    const toolName = toolNameOf(part);
    searchable.push(toolName !== undefined && isHistoryToolName(toolName) ? MASK.repeat(line.length) : line);
  }
  return { text: lines.join("\n"), searchable: searchable.join("\n") };
}

/** The text of one part, or `undefined` for parts that render to nothing. */
export function renderPart(
  part: PartLike,
  {
    maxValueChars = Number.POSITIVE_INFINITY,
    maxTextChars = Number.POSITIVE_INFINITY,
    truncationMarker = TRUNCATION_MARKER,
    omitHistoryCalls = false,
  }: RenderOptions = {},
): string | undefined {
  const type = part.type;
  const cut = (text: string, maxChars: number) => truncate(text, maxChars, truncationMarker);
  if (type === "text") return typeof part["text"] === "string" ? cut(plainText(part["text"]), maxTextChars) : undefined;
  if (type === "reasoning" || type === "step-start" || type.startsWith("data-")) return undefined;
  if (type === "file") {
    const mediaType = typeof part["mediaType"] === "string" ? part["mediaType"] : "";
    return mediaType.startsWith("image/") ? "[image]" : "[file]";
  }
  if (type === "source-url") return `[source: ${String(part["url"] ?? "")}]`;
  if (type === "source-document") return `[source: ${String(part["title"] ?? "")}]`;
  const toolName = toolNameOf(part);
  if (toolName === undefined) return undefined;
  const history = isHistoryToolName(toolName);
  if (history && omitHistoryCalls) return undefined;
  const input = cut(plainText(stringifyValue(part["input"])), maxValueChars);
  if (history) return `${toolName}(${input}) → ${HISTORY_RESULT_OMITTED}`;
  return `${toolName}(${input}) → ${cut(plainText(toolOutcome(part)), maxValueChars)}`;
}

/**
 * Text without terminal escape sequences (`\u001b[2mCompacted\u001b[22m` → `Compacted`).
 *
 * @example plainText("\u001b[1mbold\u001b[22m") // "bold"
 */
export function plainText(text: string): string {
  return text.includes("\u001b") || text.includes("\u009b") ? stripAnsi(text) : text;
}

/** The tool name of a static (`tool-<name>`) or dynamic tool part, else `undefined`. */
export function toolNameOf(part: PartLike): string | undefined {
  if (part.type === "dynamic-tool") return typeof part["toolName"] === "string" ? part["toolName"] : "tool";
  if (part.type.startsWith("tool-")) return part.type.slice("tool-".length);
  return undefined;
}

function toolOutcome(part: PartLike): string {
  switch (part["state"]) {
    case "output-available":
      return stringifyValue(part["output"]);
    case "output-error":
      return `error: ${String(part["errorText"] ?? "")}`;
    case "output-denied":
      return "denied";
    default:
      return "(no result)";
  }
}

/** What a value renders as when neither JSON nor `String` can write it. */
export const UNWRITABLE_VALUE = "[value JSON cannot write]";

/**
 * Deepest nesting of arrays and objects a tool value may have to be rendered. Deeper values render
 * as `UNWRITABLE_VALUE` on every Node version: how deep `JSON.stringify` goes before it runs out of
 * stack differs between them (Node 26 goes much further than 20), so the limit is checked here.
 */
export const MAX_VALUE_DEPTH = 1_000;

/**
 * A tool input or output as text: a string as it is, anything else as JSON (as a provider
 * receives it). Never throws: a value nested deeper than `MAX_VALUE_DEPTH` is `UNWRITABLE_VALUE`;
 * one JSON cannot write (a cycle, a BigInt) falls back to `String(value)`, and to
 * `UNWRITABLE_VALUE` when that throws too.
 *
 * @example stringifyValue({ path: "a.ts" }) // '{"path":"a.ts"}'
 */
export function stringifyValue(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  if (nestedDeeperThan(value, MAX_VALUE_DEPTH)) return UNWRITABLE_VALUE;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return UNWRITABLE_VALUE;
    }
  }
}

/**
 * Whether arrays and objects nest more than `limit` levels deep, walked without recursion (the
 * walk itself must not run out of stack). An object met again is not walked again (a cycle ends).
 */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== "object") return false;
  const seen = new Set<object>();
  const pending: Array<{ node: object; depth: number }> = [{ node: value, depth: 1 }];
  while (pending.length > 0) {
    const { node, depth } = pending.pop()!;
    if (depth > limit) return true;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") pending.push({ node: child, depth: depth + 1 });
    }
  }
  return false;
}

/**
 * Cuts text to at most `maxChars` UTF-16 units plus a marker, never splitting a surrogate pair.
 *
 * @example truncate("abcdef", 3) // "abc…[truncated]"
 */
export function truncate(text: string, maxChars: number, marker = TRUNCATION_MARKER): string {
  if (text.length <= maxChars) return text;
  return `${sliceSafe(text, 0, maxChars)}${marker}`;
}

/**
 * `text.slice(start, end)` moved inward so that neither edge splits a UTF-16 surrogate pair.
 * Unlike `String.prototype.slice`, negative positions are clamped to 0 (they do not count from
 * the end).
 *
 * @example sliceSafe("a😀b", 0, 2) // "a"
 */
export function sliceSafe(text: string, start: number, end: number): string {
  let from = Math.max(0, start);
  let to = Math.min(text.length, end);
  if (splitsSurrogatePair(text, from)) from += 1;
  if (splitsSurrogatePair(text, to)) to -= 1;
  return to > from ? text.slice(from, to) : "";
}
