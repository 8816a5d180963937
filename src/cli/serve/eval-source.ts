/**
 * `ctxwin serve --eval <results.jsonl>`: the results file of `ctxwin eval`, read line by line
 * (src/eval/results-stream.ts) and summarised as `ctxwin eval` prints it. It is read once at start
 * (a missing or corrupt file stops the command with one line) and again on every `GET /api/eval`
 * and page of items, so a run still going shows its progress on reload. Only one page of whole
 * results is ever held: the run's view keeps each result's figures, not its answers (ADR 0088).
 */
import path from "node:path";
import type { ItemResult } from "../../eval/eval-types.js";
import type { RunHeader } from "../../eval/results-file.js";
import { readResultLines, scanResultsFile, type ResultEntry } from "../../eval/results-stream.js";
import { summarize } from "../../eval/summary-table.js";
import type { EvalItemsPage, EvalItemsQuery, EvalItemView, EvalSource, EvalView } from "../../server/eval-view.js";

const HINT = "pass the file ctxwin eval --out wrote";

/**
 * Rejects with `EvalResultsError` (one line) when the file is missing or not a results file.
 *
 * @example const server = await startServer({ directory, eval: await openEvalSource({ file: "ctxwin-eval.jsonl" }) });
 */
export async function openEvalSource({ file }: { file: string }): Promise<EvalSource> {
  const resolved = path.resolve(file);
  const scan = () => scanResultsFile(resolved, { hint: HINT });
  await scan();
  return {
    file: resolved,
    read: async () => evalRunView({ file: resolved, ...(await scan()) }),
    items: async (query) => itemsPage({ file: resolved, entries: (await scan()).entries, query }),
  };
}

/**
 * A results file's run as `GET /api/eval` answers it.
 *
 * @example const view = evalRunView({ file, ...(await scanResultsFile(file)) });
 */
export function evalRunView({
  file,
  header,
  entries,
}: {
  file: string;
  header: RunHeader;
  entries: readonly ResultEntry[];
}): EvalView {
  const summary = summarize(entries.map((entry) => ({ ...entry.result, answers: [] }))).map((row) => ({
    ...row,
    score: row.score ?? null,
    evidenceReached: row.evidenceReached ?? null,
    costUsd: row.costUsd ?? null,
  }));
  const { model, contextLimit, seed, startedAt } = header;
  return {
    file,
    run: { model, contextLimit, seed, startedAt },
    suites: [...new Set(summary.map((row) => row.suite))],
    summary,
  };
}

/** The query's page of a suite's (and strategy's) items, read whole from their lines only. */
async function itemsPage({
  file,
  entries,
  query,
}: {
  file: string;
  entries: readonly ResultEntry[];
  query: EvalItemsQuery;
}): Promise<EvalItemsPage> {
  const matching = entries.filter(
    ({ result }) =>
      result.suite === query.suite && (query.strategy === undefined || result.strategy === query.strategy),
  );
  const page = matching.slice(query.cursor, query.cursor + query.limit);
  const whole = await readResultLines(file, new Set(page.map((entry) => entry.line)));
  const end = query.cursor + page.length;
  return {
    items: page.map((entry) => itemView(whole.get(entry.line) ?? { ...entry.result, answers: [] })),
    total: matching.length,
    nextCursor: end < matching.length ? String(end) : null,
  };
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
