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
  /** The git branch the session started on, as the transcript records it. */
  gitBranch?: string;
  /** The model of the session's first turn (Claude Code: the first reply's; Codex: `turn_context`). */
  model?: string;
  /** The version of the CLI that wrote the transcript. */
  cliVersion?: string;
  /** A sub-agent's session: the source session id of the session that started it (ADR 0067). */
  parentSourceSessionId?: string;
  /** A sub-agent's session: the id its parent's transcript gives it (Claude Code `agentId`, Codex thread id). */
  agentId?: string;
  file: string;
}

/** A session's header while its transcript is read: the facts found so far, and where it stands. */
export interface HeaderState extends Omit<ImportedSessionMeta, "type" | "source" | "title"> {
  title?: string;
  createdAt?: string;
  line: number;
  /** An assistant line has been read: the facts the header keeps are known by now. */
  replied: boolean;
  /** The header row is queued (it goes first): rows may leave. */
  written: boolean;
}

/** The facts of a session header that are known, as header meta fields. */
export function definedFacts(
  facts: Pick<
    ImportedSessionMeta,
    "project" | "gitBranch" | "model" | "cliVersion" | "parentSourceSessionId" | "agentId"
  >,
): Partial<ImportedSessionMeta> {
  const keys = ["project", "gitBranch", "model", "cliVersion", "parentSourceSessionId", "agentId"] as const;
  return Object.fromEntries(keys.filter((key) => facts[key] !== undefined).map((key) => [key, facts[key]]));
}

/** `meta.type` of a source line the importer does not know, kept whole as a raw row (ADR 0066). */
export const IMPORTED_RAW_LINE_TYPE = "imported-raw-line";

/** Titles are the first user message's first line, at most this long. */
const MAX_TITLE_CHARS = 120;

export function titleOf(text: string): string {
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  return line.length > MAX_TITLE_CHARS ? `${line.slice(0, MAX_TITLE_CHARS - 1)}…` : line;
}

/**
 * The hidden first row of an imported session, from the header facts its transcript gave.
 *
 * @example const row = sessionHeaderRow({ sessionId: "codex:abc", source: "codex", header });
 */
export function sessionHeaderRow({
  sessionId,
  source,
  header,
}: {
  sessionId: string;
  source: ImportedSessionMeta["source"];
  header: HeaderState;
}): SourceRow {
  const title = header.title ?? "";
  const meta: ImportedSessionMeta = {
    type: IMPORTED_SESSION_TYPE,
    source,
    sourceSessionId: header.sourceSessionId,
    title,
    ...definedFacts(header),
    file: header.file,
  };
  return withTime(
    {
      id: `${sessionId}#session`,
      role: "system",
      parts: [{ type: "text", text: `Imported ${source} session: ${title}` }],
      synthetic: true,
      uiVisible: false,
      meta: { ...meta },
    },
    header.createdAt,
  );
}

/**
 * A line the importer does not know, kept as it was written (ADR 0066): a visible synthetic system
 * row whose `meta.type` no build sends to a model, so it is searchable and exported but never part
 * of a request. `lineType` names what the line was (`attachment:hook_output`, `response_item:web_search_call`).
 *
 * @example rawLineRow({ id: "u-7", createdAt, source: "claude-code", lineType: "progress", value })
 */
export function rawLineRow(line: KeptLine): SourceRow {
  return keptLineRow(line, { kept: "kept as written", type: IMPORTED_RAW_LINE_TYPE, uiVisible: true });
}

/** A source line kept whole, and where it came from. */
interface KeptLine {
  id: string;
  createdAt: string | undefined;
  source: "claude-code" | "codex";
  lineType: string;
  value: unknown;
}

/** The synthetic system row that keeps `value` as JSON text under a line saying what it was. */
function keptLineRow(
  { id, createdAt, source, lineType, value }: KeptLine,
  { kept, type, uiVisible }: { kept: string; type: string; uiVisible: boolean },
): SourceRow {
  const text = `[${source} line of type '${lineType}', ${kept}]\n${cutText(JSON.stringify(value))}`;
  const meta = { type, source, lineType };
  return withTime({ id, role: "system", parts: [{ type: "text", text }], synthetic: true, uiVisible, meta }, createdAt);
}

/**
 * `meta.type` of a source line kept as hidden metadata: stored and exported, never shown, searched
 * or sent (ADR 0079).
 */
export const IMPORTED_METADATA_TYPE = "imported-metadata";

/**
 * A line that is a fact about the session rather than conversation (hook output, a turn's
 * duration), kept as written: a hidden synthetic system row, so no list, search or read of
 * history shows it and no request carries it (its `meta.type` is not one a build sends).
 *
 * @example metadataRow({ id: "u-9", createdAt, source: "claude-code", lineType: "attachment:hook_success", value })
 */
export function metadataRow(line: KeptLine): SourceRow {
  return keptLineRow(line, { kept: "kept as hidden metadata", type: IMPORTED_METADATA_TYPE, uiVisible: false });
}

export function compactionRow({
  id,
  createdAt,
  summary,
  source,
}: {
  id: string;
  createdAt: string | undefined;
  summary: string | undefined;
  source: string;
}): SourceRow {
  const text =
    summary === undefined || summary.trim() === ""
      ? `(${source} compacted the conversation here; the transcript holds no summary)`
      : summary;
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

export function toolPart({
  toolName,
  toolCallId,
  input,
  output,
  isError,
}: {
  toolName: string;
  toolCallId: string;
  input: unknown;
  output?: string;
  isError?: boolean;
}): RowPart {
  if (output === undefined)
    return { type: "dynamic-tool", toolName, toolCallId, state: "input-available", input } as RowPart;
  if (isError === true)
    return {
      type: "dynamic-tool",
      toolName,
      toolCallId,
      state: "output-error",
      input,
      errorText: cutText(output),
    } as RowPart;
  return {
    type: "dynamic-tool",
    toolName,
    toolCallId,
    state: "output-available",
    input,
    output: cutText(output),
  } as RowPart;
}

/**
 * An image or document of the transcript as a `file` part (shown as `[image]` / `[file]`): the data
 * URL the transcript holds when it is at most `MAX_IMPORTED_TEXT_CHARS` long, or the URL the
 * transcript names; otherwise (bytes too large, or none) a text placeholder saying what was there.
 *
 * @example mediaPart({ mediaType: "image/png", data: "iVBORw0…" }) // { type: "file", mediaType: "image/png", url: "data:image/png;base64,iVBORw0…" }
 */
export function mediaPart({
  mediaType,
  data,
  url,
  filename,
}: {
  mediaType: string | undefined;
  data?: string | undefined;
  url?: string | undefined;
  filename?: string | undefined;
}): RowPart {
  const name = filename === undefined ? {} : { filename };
  if (data !== undefined && mediaType !== undefined) {
    const dataUrl = `data:${mediaType};base64,${data}`;
    if (dataUrl.length <= MAX_IMPORTED_TEXT_CHARS) return { type: "file", mediaType, url: dataUrl, ...name } as RowPart;
    return imagePlaceholder(mediaType, data.length);
  }
  if (url !== undefined && url.length <= MAX_IMPORTED_TEXT_CHARS) {
    const type = mediaType ?? /^data:([^;,]+)/.exec(url)?.[1] ?? "application/octet-stream";
    return { type: "file", mediaType: type, url, ...name } as RowPart;
  }
  return imagePlaceholder(mediaType, data?.length ?? url?.length);
}

/** What stands for an image or document whose bytes are not kept: `[image image/png, 3 KiB — not imported]`. */
export function imagePlaceholder(mediaType: string | undefined, size: number | undefined): RowPart {
  const bytes = size === undefined ? "" : `, ${Math.round((size * 3) / 4 / 1024)} KiB`;
  const kind = mediaType === undefined || mediaType.startsWith("image/") ? "image" : "file";
  return { type: "text", text: `[${kind}${mediaType === undefined ? "" : ` ${mediaType}`}${bytes} — not imported]` };
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
