/**
 * Source format `claude-code`: Claude Code's session files (`~/.claude/projects/<folder>/<id>.jsonl`),
 * one JSON object per line with `type` (`user`, `assistant`, `system`, `summary`, …), `uuid`,
 * `sessionId`, `timestamp`, `cwd`, `isSidechain` and an Anthropic-style `message`. A line's key is
 * its uuid. Each content block becomes a row part; a `tool_use` waits for its `tool_result` so the
 * call and its result are one row; a `compact_boundary` (with the summary row after it) becomes a
 * `compaction` boundary.
 */
import path from "node:path";
import type { RowPart } from "../core/row.js";
import { CallPairing } from "./call-pairing.js";
import { jsonLines } from "./jsonl-lines.js";
import type { BuiltRow, FileEntry, Json, LineNote, SessionRows, SourceFormat, SourceLine, SourceRow } from "./source-format.js";
import { compactionRow, cutText, imagePlaceholder, isoTime, sessionHeaderRow, titleOf, toolPart } from "./transcript-rows.js";

/** Line types that carry no transcript content: skipped without counting them as unknown. */
const BOOKKEEPING_TYPES = new Set(["summary", "file-history-snapshot", "queue-operation"]);
const CONTENT_TYPES = new Set(["user", "assistant", "system"]);

/**
 * @example for await (const entry of claudeCodeFormat.lines(file)) console.log(entry.kind);
 */
export const claudeCodeFormat: SourceFormat = {
  name: "claude-code",
  async sessionsOf(file) {
    for await (const entry of jsonLines(file)) {
      if (entry.ok && contentLine(entry.value) !== undefined) return [sessionIdOf(file, entry.value as Json)];
    }
    return [];
  },
  lines: claudeCodeLines,
  rows: claudeCodeRows,
};

async function* claudeCodeLines(file: string): AsyncGenerator<FileEntry> {
  let sessionId: string | undefined;
  for await (const entry of jsonLines(file)) {
    if (!entry.ok) {
      yield { kind: "malformed", file, line: entry.line, message: entry.message, ...(entry.complete ? {} : { partial: true }) };
      continue;
    }
    if (entry.invalidUtf8) yield { kind: "invalid-utf8", file, line: entry.line };
    const value = entry.value as Json;
    if (typeof value !== "object" || value === null || Array.isArray(value) || typeof value["type"] !== "string") {
      yield { kind: "malformed", file, line: entry.line, message: "expected a JSON object with a string 'type'" };
      continue;
    }
    const type = value["type"];
    if (BOOKKEEPING_TYPES.has(type)) continue;
    if (!CONTENT_TYPES.has(type)) {
      yield { kind: "unknown", file, line: entry.line };
      continue;
    }
    const uuid = contentLine(value);
    if (uuid === undefined) {
      yield { kind: "malformed", file, line: entry.line, message: `a '${type}' line needs a string 'uuid'` };
      continue;
    }
    sessionId ??= sessionIdOf(file, value);
    const time = Date.parse(String(value["timestamp"]));
    yield { kind: "line", sessionId, line: { key: uuid, time: Number.isNaN(time) ? undefined : time, value, file, line: entry.line } };
  }
}

/** The uuid of a line that holds transcript content, or undefined. */
function contentLine(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { type, uuid } = value as Json;
  return typeof type === "string" && CONTENT_TYPES.has(type) && typeof uuid === "string" && uuid !== "" ? uuid : undefined;
}

/** A file's session: its first content line's `sessionId`; sub-agent files (agent-*.jsonl) are their own. */
function sessionIdOf(file: string, first: Json): string {
  const base = path.basename(file, ".jsonl");
  const sourceSessionId = typeof first["sessionId"] === "string" && first["sessionId"] !== "" ? first["sessionId"] : base;
  return base.startsWith("agent-") ? `claude-code:${sourceSessionId}/${base}` : `claude-code:${sourceSessionId}`;
}

interface Header {
  title?: string;
  project?: string;
  sourceSessionId: string;
  createdAt?: string;
  file: string;
  line: number;
}

function claudeCodeRows({ sessionId, lines, settled }: { sessionId: string; lines: readonly SourceLine[]; settled: boolean }): SessionRows {
  const queue = new CallPairing();
  const rows: BuiltRow[] = [];
  const notes: LineNote[] = [];
  let header: Header | undefined;
  let pendingCompaction: { id: string; createdAt: string | undefined; file: string; line: number } | undefined;

  const flushCompaction = (summary: string | undefined, { untilSettled = false } = {}) => {
    if (pendingCompaction === undefined) return;
    const { file, line } = pendingCompaction;
    queue.push(compactionRow({ ...pendingCompaction, summary, source: "Claude Code" }), { file, line }, [], { untilSettled });
    pendingCompaction = undefined;
  };

  for (const { key: uuid, value, file, line } of lines) {
    const type = value["type"] as "user" | "assistant" | "system";
    const at = { file, line };
    if (header === undefined) {
      header = { sourceSessionId: typeof value["sessionId"] === "string" ? value["sessionId"] : path.basename(file, ".jsonl"), file, line };
      const createdAt = isoTime(value["timestamp"]);
      if (createdAt !== undefined) header.createdAt = createdAt;
      if (typeof value["cwd"] === "string") header.project = value["cwd"];
    }
    const createdAt = isoTime(value["timestamp"]);

    if (type === "system") {
      if (value["subtype"] === "compact_boundary") {
        flushCompaction(undefined);
        pendingCompaction = { id: uuid, createdAt, ...at };
      }
      // Other system lines (hook output, API errors, notices) are not transcript content.
      else notes.push({ kind: "unknown", ...at });
      continue;
    }
    const message = value["message"] as Json | undefined;
    const content = message?.["content"];
    if (type === "user" && value["isCompactSummary"] === true) {
      // A summary whose boundary line is not among the lines read may meet it in another file.
      const alone = pendingCompaction === undefined;
      if (alone) pendingCompaction = { id: uuid, createdAt, ...at };
      flushCompaction(textOf(content), { untilSettled: alone });
      continue;
    }
    flushCompaction(undefined);
    if (typeof content !== "string" && !Array.isArray(content)) {
      notes.push({ kind: "malformed", ...at, message: `a '${type}' line needs message.content` });
      continue;
    }
    const { parts, waiting, paired, orphans, unknownBlocks } = partsOf(content, queue);
    if (parts.length === 0) {
      // A result paired with its call adds no row (it went into the call's row); anything else is counted.
      if (paired === 0) notes.push(unknownBlocks ? { kind: "unknown", ...at } : { kind: "malformed", ...at, message: "no content block ctxwin can read" });
      continue;
    }
    const metadata = value["isSidechain"] === true ? { sidechain: true } : undefined;
    const row: SourceRow = { id: uuid, role: type, parts, ...(createdAt === undefined ? {} : { createdAt }), ...(metadata === undefined ? {} : { metadata }) };
    const isPrompt = type === "user" && value["isMeta"] !== true;
    if (type === "user" && value["isMeta"] === true) Object.assign(row, { synthetic: true, uiVisible: false });
    // The user's next prompt means a call still without a result will never get one (a sub-agent's
    // prompt, on a sidechain, comes while its Task call runs).
    if (isPrompt && paired === 0 && metadata === undefined) queue.abandonOpenCalls();
    queue.push(row, at, waiting, { untilSettled: orphans > 0 });
    if (header.title === undefined && isPrompt) {
      const text = parts.find((part) => part.type === "text") as { text: string } | undefined;
      if (text !== undefined) {
        header.title = titleOf(text.text);
        queue.unshift(headerRow(sessionId, header), header);
      }
    }
    if (header.title !== undefined) rows.push(...queue.drain({ settled: false }));
  }
  if (settled) {
    flushCompaction(undefined);
    if (header !== undefined && header.title === undefined) {
      header.title = "(no user message)";
      queue.unshift(headerRow(sessionId, header), header);
    }
  }
  if (header?.title !== undefined) rows.push(...queue.drain({ settled }));
  return { rows, notes, waiting: queue.size + (pendingCompaction === undefined ? 0 : 1) };
}

function partsOf(content: string | unknown[], queue: CallPairing): { parts: RowPart[]; waiting: Set<string>; paired: number; orphans: number; unknownBlocks: boolean } {
  const parts: RowPart[] = [];
  const waiting = new Set<string>();
  let paired = 0;
  let orphans = 0;
  let unknownBlocks = false;
  for (const block of typeof content === "string" ? [{ type: "text", text: content }] : (content as Json[])) {
    if (typeof block !== "object" || block === null) continue;
    if (block["type"] === "text" && typeof block["text"] === "string") parts.push({ type: "text", text: cutText(block["text"]) });
    else if (block["type"] === "thinking" && typeof block["thinking"] === "string") parts.push({ type: "reasoning", text: block["thinking"] });
    else if (block["type"] === "image") parts.push(imageOf(block));
    else if (block["type"] === "tool_use" && typeof block["id"] === "string") {
      const toolName = typeof block["name"] === "string" && block["name"] !== "" ? block["name"] : "tool";
      parts.push(toolPart({ toolName, toolCallId: block["id"], input: block["input"] ?? {} }));
      waiting.add(block["id"]);
    } else if (block["type"] === "tool_result" && typeof block["tool_use_id"] === "string") {
      const result = { callId: block["tool_use_id"], output: textOf(block["content"]) ?? "", isError: block["is_error"] === true };
      if (queue.resolve(result)) paired += 1;
      else {
        orphans += 1;
        parts.push(toolPart({ toolName: "tool", toolCallId: result.callId, input: {}, output: result.output, isError: result.isError }));
      }
    } else if (typeof block["type"] === "string" && !["text", "thinking", "tool_use", "tool_result"].includes(block["type"])) unknownBlocks = true;
  }
  return { parts, waiting, paired, orphans, unknownBlocks };
}

function headerRow(sessionId: string, header: Header): SourceRow {
  return sessionHeaderRow({
    id: `${sessionId}#session`,
    createdAt: header.createdAt,
    meta: {
      type: "imported-session",
      source: "claude-code",
      sourceSessionId: header.sourceSessionId,
      title: header.title ?? "",
      ...(header.project === undefined ? {} : { project: header.project }),
      file: header.file,
    },
  });
}

/** Text of a message content (a string or blocks); images inside become placeholders. */
function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  return (content as Json[])
    .map((block) => {
      if (block?.["type"] === "text" && typeof block["text"] === "string") return block["text"];
      if (block?.["type"] === "image") return (imageOf(block) as { text: string }).text;
      return "";
    })
    .filter((text) => text !== "")
    .join("\n");
}

function imageOf(block: Json): RowPart {
  const source = block["source"] as Json | undefined;
  const data = source?.["data"];
  return imagePlaceholder(typeof source?.["media_type"] === "string" ? source["media_type"] : undefined, typeof data === "string" ? data.length : undefined);
}
