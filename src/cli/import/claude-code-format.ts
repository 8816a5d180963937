/**
 * Source format `claude-code`: Claude Code's session files (`~/.claude/projects/<folder>/<id>.jsonl`),
 * one JSON object per line with `type` (`user`, `assistant`, `system`, `summary`, …), `uuid`,
 * `sessionId`, `timestamp`, `cwd`, `isSidechain` and an Anthropic-style `message`. Each content
 * block becomes a row part; a `tool_use` waits for its `tool_result` so the call and its result
 * are one row; a `compact_boundary` (with the summary row after it) becomes a `compaction`
 * boundary.
 */
import path from "node:path";
import type { RowPart } from "../../core/row.js";
import type { SourceItem, SourceRow } from "./import-rows.js";
import { CallPairing } from "./call-pairing.js";
import { jsonLines } from "./jsonl-lines.js";
import { compactionRow, cutInput, cutText, imagePlaceholder, isoTime, sessionHeaderRow, titleOf, toolPart } from "./transcript-rows.js";

type Json = Record<string, unknown>;

/** Line types that carry no transcript content: skipped without counting them as unknown. */
const BOOKKEEPING_TYPES = new Set(["summary", "file-history-snapshot", "queue-operation"]);

/**
 * @example for await (const item of readClaudeCodeSession(file)) console.log(item.kind);
 */
export async function* readClaudeCodeSession(file: string): AsyncGenerator<SourceItem> {
  const queue = new CallPairing();
  let sessionId: string | undefined;
  let header: { title?: string; project?: string; sourceSessionId: string; createdAt?: string } | undefined;
  let pendingCompaction: { id: string; createdAt: string | undefined; line: number } | undefined;
  const extras: SourceItem[] = [];

  const flushCompaction = (summary: string | undefined) => {
    if (pendingCompaction === undefined) return;
    queue.push(compactionRow({ ...pendingCompaction, summary, source: "Claude Code" }), pendingCompaction.line);
    pendingCompaction = undefined;
  };
  /** Rows leave in order once the front row's tool calls have their results (or at the end). */
  function* drain(all: boolean): Generator<SourceItem> {
    if (sessionId === undefined || header === undefined) return;
    if (header.title === undefined && !all) return;
    yield* queue.drain({ sessionId, file, all });
  }

  for await (const entry of jsonLines(file)) {
    if (!entry.ok) {
      extras.push({ kind: "malformed", file, line: entry.line, message: entry.message });
      continue;
    }
    const value = entry.value as Json;
    if (typeof value !== "object" || value === null || Array.isArray(value) || typeof value["type"] !== "string") {
      extras.push({ kind: "malformed", file, line: entry.line, message: "expected a JSON object with a string 'type'" });
      continue;
    }
    const type = value["type"];
    if (BOOKKEEPING_TYPES.has(type)) continue;
    if (type !== "user" && type !== "assistant" && type !== "system") {
      extras.push({ kind: "unknown", file, line: entry.line });
      continue;
    }
    const uuid = value["uuid"];
    if (typeof uuid !== "string" || uuid === "") {
      extras.push({ kind: "malformed", file, line: entry.line, message: `a '${type}' line needs a string 'uuid'` });
      continue;
    }
    if (header === undefined) {
      const sourceSessionId = typeof value["sessionId"] === "string" ? value["sessionId"] : path.basename(file, ".jsonl");
      const base = path.basename(file, ".jsonl");
      // Sub-agent transcripts (agent-*.jsonl) carry their parent's session id: a session of their own.
      sessionId = base.startsWith("agent-") ? `claude-code:${sourceSessionId}/${base}` : `claude-code:${sourceSessionId}`;
      header = { sourceSessionId, createdAt: isoTime(value["timestamp"]) };
      if (typeof value["cwd"] === "string") header.project = value["cwd"];
    }
    const createdAt = isoTime(value["timestamp"]);
    const metadata = value["isSidechain"] === true ? { sidechain: true } : undefined;

    if (type === "system") {
      if (value["subtype"] === "compact_boundary") {
        flushCompaction(undefined);
        pendingCompaction = { id: uuid, createdAt, line: entry.line };
      }
      // Other system lines (hook output, API errors, notices) are not transcript content.
      else extras.push({ kind: "unknown", file, line: entry.line });
      continue;
    }
    const message = value["message"] as Json | undefined;
    const content = message?.["content"];
    if (type === "user" && value["isCompactSummary"] === true) {
      if (pendingCompaction === undefined) pendingCompaction = { id: uuid, createdAt, line: entry.line };
      flushCompaction(textOf(content));
      continue;
    }
    flushCompaction(undefined);
    if (typeof content !== "string" && !Array.isArray(content)) {
      extras.push({ kind: "malformed", file, line: entry.line, message: `a '${type}' line needs message.content` });
      continue;
    }
    const parts: RowPart[] = [];
    const waiting = new Set<string>();
    for (const block of typeof content === "string" ? [{ type: "text", text: content }] : (content as Json[])) {
      if (typeof block !== "object" || block === null) continue;
      if (block["type"] === "text" && typeof block["text"] === "string") parts.push({ type: "text", text: cutText(block["text"]) });
      else if (block["type"] === "thinking" && typeof block["thinking"] === "string") parts.push({ type: "reasoning", text: cutText(block["thinking"]) });
      else if (block["type"] === "image") parts.push(imageOf(block));
      else if (block["type"] === "tool_use" && typeof block["id"] === "string") {
        parts.push(toolPart({ toolName: String(block["name"] ?? "tool"), toolCallId: block["id"], input: cutInput(block["input"] ?? {}) }));
        waiting.add(block["id"]);
      } else if (block["type"] === "tool_result" && typeof block["tool_use_id"] === "string") {
        const result = { callId: block["tool_use_id"], output: textOf(block["content"]) ?? "", isError: block["is_error"] === true };
        if (!queue.resolve(result)) parts.push(toolPart({ toolName: "tool", toolCallId: result.callId, input: {}, output: result.output, isError: result.isError }));
      }
    }
    // A result paired with its call adds no row (it went into the call's row); an orphan keeps one.
    if (parts.length === 0) continue;
    const row: SourceRow = { id: uuid, role: type, parts, ...(createdAt === undefined ? {} : { createdAt }), ...(metadata === undefined ? {} : { metadata }) };
    if (type === "user" && value["isMeta"] === true) Object.assign(row, { synthetic: true, uiVisible: false });
    queue.push(row, entry.line, waiting);
    if (header.title === undefined && type === "user" && value["isMeta"] !== true) {
      const text = parts.find((part) => part.type === "text") as { text: string } | undefined;
      if (text !== undefined) {
        header.title = titleOf(text.text);
        queue.unshift(headerRow(sessionId!, header, file), entry.line);
      }
    }
    yield* extras.splice(0);
    yield* drain(false);
  }
  flushCompaction(undefined);
  if (header !== undefined && header.title === undefined) {
    header.title = "(no user message)";
    queue.unshift(headerRow(sessionId!, header, file), 1);
  }
  yield* extras.splice(0);
  yield* drain(true);
}

function headerRow(sessionId: string, header: { title?: string; project?: string; sourceSessionId: string; createdAt?: string }, file: string): SourceRow {
  return sessionHeaderRow({
    id: `${sessionId}#session`,
    createdAt: header.createdAt,
    meta: { type: "imported-session", source: "claude-code", sourceSessionId: header.sourceSessionId, title: header.title ?? "", ...(header.project === undefined ? {} : { project: header.project }), file },
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
