/**
 * `read_file`: a window of lines of one text file. The file is streamed in chunks, so memory
 * stays bounded by the result cap (plus one line); the whole file is scanned once to count lines.
 * A selection over the character cap is cut at a line boundary and ends with the offset to
 * continue from, so consecutive calls reproduce the file exactly.
 */
import fs from "node:fs";
import { MAX_READ_FILE_BYTES } from "./limits.js";
import { isRefusal, refusal, type Refusal } from "./results.js";
import { forEachChunk, looksBinary, openRegularFile } from "./text-file.js";
import type { WorkspaceToolCall } from "./workspace-root.js";
import { resolveWorkspacePath } from "./workspace-paths.js";

export interface ReadFileInput {
  path: string;
  /** 1-based first line (default 1). */
  offset?: number | null | undefined;
  /** Most lines (default: as many as fit in `maxReadChars`). */
  limit?: number | null | undefined;
}

/**
 * Runs one `read_file` call; the text starts `File: <path> · lines A–B of N`.
 *
 * @example
 * const text = readWorkspaceFile({ workspace, input: { path: "src/index.ts", offset: 40, limit: 20 }, maxReadChars: 12_000 });
 */
export function readWorkspaceFile({
  workspace,
  input,
  maxReadChars,
}: WorkspaceToolCall<ReadFileInput> & {
  maxReadChars: number;
}): string | Refusal {
  const resolved = resolveWorkspacePath({ workspace, input: input.path });
  if (isRefusal(resolved)) return resolved;
  const shown = resolved.shown;
  if (resolved.kind === "missing")
    return refusal(`${shown} does not exist; use list_files or search_text to find the right path.`);
  if (resolved.kind === "directory")
    return refusal(`${shown} is a folder, not a file; use list_files with path "${shown}".`);
  const opened = openRegularFile({
    file: resolved.target,
    shown,
    maxBytes: MAX_READ_FILE_BYTES,
    tooLargeHint: "it is not read. Use search_text with this path to find lines in it.",
  });
  if (isRefusal(opened)) return opened;
  try {
    return selectLines({
      descriptor: opened.descriptor,
      shown,
      offset: input.offset ?? 1,
      limit: input.limit ?? Number.POSITIVE_INFINITY,
      maxReadChars,
    });
  } finally {
    fs.closeSync(opened.descriptor);
  }
}

function selectLines({
  descriptor,
  shown,
  offset,
  limit,
  maxReadChars,
}: {
  descriptor: number;
  shown: string;
  offset: number;
  limit: number;
  maxReadChars: number;
}): string | Refusal {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const lastWanted = offset + limit - 1;
  const lines: string[] = [];
  let characters = 0;
  let collecting = true;
  /** Where the selection stopped early because of the character cap (next line to read). */
  let continueAt: number | undefined;
  let longLine: { number: number; length: number } | undefined;
  let lineCount = 0;
  let pending = "";
  let binary = false;
  let first = true;

  const consider = (number: number, line: string): void => {
    if (!collecting || number < offset) return;
    if (number > lastWanted) {
      collecting = false;
      return;
    }
    const cost = line.length + (lines.length > 0 ? 1 : 0);
    if (characters + cost <= maxReadChars) {
      lines.push(line);
      characters += cost;
      return;
    }
    collecting = false;
    if (lines.length > 0) {
      continueAt = number;
      return;
    }
    lines.push(cutAtCharacter(line, maxReadChars));
    longLine = { number, length: line.length };
    continueAt = number + 1;
  };

  forEachChunk({
    descriptor,
    onChunk: (chunk) => {
      if (first && looksBinary(chunk)) {
        binary = true;
        return false;
      }
      first = false;
      const parts = (pending + decoder.decode(chunk, { stream: true })).split("\n");
      pending = parts.pop() as string;
      for (const line of parts) consider((lineCount += 1), line);
      return true;
    },
  });
  if (binary) return refusal(`${shown} is a binary file (it contains NUL bytes); read_file shows text files only.`);
  pending += decoder.decode();
  if (pending.length > 0) consider((lineCount += 1), pending);

  if (lineCount === 0) {
    if (offset > 1) return refusal(`offset ${offset} is past the end of ${shown}, which is empty.`);
    return `File: ${shown} · lines 0–0 of 0 (empty file)`;
  }
  if (offset > lineCount)
    return refusal(
      `offset ${offset} is past the end of ${shown}, which has ${lineCount} line(s); use an offset from 1 to ${lineCount}.`,
    );
  const lastShown = offset + lines.length - 1;
  const header = `File: ${shown} · lines ${offset}–${lastShown} of ${lineCount}`;
  const body = [header, ...lines].join("\n");
  if (longLine !== undefined) {
    const next =
      continueAt !== undefined && continueAt <= lineCount
        ? `; continue with offset=${continueAt}`
        : "; it is the last line";
    return `${body}\n[… truncated: line ${longLine.number} has ${longLine.length} characters, only the first ${maxReadChars} are shown${next}]`;
  }
  if (continueAt === undefined) return body;
  return `${body}\n[… truncated: continue with offset=${continueAt}]`;
}

/** The first `count` characters of `text`, without splitting a surrogate pair. */
function cutAtCharacter(text: string, count: number): string {
  const code = text.charCodeAt(count - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? count - 1 : count);
}
