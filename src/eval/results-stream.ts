/**
 * A `ctxwin eval` results file read line by line, never whole (`ctxwin serve --eval`, whose file
 * may be hundreds of megabytes of answers): a first pass keeps each result's figures without its
 * answers, and where its last line is; a page of whole results then reads only those lines. The
 * rules are `readResultsFile`'s: a `run` line first, the last result of each key winning, a last
 * line cut off by a kill dropped, any other bad line making the file corrupt.
 */
import fs from "node:fs";
import readline from "node:readline";
import type { ItemResult } from "./eval-types.js";
import { EvalResultsError, isItemLine, resultKey, unreadableResults, type RunHeader } from "./results-file.js";

/** A result without what makes it large (its answers, its error's text), and the line that holds it whole. */
export interface ResultEntry {
  result: Omit<ItemResult, "answers" | "error" | "measures">;
  line: number;
}

/**
 * The header and each key's last result, as entries in the order their keys first appear (the
 * order `readResultsFile` gives).
 *
 * @example const { header, entries } = await scanResultsFile("ctxwin-eval.jsonl");
 */
export async function scanResultsFile(
  file: string,
  { hint = "pass another file" }: { hint?: string } = {},
): Promise<{ header: RunHeader; entries: ResultEntry[] }> {
  let header: RunHeader | undefined;
  const byKey = new Map<string, ResultEntry>();
  for await (const { line, text } of completeLines(file)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new EvalResultsError(`the results file ${file} is corrupt: line ${line} is not JSON; ${hint}.`);
    }
    if (line === 1) {
      header = runHeader(value);
      if (header === undefined)
        throw new EvalResultsError(
          `the results file ${file} is not a ctxwin eval results file (no run line first); ${hint}.`,
        );
      continue;
    }
    if (!isItemLine(value))
      throw new EvalResultsError(`the results file ${file} is corrupt: line ${line} is not an item result; ${hint}.`);
    const { answers: _answers, error: _error, measures: _measures, ...figures } = value.result;
    byKey.set(resultKey(value.result), { result: figures, line });
  }
  if (header === undefined)
    throw new EvalResultsError(
      `the results file ${file} is not a ctxwin eval results file (no run line first); ${hint}.`,
    );
  return { header, entries: [...byKey.values()] };
}

/**
 * The whole results on the given lines (from `scanResultsFile`'s entries), by line; the other
 * lines are skipped without parsing.
 *
 * @example const results = await readResultLines(file, new Set(page.map((entry) => entry.line)));
 */
export async function readResultLines(file: string, lines: ReadonlySet<number>): Promise<Map<number, ItemResult>> {
  const results = new Map<number, ItemResult>();
  if (lines.size === 0) return results;
  const last = Math.max(...lines);
  for await (const { line, text } of completeLines(file)) {
    if (lines.has(line)) {
      const value: unknown = JSON.parse(text);
      if (isItemLine(value)) results.set(line, value.result);
    }
    if (line >= last) break;
  }
  return results;
}

/** Each complete line of the file as it is now (numbered from 1): a last line without its newline is still being written. */
async function* completeLines(file: string): AsyncGenerator<{ line: number; text: string }> {
  let size: number;
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file, "r");
    size = (await handle.stat()).size;
    const end = await lastNewline(handle, size);
    await handle.close();
    handle = undefined;
    if (end < 0) return;
    const input = fs.createReadStream(file, { start: 0, end, encoding: "utf8" });
    const reader = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    let line = 0;
    try {
      for await (const text of reader) {
        line += 1;
        yield { line, text };
      }
    } finally {
      reader.close();
      input.destroy();
    }
  } catch (error) {
    if (EvalResultsError.isInstance(error)) throw error;
    throw unreadableResults(file, error);
  } finally {
    await handle?.close();
  }
}

/** The offset of the file's last newline before `size`, or -1 when it has none. */
async function lastNewline(handle: fs.promises.FileHandle, size: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0;) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const index = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (index >= 0) return start + index;
    end = start;
  }
  return -1;
}

function runHeader(value: unknown): RunHeader | undefined {
  const header = value as Partial<RunHeader> | null;
  return header?.type === "run" &&
    typeof header.model === "string" &&
    typeof header.contextLimit === "number" &&
    typeof header.seed === "number"
    ? (header as RunHeader)
    : undefined;
}
