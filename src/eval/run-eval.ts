/**
 * Runs the planned (item, strategy) pairs with at most `concurrency` at a time, reporting each
 * result as it finishes. Items of a failed run are recorded, not thrown; after `maxFailuresInARow`
 * failures in a row (no key accepted, server down, no tool calling) it stops starting new ones and
 * says why, so a broken setup costs a few items, not the whole plan.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { estimateCost, type ModelPrice } from "./cost.js";
import type { EvalItem, EvalStrategy, ItemResult } from "./eval-types.js";
import { resultKey } from "./results-file.js";
import { runItem } from "./run-item.js";

export interface PlannedRun {
  item: EvalItem;
  strategy: EvalStrategy;
}

/**
 * Every item with every strategy, item by item, leaving out the runs `done` holds.
 *
 * @example const runs = planRuns({ items, strategies: ["rollover", "compact"], done: new Set() });
 */
export function planRuns({
  items,
  strategies,
  done,
}: {
  items: readonly EvalItem[];
  strategies: readonly EvalStrategy[];
  done: ReadonlySet<string>;
}): PlannedRun[] {
  return items
    .flatMap((item) => strategies.map((strategy) => ({ item, strategy })))
    .filter(({ item, strategy }) => !done.has(resultKey({ suite: item.suite, itemId: item.id, strategy })));
}

/**
 * Rough tokens and cost of the planned runs (strategy `off` stops at the first full window, so
 * it is counted as one window's worth).
 *
 * @example const { inputTokens, costUsd } = estimatePlan({ runs, contextLimit: 16_000, price });
 */
export function estimatePlan({
  runs,
  contextLimit,
  price,
}: {
  runs: readonly PlannedRun[];
  contextLimit: number;
  price: ModelPrice | undefined;
}): { inputTokens: number; outputTokens: number; costUsd?: number } {
  let inputTokens = 0;
  let outputTokens = 0;
  for (const { item, strategy } of runs) {
    const share = strategy === "off" ? Math.min(1, (contextLimit * 2) / Math.max(1, item.estimate.inputTokens)) : 1;
    inputTokens += Math.round(item.estimate.inputTokens * share);
    outputTokens += Math.round(item.estimate.outputTokens * share);
  }
  const costUsd = estimateCost({ inputTokens, outputTokens, price });
  return { inputTokens, outputTokens, ...(costUsd === undefined ? {} : { costUsd }) };
}

export interface RunEvalOptions {
  runs: readonly PlannedRun[];
  model: LanguageModelV4;
  contextLimit: number;
  price?: ModelPrice;
  concurrency?: number;
  maxFailuresInARow?: number;
  maxRetries?: number;
  describeError?: (error: unknown) => string;
  onResult?: (result: ItemResult) => void;
}

/**
 * @example const { results, stopped } = await runEval({ runs, model, contextLimit: 16_000, onResult: writer.append });
 */
export async function runEval({
  runs,
  model,
  contextLimit,
  price,
  concurrency = 1,
  maxFailuresInARow = 3,
  maxRetries,
  describeError,
  onResult,
}: RunEvalOptions): Promise<{ results: ItemResult[]; stopped?: string }> {
  const results: ItemResult[] = [];
  const queue = [...runs];
  let failuresInARow = 0;
  let stopped: string | undefined;
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined && stopped === undefined; next = queue.shift()) {
      const result = await runItem({
        item: next.item,
        strategy: next.strategy,
        model,
        contextLimit,
        ...(price === undefined ? {} : { price }),
        ...(maxRetries === undefined ? {} : { maxRetries }),
        ...(describeError === undefined ? {} : { describeError }),
      });
      results.push(result);
      onResult?.(result);
      failuresInARow = result.status === "failed" ? failuresInARow + 1 : 0;
      if (failuresInARow >= maxFailuresInARow)
        stopped ??= `${failuresInARow} items failed in a row, the last with: ${result.error ?? "an unknown error"}`;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, runs.length)) }, worker));
  return { results, ...(stopped === undefined ? {} : { stopped }) };
}
