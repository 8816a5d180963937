/**
 * Reads a JSON lines file one parsed line at a time, with its 1-based line number. A line that
 * is not JSON is reported, not thrown, so the rest of the file still imports. Lines are split on
 * bytes and decoded strictly: a line holding invalid UTF-8 is still parsed (the bad bytes become
 * U+FFFD) and says so, so the import can count it. The last line of a file that does not end in a
 * newline says so too: a transcript being written may end in half a line.
 */
import { createReadStream } from "node:fs";
import type { Json, LineNote } from "./source-format.js";

export type JsonLine =
  | { line: number; ok: true; value: unknown; invalidUtf8: boolean; complete: boolean }
  | { line: number; ok: false; message: string; complete: boolean };

const NEWLINE = 0x0a;
const strict = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder("utf-8");

/**
 * @example for await (const entry of jsonLines("/tmp/export.jsonl")) if (entry.ok) use(entry.value);
 */
export async function* jsonLines(file: string): AsyncGenerator<JsonLine> {
  let pieces: Buffer[] = [];
  let line = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      pieces.push(chunk.subarray(start, end));
      line += 1;
      const parsed = parseLine(Buffer.concat(pieces), line, true);
      pieces = [];
      if (parsed !== undefined) yield parsed;
      start = end + 1;
    }
    if (start < chunk.length) pieces.push(chunk.subarray(start));
  }
  if (pieces.length > 0) {
    const parsed = parseLine(Buffer.concat(pieces), line + 1, false);
    if (parsed !== undefined) yield parsed;
  }
}

function parseLine(bytes: Buffer, line: number, complete: boolean): JsonLine | undefined {
  let text: string;
  let invalidUtf8 = false;
  try {
    text = strict.decode(bytes);
  } catch {
    text = lenient.decode(bytes);
    invalidUtf8 = true;
  }
  if (text.trim() === "") return undefined;
  try {
    return { line, ok: true, value: JSON.parse(text) as unknown, invalidUtf8, complete };
  } catch (error) {
    return { line, ok: false, message: `not JSON (${(error as Error).message})`, complete };
  }
}

/**
 * The lines of `file` for a format's reader: each parsed value (as a JSON object to check), and a
 * note for each line that is not JSON or holds invalid UTF-8, ready to pass on.
 *
 * @example for await (const entry of parsedLines(file)) if (entry.kind !== "value") yield entry; else read(entry.value);
 */
export async function* parsedLines(
  file: string,
): AsyncGenerator<LineNote | { kind: "value"; line: number; value: Json }> {
  for await (const entry of jsonLines(file)) {
    if (!entry.ok) {
      yield {
        kind: "malformed",
        file,
        line: entry.line,
        message: entry.message,
        ...(entry.complete ? {} : { partial: true }),
      };
      continue;
    }
    if (entry.invalidUtf8) yield { kind: "invalid-utf8", file, line: entry.line };
    yield { kind: "value", line: entry.line, value: entry.value as Json };
  }
}
