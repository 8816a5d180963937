/**
 * Source format `claude-code`: Claude Code's session files (`~/.claude/projects/<folder>/<id>.jsonl`),
 * one JSON object per line with `type` (`user`, `assistant`, `system`, `attachment`, and
 * bookkeeping such as `summary`, `last-prompt`, `mode`), `uuid`, `sessionId`, `timestamp`, `cwd`,
 * `isSidechain` and an Anthropic-style `message`. A line's key is its uuid; claude-code-rows.ts
 * turns a session's lines into rows.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { claudeCodeRows } from "./claude-code-rows.js";
import { jsonLines, parsedLines } from "./jsonl-lines.js";
import type { FileEntry, Json, SourceFormat, SourceLine } from "./source-format.js";

/** Line types that carry no transcript content: skipped on purpose, not counted as unknown. */
const BOOKKEEPING_TYPES = new Set([
  "summary",
  "file-history-snapshot",
  "queue-operation",
  "last-prompt",
  "mode",
  "permission-mode",
]);
const CONTENT_TYPES = new Set(["user", "assistant", "system", "attachment"]);

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
  // Lines of unknown types before the first content line wait for it to name the session.
  const early: { line: SourceLine; lineType: string }[] = [];
  for await (const entry of parsedLines(file)) {
    if (entry.kind !== "value") {
      yield entry;
      continue;
    }
    const value = entry.value;
    if (typeof value !== "object" || value === null || Array.isArray(value) || typeof value["type"] !== "string") {
      yield { kind: "malformed", file, line: entry.line, message: "expected a JSON object with a string 'type'" };
      continue;
    }
    const type = value["type"];
    if (BOOKKEEPING_TYPES.has(type)) continue;
    const time = Date.parse(String(value["timestamp"]));
    // The line it follows in the conversation; a compaction boundary names it as its logical parent.
    const parent = [value["parentUuid"], value["logicalParentUuid"]].find(
      (key): key is string => typeof key === "string" && key !== "",
    );
    const at = {
      time: Number.isNaN(time) ? undefined : time,
      value,
      file,
      line: entry.line,
      ...(parent === undefined ? {} : { parent }),
    };
    if (!CONTENT_TYPES.has(type)) {
      // Kept as a raw row of its session (ADR 0066): keyed by its uuid, or by a hash of the line.
      const uuid =
        typeof value["uuid"] === "string" && value["uuid"] !== ""
          ? value["uuid"]
          : `raw:${createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16)}`;
      const line: SourceLine = { key: uuid, ...at };
      if (sessionId === undefined) early.push({ line, lineType: type });
      else yield { kind: "line", sessionId, line };
      continue;
    }
    const uuid = contentLine(value);
    if (uuid === undefined) {
      yield { kind: "malformed", file, line: entry.line, message: `a '${type}' line needs a string 'uuid'` };
      continue;
    }
    if (sessionId === undefined) {
      sessionId = sessionIdOf(file, value);
      for (const { line } of early.splice(0)) yield { kind: "line", sessionId, line };
    }
    yield { kind: "line", sessionId, line: { key: uuid, ...at } };
  }
  // A file with no content line names no session: its unknown lines are only counted.
  for (const { line } of early) yield { kind: "unknown", file, line: line.line, lineType: String(line.value["type"]) };
}

/** The uuid of a line that holds transcript content, or undefined. */
function contentLine(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { type, uuid } = value as Json;
  return typeof type === "string" && CONTENT_TYPES.has(type) && typeof uuid === "string" && uuid !== ""
    ? uuid
    : undefined;
}

/**
 * A file's session: its first content line's `sessionId`; a sub-agent's file (agent-*.jsonl, whose
 * lines carry its parent's `sessionId`) is a session of its own, `claude-code:<parent>/agent-<id>`.
 */
export function sessionIdOf(file: string, first: Json): string {
  const base = path.basename(file, ".jsonl");
  const sourceSessionId =
    typeof first["sessionId"] === "string" && first["sessionId"] !== "" ? first["sessionId"] : base;
  return base.startsWith("agent-") ? `claude-code:${sourceSessionId}/${base}` : `claude-code:${sourceSessionId}`;
}
