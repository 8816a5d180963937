/**
 * Row builders shared by the transcript importers (Claude Code, Codex): the session header row,
 * tool parts, compaction boundaries, and the bounds that keep one imported row reasonable.
 */
import type { RowPart } from "../core/row.js";
import { sliceSafe } from "../core/row-text.js";
import { MAX_SEARCH_VALUE_CHARS } from "../core/search-text.js";
import { COMPACTION_SUMMARY_HEADING } from "../core/rollover/notice-rows.js";
import type { SourceRow } from "./source-format.js";

/**
 * Texts, reasoning, tool inputs and outputs longer than this are cut (the row says how long the
 * whole value was). Equal to what search holds of each value (ADR 0048), so an imported value is
 * searchable whole.
 */
export const MAX_IMPORTED_TEXT_CHARS = MAX_SEARCH_VALUE_CHARS;

/** `meta.type` of the hidden first row of an imported session: where it came from. */
export const IMPORTED_SESSION_TYPE = "imported-session";

export interface ImportedSessionMeta {
  type: typeof IMPORTED_SESSION_TYPE;
  source: "claude-code" | "codex";
  sourceSessionId: string;
  title: string;
  /** The folder the agent ran in (its cwd). */
  project?: string;
  file: string;
}

/** Titles are the first user message's first line, at most this long. */
const MAX_TITLE_CHARS = 120;

export function titleOf(text: string): string {
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  return line.length > MAX_TITLE_CHARS ? `${line.slice(0, MAX_TITLE_CHARS - 1)}…` : line;
}

export function sessionHeaderRow({ id, createdAt, meta }: { id: string; createdAt: string | undefined; meta: ImportedSessionMeta }): SourceRow {
  return withTime({ id, role: "system", parts: [{ type: "text", text: `Imported ${meta.source} session: ${meta.title}` }], synthetic: true, uiVisible: false, meta: { ...meta } }, createdAt);
}

export function compactionRow({ id, createdAt, summary, source }: { id: string; createdAt: string | undefined; summary: string | undefined; source: string }): SourceRow {
  const text = summary === undefined || summary.trim() === "" ? `(${source} compacted the conversation here; the transcript holds no summary)` : summary;
  return withTime(
    {
      id,
      role: "user",
      parts: [{ type: "text", text: `${COMPACTION_SUMMARY_HEADING}\n${text}` }],
      synthetic: true,
      uiVisible: true,
      boundary: { kind: "compaction" },
      meta: { type: "compaction-summary", importedFrom: source },
    },
    createdAt,
  );
}

export function cutText(text: string): string {
  if (text.length <= MAX_IMPORTED_TEXT_CHARS) return text;
  return `${text.slice(0, MAX_IMPORTED_TEXT_CHARS)}\n[… cut on import: ${text.length} characters in all]`;
}

/**
 * A tool input bounded like text (ADR 0048): a string is cut as `cutText` cuts it; another value
 * whose JSON is longer than `MAX_IMPORTED_TEXT_CHARS` becomes `{ truncated_json: <the first
 * MAX_IMPORTED_TEXT_CHARS characters of its JSON>, total_chars: <the JSON's length> }`. A value
 * JSON cannot write is kept: the row is then reported as malformed with the store's reason.
 *
 * @example cutInput({ path: "a.ts" }) // { path: "a.ts" }
 */
export function cutInput(input: unknown): unknown {
  if (typeof input === "string") return cutText(input);
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch {
    return input;
  }
  if (json === undefined || json.length <= MAX_IMPORTED_TEXT_CHARS) return input;
  return { truncated_json: sliceSafe(json, 0, MAX_IMPORTED_TEXT_CHARS), total_chars: json.length };
}

export function toolPart({ toolName, toolCallId, input, output, isError }: { toolName: string; toolCallId: string; input: unknown; output?: string; isError?: boolean }): RowPart {
  if (output === undefined) return { type: "dynamic-tool", toolName, toolCallId, state: "input-available", input } as RowPart;
  if (isError === true) return { type: "dynamic-tool", toolName, toolCallId, state: "output-error", input, errorText: cutText(output) } as RowPart;
  return { type: "dynamic-tool", toolName, toolCallId, state: "output-available", input, output: cutText(output) } as RowPart;
}

export function imagePlaceholder(mediaType: string | undefined, size: number | undefined): RowPart {
  const bytes = size === undefined ? "" : `, ${Math.round((size * 3) / 4 / 1024)} KiB`;
  return { type: "text", text: `[image${mediaType === undefined ? "" : ` ${mediaType}`}${bytes} — not imported]` };
}

/** An ISO time the row schema accepts, or undefined (the store then stamps the import time). */
export function isoTime(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function withTime(row: SourceRow, createdAt: string | undefined): SourceRow {
  return createdAt === undefined ? row : { ...row, createdAt };
}
