/**
 * `ctxwin eval --html <file>` and `ctxwin eval --report <results> [--html <file>]`: the page of a
 * finished run (src/eval/report-html.ts) written next to the results, and the table and page of a
 * results file read again without running anything.
 */
import fs from "node:fs";
import path from "node:path";
import { EvalSetupError } from "../../eval/eval-errors.js";
import { fileProblem } from "../../eval/file-problem.js";
import { renderEvalReport } from "../../eval/report-html.js";
import { readResultsFile } from "../../eval/results-file.js";
import { formatSummaryTable, summarize } from "../../eval/summary-table.js";

/** Flags that only mean something to a run, refused with `--report` rather than ignored. */
const RUN_FLAGS = [
  "out",
  "model",
  "baseUrl",
  "strategy",
  "suite",
  "contextLimit",
  "limit",
  "concurrency",
  "resume",
  "yes",
  "maxCost",
  "data",
  "seed",
  "maxRetries",
] as const;
const flagName = (key: string) => `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/**
 * The page would overwrite the results it shows: refused up front.
 *
 * @example checkPageTarget({ html: "report.html", results: "ctxwin-eval.jsonl" });
 */
export function checkPageTarget({ html, results }: { html: string | undefined; results: string }): void {
  if (html !== undefined && path.resolve(html) === path.resolve(results))
    throw new EvalSetupError(
      `--html ${html} is the results file itself: pass another file for the page, e.g. --html ctxwin-eval.html.`,
    );
}

/**
 * Writes the page of the run in `results` to `html`.
 *
 * @example writeEvalPage({ results: "ctxwin-eval.jsonl", html: "ctxwin-eval.html" });
 */
export function writeEvalPage({ results, html }: { results: string; html: string }): void {
  const run = readResultsFile(results);
  try {
    fs.writeFileSync(html, renderEvalReport({ ...run, file: path.basename(results) }));
  } catch (error) {
    const why = fileProblem(error, "no such folder");
    throw new EvalSetupError(`cannot write the page ${html}: ${why}.`, { cause: error });
  }
}

/**
 * `--report`: the comparison table of a results file on stdout and, with `--html`, its page.
 *
 * @example reportResults({ flags: { report: "ctxwin-eval.jsonl", html: "page.html" }, stdout: process.stdout });
 */
export function reportResults({
  flags,
  stdout,
}: {
  flags: Record<string, unknown> & { report: string; html?: string };
  stdout: NodeJS.WritableStream;
}): void {
  const given = RUN_FLAGS.filter((key) => flags[key] !== undefined);
  if (given.length > 0)
    throw new EvalSetupError(
      `--report reads a finished run: ${given.map(flagName).join(", ")} ` +
        `${given.length === 1 ? "belongs" : "belong"} to a run; leave ${given.length === 1 ? "it" : "them"} out.`,
    );
  checkPageTarget({ html: flags.html, results: flags.report });
  const hint = "pass the file ctxwin eval --out wrote";
  stdout.write(
    `${formatSummaryTable(summarize(readResultsFile(flags.report, { hint }).results))}\n\nresults: ${flags.report}\n`,
  );
  if (flags.html === undefined) return;
  writeEvalPage({ results: flags.report, html: flags.html });
  stdout.write(`page: ${flags.html}\n`);
}
