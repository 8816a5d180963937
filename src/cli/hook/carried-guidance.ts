/**
 * Whether a session already carries ctxwin's guidance since its last compaction: a resumed session
 * gets back every line of its context, the hook's earlier output included, so a second copy would
 * only repeat it (issue 47: five resumes left five copies). The transcript is read from its end
 * back to the last compaction, whatever its size:
 * - Claude Code: the hook's output is an `attachment` line of type `hook_additional_context`
 *   (`content`: the texts added); a compaction is a `system` line of subtype `compact_boundary`.
 * - Codex: a compaction is a `compacted` line; the hook's output is taken to be a `response_item`
 *   message holding the guidance's first line (not seen in a recorded rollout yet).
 */
import { open } from "node:fs/promises";
import type { TranscriptFormat } from "../../import/source-files.js";
import { GUIDANCE_MARKER } from "./recovery-guidance.js";

const CHUNK_BYTES = 64 * 1024;

/**
 * True when a line after the transcript's last compaction holds ctxwin's guidance. Stops (false)
 * at `stopWhen` (the hook's deadline): a second copy is better than no answer.
 *
 * @example await carriesGuidance({ file: "/…/5f0c….jsonl", format: "claude-code" })
 */
export async function carriesGuidance({
  file,
  format,
  stopWhen = () => false,
}: {
  file: string;
  format: TranscriptFormat;
  stopWhen?: () => boolean;
}): Promise<boolean> {
  for await (const line of linesFromTheEnd(file)) {
    if (stopWhen()) return false;
    const kind = format === "claude-code" ? claudeCodeLine(line) : codexLine(line);
    if (kind === "guidance") return true;
    if (kind === "compaction") return false;
  }
  return false;
}

type LineKind = "guidance" | "compaction" | undefined;

function claudeCodeLine(line: string): LineKind {
  const guidance = line.includes("hook_additional_context") && line.includes(GUIDANCE_MARKER);
  if (!guidance && !line.includes("compact_boundary")) return undefined;
  const value = parsed(line);
  if (value?.["type"] === "system" && value["subtype"] === "compact_boundary") return "compaction";
  const attachment = value?.["attachment"] as Record<string, unknown> | undefined;
  if (value?.["type"] !== "attachment" || attachment?.["type"] !== "hook_additional_context") return undefined;
  const content = attachment["content"];
  const texts = Array.isArray(content) ? content : [content];
  return texts.some((text) => typeof text === "string" && text.includes(GUIDANCE_MARKER)) ? "guidance" : undefined;
}

function codexLine(line: string): LineKind {
  if (!line.includes(GUIDANCE_MARKER) && !line.includes('"compacted"')) return undefined;
  const value = parsed(line);
  if (value?.["type"] === "compacted") return "compaction";
  const payload = value?.["payload"] as Record<string, unknown> | undefined;
  if (value?.["type"] !== "response_item" || payload?.["type"] !== "message" || !Array.isArray(payload["content"]))
    return undefined;
  const texts = (payload["content"] as unknown[]).map((part) => (part as { text?: unknown } | null)?.text);
  return texts.some((text) => typeof text === "string" && text.includes(GUIDANCE_MARKER)) ? "guidance" : undefined;
}

function parsed(line: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    // A half-written last line is not a line of the session yet.
    return undefined;
  }
}

/** The file's lines, last first, read in chunks from its end. */
async function* linesFromTheEnd(file: string): AsyncGenerator<string> {
  const handle = await open(file, "r");
  try {
    let position = (await handle.stat()).size;
    let rest = Buffer.alloc(0);
    while (position > 0) {
      const length = Math.min(CHUNK_BYTES, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, position);
      let bytes = Buffer.concat([chunk, rest]);
      for (let newline = bytes.lastIndexOf(0x0a); newline !== -1; newline = bytes.lastIndexOf(0x0a)) {
        const line = bytes.subarray(newline + 1);
        if (line.length > 0) yield line.toString("utf8");
        bytes = bytes.subarray(0, newline);
      }
      rest = bytes;
    }
    if (rest.length > 0) yield rest.toString("utf8");
  } finally {
    await handle.close();
  }
}
