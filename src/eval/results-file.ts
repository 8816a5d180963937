/**
 * The results file of `ctxwin eval`: JSON lines, a `run` line first (model, context limit, seed),
 * then one `item` line per finished item, appended as each item finishes, so a killed run loses
 * at most the items in flight. `--resume` reads it back: items already scored or blocked are
 * skipped, failed ones run again. A last line cut off by a kill is dropped; any other line that is
 * not a result makes the file corrupt (`EvalResultsError`, one line).
 */
import fs from "node:fs";
import { errorClass } from "../core/errors.js";
import type { ItemResult } from "./eval-types.js";
import { fileProblem } from "./file-problem.js";

export interface RunHeader {
  type: "run";
  version: 1;
  model: string;
  contextLimit: number;
  seed: number;
  startedAt: string;
}

/** A results file `--resume` cannot use; the message is one line. */
export class EvalResultsError extends errorClass("CtxwinEvalResultsError") {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The key of one run of one item: the same item with another strategy is another run. */
export const resultKey = (result: Pick<ItemResult, "suite" | "itemId" | "strategy">) =>
  `${result.suite}/${result.itemId}/${result.strategy}`;

/** An `item` line: `{ type: "item", result }` with the fields that key and classify a result. */
export function isItemLine(value: unknown): value is { type: "item"; result: ItemResult } {
  const result = (value as { result?: Partial<ItemResult> } | null)?.result;
  return (
    (value as { type?: unknown }).type === "item" &&
    typeof result?.suite === "string" &&
    typeof result.itemId === "string" &&
    typeof result.strategy === "string" &&
    typeof result.status === "string"
  );
}

/**
 * The header and the results in a file, the last result of each key winning.
 *
 * `hint` ends the message of a corrupt file: what to do about it where the file was given.
 *
 * @example const { header, results } = readResultsFile("results.json");
 */
export function readResultsFile(
  file: string,
  { hint = "move it away to start over, or pass another --out" }: { hint?: string } = {},
): { header: RunHeader; results: ItemResult[] } {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw unreadableResults(file, error);
  }
  const lines = text.split("\n");
  // The last element is "" after a final newline, or a line cut off by a kill: either way, not a result.
  const complete = lines.slice(0, -1);
  const parsed = complete.map((line, index) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new EvalResultsError(`the results file ${file} is corrupt: line ${index + 1} is not JSON; ${hint}.`);
    }
  });
  const header = parsed[0] as Partial<RunHeader> | undefined;
  if (
    header?.type !== "run" ||
    typeof header.model !== "string" ||
    typeof header.contextLimit !== "number" ||
    typeof header.seed !== "number"
  ) {
    throw new EvalResultsError(
      `the results file ${file} is not a ctxwin eval results file (no run line first); ${hint}.`,
    );
  }
  const byKey = new Map<string, ItemResult>();
  parsed.slice(1).forEach((value, index) => {
    if (!isItemLine(value))
      throw new EvalResultsError(
        `the results file ${file} is corrupt: line ${index + 2} is not an item result; ${hint}.`,
      );
    byKey.set(resultKey(value.result), value.result);
  });
  return { header: header as RunHeader, results: [...byKey.values()] };
}

/** Drops a last line cut off by a kill, so appended lines start on a line of their own. */
function dropPartialLastLine(file: string): void {
  const text = fs.readFileSync(file, "utf8");
  if (text.length > 0 && !text.endsWith("\n")) fs.writeFileSync(file, text.slice(0, text.lastIndexOf("\n") + 1));
}

/**
 * Opens `file` for a run: a new file with the header, or (resume) the existing one, cleaned up.
 *
 * @example const writer = openResultsFile({ file, header, resume: false }); writer.append(result);
 */
export function openResultsFile({ file, header, resume }: { file: string; header: RunHeader; resume: boolean }): {
  append(result: ItemResult): void;
} {
  if (resume) dropPartialLastLine(file);
  else fs.writeFileSync(file, `${JSON.stringify(header)}\n`);
  return {
    append(result) {
      fs.appendFileSync(file, `${JSON.stringify({ type: "item", result })}\n`);
    },
  };
}

/** The error for a results file that cannot be read: missing, or what the system said. */
export function unreadableResults(file: string, error: unknown): EvalResultsError {
  const why = fileProblem(error, "no such file");
  return new EvalResultsError(`cannot read the results file ${file}: ${why}.`, { cause: error });
}
