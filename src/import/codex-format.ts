/**
 * Source format `codex`: Codex CLI rollout files (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`),
 * one `{ timestamp, type, payload }` per line: `session_meta` (id, cwd), `response_item`
 * (messages, reasoning, function and custom tool calls and their outputs), `compacted` (the
 * summary that replaced the history), plus `turn_context` and `event_msg` lines that repeat
 * what the response items hold. Lines have no ids of their own: a line's key (and its row's id) is
 * a hash of the whole line, so the same line in two rollouts (a resumed session) is one row.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import type { RowPart } from "../core/row.js";
import { CallPairing } from "./call-pairing.js";
import { jsonLines } from "./jsonl-lines.js";
import type { BuiltRow, FileEntry, Json, LineNote, SessionRows, SourceFormat, SourceLine, SourceRow } from "./source-format.js";
import { compactionRow, cutText, imagePlaceholder, isoTime, sessionHeaderRow, titleOf, toolPart } from "./transcript-rows.js";

/** Line types that repeat other lines or carry settings: skipped without counting as unknown. */
const BOOKKEEPING_TYPES = new Set(["turn_context", "event_msg"]);
/** Messages Codex injects itself (environment, instructions): kept hidden. */
const INJECTED_PREFIXES = ["<environment_context>", "<user_instructions>", "# AGENTS.md instructions"];

/** Codex's first line names the session; a rollout without it is named by its file. */
export const codexFormat: SourceFormat = {
  name: "codex",
  async sessionsOf(file) {
    for await (const entry of jsonLines(file)) {
      if (!entry.ok) continue;
      const value = entry.value as Json;
      if (typeof value !== "object" || value === null || typeof value["type"] !== "string" || BOOKKEEPING_TYPES.has(value["type"])) continue;
      return [sessionIdOf(file, value)];
    }
    return [];
  },
  lines: codexLines,
  rows: codexRows,
  // Builds before ADR 0049 wrote `<line number>:<hash>`; the line number is not part of a line's identity.
  normalizeStoredId: (id) => /^\d+:([0-9a-f]{16})$/.exec(id)?.[1] ?? id,
};

function sessionIdOf(file: string, first: Json): string {
  const payload = first["payload"] as Json | undefined;
  const id = first["type"] === "session_meta" && typeof payload?.["id"] === "string" && payload["id"] !== "" ? payload["id"] : path.basename(file, ".jsonl");
  return `codex:${id}`;
}

async function* codexLines(file: string): AsyncGenerator<FileEntry> {
  let sessionId: string | undefined;
  for await (const entry of jsonLines(file)) {
    if (!entry.ok) {
      yield { kind: "malformed", file, line: entry.line, message: entry.message, ...(entry.complete ? {} : { partial: true }) };
      continue;
    }
    if (entry.invalidUtf8) yield { kind: "invalid-utf8", file, line: entry.line };
    const value = entry.value as Json;
    const payload = value?.["payload"];
    if (typeof value !== "object" || value === null || typeof value["type"] !== "string" || typeof payload !== "object" || payload === null) {
      yield { kind: "malformed", file, line: entry.line, message: "expected { timestamp, type, payload }" };
      continue;
    }
    if (BOOKKEEPING_TYPES.has(value["type"])) continue;
    sessionId ??= sessionIdOf(file, value);
    const time = Date.parse(String(value["timestamp"]));
    // Lines have no ids of their own: a line's key is a hash of the whole line (its time included).
    const key = createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
    yield { kind: "line", sessionId, line: { key, time: Number.isNaN(time) ? undefined : time, value, file, line: entry.line } };
  }
}

interface Header {
  sourceSessionId: string;
  project?: string;
  createdAt?: string;
  title?: string;
  file: string;
  line: number;
}

function codexRows({ sessionId, lines, settled }: { sessionId: string; lines: readonly SourceLine[]; settled: boolean }): SessionRows {
  const queue = new CallPairing();
  const rows: BuiltRow[] = [];
  const notes: LineNote[] = [];
  let header: Header | undefined;

  for (const { key: id, value, file, line } of lines) {
    const at = { file, line };
    const type = value["type"] as string;
    const payload = value["payload"] as Json;
    const createdAt = isoTime(value["timestamp"]);
    if (header === undefined) {
      const sourceSessionId = sessionId.slice("codex:".length);
      header = { sourceSessionId, ...at };
      const started = type === "session_meta" ? (isoTime(payload["timestamp"]) ?? createdAt) : createdAt;
      if (started !== undefined) header.createdAt = started;
    }
    if (type === "session_meta") {
      if (header.project === undefined && typeof payload["cwd"] === "string") header.project = payload["cwd"];
      continue;
    }
    if (type === "compacted") {
      const summary = typeof payload["message"] === "string" ? payload["message"] : undefined;
      queue.push(compactionRow({ id, createdAt, summary, source: "Codex" }), at);
    } else if (type !== "response_item") notes.push({ kind: "unknown", ...at });
    else {
      const item = itemRow(payload, id, createdAt);
      if (item === "unknown") notes.push({ kind: "unknown", ...at });
      else if (item === "malformed") notes.push({ kind: "malformed", ...at, message: `a '${String(payload["type"])}' item is missing its fields` });
      else if ("output" in item) {
        if (!queue.resolve(item)) {
          const orphan = toolPart({ toolName: "tool", toolCallId: item.callId, input: {}, output: item.output, isError: item.isError });
          // Its call may be in another file of the session: it waits until the source is settled.
          queue.push({ id, role: "assistant", parts: [orphan], ...(createdAt === undefined ? {} : { createdAt }) }, at, [], { untilSettled: true });
        }
      } else {
        const isPrompt = item.row.role === "user" && item.row.uiVisible !== false;
        // The user's next prompt means a call still without an output will never get one.
        if (isPrompt) queue.abandonOpenCalls();
        queue.push(item.row, at, item.callId === undefined ? [] : [item.callId]);
        if (header.title === undefined && isPrompt) {
          const text = item.row.parts.find((part) => part.type === "text") as { text: string } | undefined;
          if (text !== undefined) {
            header.title = titleOf(text.text);
            queue.unshift(headerRow(sessionId, header), header);
          }
        }
      }
    }
    if (header.title !== undefined) rows.push(...queue.drain({ settled: false }));
  }
  if (settled && header !== undefined && header.title === undefined) {
    header.title = "(no user message)";
    queue.unshift(headerRow(sessionId, header), header);
  }
  if (header?.title !== undefined) rows.push(...queue.drain({ settled }));
  return { rows, notes, waiting: queue.size };
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
      return { row: { id, role: "assistant", parts: [{ type: "reasoning", text }], ...time } };
    }
    case "function_call":
    case "custom_tool_call":
    case "local_shell_call": {
      const callId = payload["call_id"] ?? payload["id"];
      if (typeof callId !== "string") return "malformed";
      const name = typeof payload["name"] === "string" && payload["name"] !== "" ? payload["name"] : "tool";
      // An MCP tool is named by its server's namespace too (`mcp__ctxwin` + `session_history`), as Claude Code names it.
      const namespace = typeof payload["namespace"] === "string" && payload["namespace"] !== "" ? `${payload["namespace"]}__` : "";
      const toolName = payload["type"] === "local_shell_call" ? "local_shell" : `${namespace}${name}`;
      const input = payload["type"] === "function_call" ? parseArguments(payload["arguments"]) : payload["type"] === "custom_tool_call" ? payload["input"] : payload["action"];
      return { row: { id, role: "assistant", parts: [toolPart({ toolName, toolCallId: callId, input: input ?? {} })], ...time }, callId };
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

function headerRow(sessionId: string, header: Header): SourceRow {
  return sessionHeaderRow({
    id: `${sessionId}#session`,
    createdAt: header.createdAt,
    meta: { type: "imported-session", source: "codex", sourceSessionId: header.sourceSessionId, title: header.title ?? "", ...(header.project === undefined ? {} : { project: header.project }), file: header.file },
  });
}
