/**
 * Source format `codex`: Codex CLI rollout files (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`),
 * one `{ timestamp, type, payload }` per line: `session_meta` (id, cwd), `response_item`
 * (messages, reasoning, function and custom tool calls and their outputs), `compacted` (the
 * summary that replaced the history), plus `turn_context` and `event_msg` lines that repeat
 * what the response items hold. Lines have no ids of their own: a row's id is its line number
 * and a hash of the line, so a rewritten file resumes only where its lines are unchanged.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import type { RowPart } from "../../core/row.js";
import type { SourceItem, SourceRow } from "./import-rows.js";
import { CallPairing } from "./call-pairing.js";
import { jsonLines } from "./jsonl-lines.js";
import { compactionRow, cutInput, cutText, imagePlaceholder, isoTime, sessionHeaderRow, titleOf, toolPart } from "./transcript-rows.js";

type Json = Record<string, unknown>;

/** Line types that repeat other lines or carry settings: skipped without counting as unknown. */
const BOOKKEEPING_TYPES = new Set(["turn_context", "event_msg"]);
/** Messages Codex injects itself (environment, instructions): kept hidden. */
const INJECTED_PREFIXES = ["<environment_context>", "<user_instructions>", "# AGENTS.md instructions"];

/**
 * @example for await (const item of readCodexRollout(file)) console.log(item.kind);
 */
export async function* readCodexRollout(file: string): AsyncGenerator<SourceItem> {
  const queue = new CallPairing();
  const extras: SourceItem[] = [];
  let sessionId: string | undefined;
  let header: { sourceSessionId: string; project?: string; createdAt?: string; title?: string; line: number } | undefined;

  function* drain(all: boolean): Generator<SourceItem> {
    yield* extras.splice(0);
    if (sessionId === undefined || header === undefined || (header.title === undefined && !all)) return;
    yield* queue.drain({ sessionId, file, all });
  }

  for await (const entry of jsonLines(file)) {
    if (!entry.ok) {
      extras.push({ kind: "malformed", file, line: entry.line, message: entry.message });
      continue;
    }
    const value = entry.value as Json;
    const payload = value?.["payload"] as Json | undefined;
    if (typeof value !== "object" || value === null || typeof value["type"] !== "string" || typeof payload !== "object" || payload === null) {
      extras.push({ kind: "malformed", file, line: entry.line, message: "expected { timestamp, type, payload }" });
      continue;
    }
    const type = value["type"];
    const createdAt = isoTime(value["timestamp"]);
    const id = `${entry.line}:${createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16)}`;
    if (type === "session_meta") {
      if (header === undefined) {
        const sourceSessionId = typeof payload["id"] === "string" ? payload["id"] : path.basename(file, ".jsonl");
        sessionId = `codex:${sourceSessionId}`;
        header = { sourceSessionId, createdAt: isoTime(payload["timestamp"]) ?? createdAt, line: entry.line };
        if (typeof payload["cwd"] === "string") header.project = payload["cwd"];
      }
      continue;
    }
    if (BOOKKEEPING_TYPES.has(type)) continue;
    if (header === undefined) {
      // A rollout always opens with session_meta; without it the file's name names the session.
      const sourceSessionId = path.basename(file, ".jsonl");
      sessionId = `codex:${sourceSessionId}`;
      header = { sourceSessionId, line: entry.line };
      if (createdAt !== undefined) header.createdAt = createdAt;
    }
    if (type === "compacted") {
      queue.push(compactionRow({ id, createdAt, summary: typeof payload["message"] === "string" ? payload["message"] : undefined, source: "Codex" }), entry.line);
      yield* drain(false);
      continue;
    }
    if (type !== "response_item") {
      extras.push({ kind: "unknown", file, line: entry.line });
      continue;
    }
    const item = itemRow(payload, id, createdAt);
    if (item === "unknown") {
      extras.push({ kind: "unknown", file, line: entry.line });
      continue;
    }
    if (item === "malformed") {
      extras.push({ kind: "malformed", file, line: entry.line, message: `a '${String(payload["type"])}' item is missing its fields` });
      continue;
    }
    if ("output" in item) {
      if (!queue.resolve(item)) {
        const orphan = toolPart({ toolName: "tool", toolCallId: item.callId, input: {}, output: item.output, isError: item.isError });
        queue.push({ id, role: "assistant", parts: [orphan], ...(createdAt === undefined ? {} : { createdAt }) }, entry.line);
      }
    } else {
      queue.push(item.row, entry.line, item.callId === undefined ? [] : [item.callId]);
      if (header.title === undefined && item.row.role === "user" && item.row.uiVisible !== false) {
        const text = item.row.parts.find((part) => part.type === "text") as { text: string } | undefined;
        if (text !== undefined) {
          header.title = titleOf(text.text);
          queue.unshift(headerRow(sessionId!, header, file), header.line);
        }
      }
    }
    yield* drain(false);
  }
  if (header !== undefined && header.title === undefined) {
    header.title = "(no user message)";
    queue.unshift(headerRow(sessionId!, header, file), header.line);
  }
  yield* drain(true);
}

type ItemResult = { row: SourceRow; callId?: string } | { callId: string; output: string; isError: boolean } | "unknown" | "malformed";

function itemRow(payload: Json, id: string, createdAt: string | undefined): ItemResult {
  const time = createdAt === undefined ? {} : { createdAt };
  switch (payload["type"]) {
    case "message": {
      const role = payload["role"];
      if (!Array.isArray(payload["content"]) || typeof role !== "string") return "malformed";
      const parts = (payload["content"] as Json[]).flatMap((block): RowPart[] => {
        if ((block?.["type"] === "input_text" || block?.["type"] === "output_text") && typeof block["text"] === "string") return [{ type: "text", text: cutText(block["text"]) }];
        if (block?.["type"] === "input_image") return [imagePlaceholder(mediaTypeOf(block["image_url"]), typeof block["image_url"] === "string" ? block["image_url"].length : undefined)];
        return [];
      });
      if (parts.length === 0) return "unknown";
      const text = parts.map((part) => (part as { text: string }).text).join("\n").trimStart();
      const injected = role !== "assistant" && (role !== "user" || INJECTED_PREFIXES.some((prefix) => text.startsWith(prefix)));
      const rowRole = role === "assistant" ? "assistant" : role === "user" ? "user" : "system";
      return { row: { id, role: rowRole, parts, ...time, ...(injected ? { synthetic: true, uiVisible: false } : {}) } };
    }
    case "reasoning": {
      const summary = Array.isArray(payload["summary"]) ? (payload["summary"] as Json[]) : [];
      const text = summary.map((block) => (typeof block?.["text"] === "string" ? block["text"] : "")).filter((line) => line !== "").join("\n\n");
      if (text === "") return "unknown";
      return { row: { id, role: "assistant", parts: [{ type: "reasoning", text: cutText(text) }], ...time } };
    }
    case "function_call":
    case "custom_tool_call":
    case "local_shell_call": {
      const callId = payload["call_id"] ?? payload["id"];
      if (typeof callId !== "string") return "malformed";
      const toolName = payload["type"] === "local_shell_call" ? "local_shell" : String(payload["name"] ?? "tool");
      const input = payload["type"] === "function_call" ? parseArguments(payload["arguments"]) : payload["type"] === "custom_tool_call" ? payload["input"] : payload["action"];
      return { row: { id, role: "assistant", parts: [toolPart({ toolName, toolCallId: callId, input: cutInput(input ?? {}) })], ...time }, callId };
    }
    case "function_call_output":
    case "custom_tool_call_output": {
      const callId = payload["call_id"];
      if (typeof callId !== "string") return "malformed";
      const output = payload["output"];
      if (typeof output === "string") return { callId, output, isError: false };
      if (typeof output === "object" && output !== null) {
        const content = (output as Json)["content"];
        return { callId, output: typeof content === "string" ? content : JSON.stringify(content ?? output), isError: (output as Json)["success"] === false };
      }
      return "malformed";
    }
    default:
      return "unknown";
  }
}

function parseArguments(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    // Arguments that are not JSON are kept as the model wrote them.
    return { arguments: value };
  }
}

function mediaTypeOf(url: unknown): string | undefined {
  return typeof url === "string" ? /^data:([^;,]+)/.exec(url)?.[1] : undefined;
}

function headerRow(sessionId: string, header: { sourceSessionId: string; project?: string; createdAt?: string; title?: string }, file: string): SourceRow {
  return sessionHeaderRow({
    id: `${sessionId}#session`,
    createdAt: header.createdAt,
    meta: { type: "imported-session", source: "codex", sourceSessionId: header.sourceSessionId, title: header.title ?? "", ...(header.project === undefined ? {} : { project: header.project }), file },
  });
}
