/**
 * The comparison table `ctxwin eval` prints at the end: one row per suite and strategy, over the
 * results of the whole file (a resumed run included).
 */
import { STRATEGIES, SUITE_NAMES, type ItemResult } from "./eval-types.js";
import { SUMMARY_COLUMNS } from "../core/chart/eval-columns.js";

export interface SummaryRow {
  suite: string;
  strategy: string;
  /** Items scored or blocked (failed items are not scored). */
  items: number;
  failed: number;
  blocked: number;
  /** Mean score over the scored and blocked items, from 0 to 1. */
  score: number | undefined;
  evidenceReached: number | undefined;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | undefined;
  wallSeconds: number;
  rollovers: number;
  compactions: number;
  historyCalls: number;
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? undefined : values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * @example const rows = summarize(results);
 */
export function summarize(results: readonly ItemResult[]): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const suite of SUITE_NAMES) {
    for (const strategy of STRATEGIES) {
      const runs = results.filter((result) => result.suite === suite && result.strategy === strategy);
      if (runs.length === 0) continue;
      const counted = runs.filter((result) => result.status !== "failed");
      const sum = (pick: (result: ItemResult) => number) => runs.reduce((total, result) => total + pick(result), 0);
      const costs = runs.map((result) => result.costUsd);
      rows.push({
        suite,
        strategy,
        items: counted.length,
        failed: runs.length - counted.length,
        blocked: runs.filter((result) => result.status === "blocked").length,
        score: mean(counted.map((result) => result.score)),
        evidenceReached: mean(
          counted.flatMap((result) => (result.evidenceReached === undefined ? [] : [result.evidenceReached])),
        ),
        inputTokens: sum((result) => result.inputTokens),
        outputTokens: sum((result) => result.outputTokens),
        costUsd: costs.every((cost) => cost !== undefined) ? costs.reduce((total, cost) => total + cost, 0) : undefined,
        wallSeconds: sum((result) => result.wallMilliseconds) / 1000,
        rollovers: sum((result) => result.rollovers),
        compactions: sum((result) => result.compactions),
        historyCalls: sum((result) => result.historyCalls),
      });
    }
  }
  return rows;
}

const COLUMNS = ["suite", ...SUMMARY_COLUMNS];
const number = (value: number) => Math.round(value).toLocaleString("en-US");
const percent = (value: number | undefined) => (value === undefined ? "–" : `${(value * 100).toFixed(1)}%`);

/**
 * The rows as an aligned text table.
 *
 * @example console.log(formatSummaryTable(summarize(results)));
 */
export function formatSummaryTable(rows: readonly SummaryRow[]): string {
  const cells = rows.map((row) => [
    row.suite,
    row.strategy,
    String(row.items),
    percent(row.score),
    percent(row.evidenceReached),
    String(row.failed),
    String(row.blocked),
    number(row.inputTokens),
    number(row.outputTokens),
    row.costUsd === undefined ? "–" : `$${row.costUsd.toFixed(4)}`,
    row.wallSeconds.toFixed(1),
    String(row.rollovers),
    String(row.compactions),
    String(row.historyCalls),
  ]);
  const widths = COLUMNS.map((title, index) => Math.max(title.length, ...cells.map((line) => line[index]!.length)));
  const format = (line: readonly string[]) =>
    line
      .map((cell, index) => (index < 2 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!)))
      .join("  ")
      .trimEnd();
  return [format(COLUMNS), widths.map((width) => "-".repeat(width)).join("  "), ...cells.map(format)].join("\n");
}
