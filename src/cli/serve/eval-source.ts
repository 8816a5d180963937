/**
 * `ctxwin serve --eval <results.jsonl>`: the results file of `ctxwin eval`, read with the reader
 * `--resume` uses and summarised as `ctxwin eval` prints it. It is read once at start (a missing or
 * corrupt file stops the command with one line) and again on every `GET /api/eval`, so a run
 * still going shows its progress on reload.
 */
import path from "node:path";
import type { ItemResult } from "../../eval/eval-types.js";
import { readResultsFile, type RunHeader } from "../../eval/results-file.js";
import { summarize } from "../../eval/summary-table.js";
import type { EvalItemView, EvalSource, EvalView } from "../../server/eval-view.js";

const HINT = "pass the file ctxwin eval --out wrote";

/**
 * Throws `EvalResultsError` (one line) when the file is missing or not a results file.
 *
 * @example const server = await startServer({ directory, eval: openEvalSource({ file: "ctxwin-eval.jsonl" }) });
 */
export function openEvalSource({ file }: { file: string }): EvalSource {
  const resolved = path.resolve(file);
  const read = () => evalRunView({ file: resolved, ...readResultsFile(resolved, { hint: HINT }) });
  read();
  return { file: resolved, read };
}

/**
 * A results file's run as `GET /api/eval` answers it.
 *
 * @example const view = evalRunView({ file, ...readResultsFile(file) });
 */
export function evalRunView({ file, header, results }: { file: string; header: RunHeader; results: readonly ItemResult[] }): EvalView {
  const summary = summarize(results).map((row) => ({ ...row, score: row.score ?? null, evidenceReached: row.evidenceReached ?? null, costUsd: row.costUsd ?? null }));
  const { model, contextLimit, seed, startedAt } = header;
  return { file, run: { model, contextLimit, seed, startedAt }, suites: [...new Set(summary.map((row) => row.suite))], summary, items: results.map(itemView) };
}

function itemView(result: ItemResult): EvalItemView {
  return {
    suite: result.suite,
    itemId: result.itemId,
    strategy: result.strategy,
    status: result.status,
    score: result.score,
    evidenceReached: result.evidenceReached ?? null,
    inputTokens: result.inputTokens,
    outputTokens: result.outputTokens,
    costUsd: result.costUsd ?? null,
    wallMilliseconds: result.wallMilliseconds,
    rollovers: result.rollovers,
    compactions: result.compactions,
    historyCalls: result.historyCalls,
    error: result.error ?? null,
    answers: result.answers.map(({ question, answer, expected, score }) => ({ question, answer, expected, score })),
  };
}
