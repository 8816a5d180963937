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
import { codexRows, decidesReply } from "./codex-rows.js";
import { jsonLines, parsedLines } from "./jsonl-lines.js";
import type { FileEntry, Json, SourceFormat } from "./source-format.js";

/**
 * Line types that repeat other lines or carry settings and usage: skipped on purpose, not counted
 * as unknown. Their usage figures describe requests, not rows, and a request's rows are not
 * known here, so they are not kept.
 */
const BOOKKEEPING_TYPES = new Set(["turn_context", "event_msg", "token_usage_record", "world_state"]);

/** Codex's first line names the session; a rollout without it is named by its file. */
export const codexFormat: SourceFormat = {
  name: "codex",
  async sessionsOf(file) {
    for await (const entry of jsonLines(file)) {
      if (!entry.ok) continue;
      const value = entry.value as Json;
      if (
        typeof value !== "object" ||
        value === null ||
        typeof value["type"] !== "string" ||
        BOOKKEEPING_TYPES.has(value["type"])
      )
        continue;
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
  const id =
    first["type"] === "session_meta" && typeof payload?.["id"] === "string" && payload["id"] !== ""
      ? payload["id"]
      : path.basename(file, ".jsonl");
  return `codex:${id}`;
}

async function* codexLines(file: string): AsyncGenerator<FileEntry> {
  let sessionId: string | undefined;
  for await (const entry of parsedLines(file)) {
    if (entry.kind !== "value") {
      yield entry;
      continue;
    }
    const value = entry.value;
    const payload = value?.["payload"];
    if (
      typeof value !== "object" ||
      value === null ||
      typeof value["type"] !== "string" ||
      typeof payload !== "object" ||
      payload === null
    ) {
      yield { kind: "malformed", file, line: entry.line, message: "expected { timestamp, type, payload }" };
      continue;
    }
    // Bookkeeping is skipped, but for the events that show whether a reply was a compaction's, and
    // the turn settings that name the model (codex-rows.ts).
    if (BOOKKEEPING_TYPES.has(value["type"]) && !decidesReply(value) && value["type"] !== "turn_context") continue;
    sessionId ??= sessionIdOf(file, value);
    const time = Date.parse(String(value["timestamp"]));
    // Lines have no ids of their own: a line's key is a hash of the whole line (its time included).
    const key = createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
    yield {
      kind: "line",
      sessionId,
      line: { key, time: Number.isNaN(time) ? undefined : time, value, file, line: entry.line },
    };
  }
}
