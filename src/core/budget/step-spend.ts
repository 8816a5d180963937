/**
 * What stored steps spent: the tokens each step's request reported (cache reads and writes
 * included) and their cost at the model's public prices, summed over a window or a session.
 */
import type { StepMetadata } from "../rollover/step-usage.js";
import { addUsage, cachedShare, NO_USAGE, usageCost, type TokenUsage, type UsageCost } from "./cost.js";
import { lookupModelPrices } from "./model-prices.js";

export interface Spend extends TokenUsage {
  /** Requests whose usage the provider reported. */
  requests: number;
  /** `cacheReadTokens / inputTokens`. */
  cachedShare: number;
  /** USD at the catalog's prices; `null` when some request's model has no known price. */
  costUsd: number | null;
  /** USD for the same tokens without a cache; `null` like `costUsd`. */
  uncachedCostUsd: number | null;
}

/**
 * The usage and cost of one step's request; `undefined` when the provider reported no usage
 * (a step cut before it settled).
 *
 * @example stepSpend(readStepMetadata(row)!)?.cost?.usd
 */
export function stepSpend(step: StepMetadata): { usage: TokenUsage; cost: UsageCost | undefined } | undefined {
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens } = step.usage;
  if (inputTokens === undefined) return undefined;
  const usage: TokenUsage = {
    inputTokens,
    outputTokens: outputTokens ?? 0,
    cacheReadTokens: cacheReadTokens ?? 0,
    cacheWriteTokens: cacheWriteTokens ?? 0,
  };
  const prices = lookupModelPrices({ model: step.model });
  return { usage, cost: prices === undefined ? undefined : usageCost({ usage, prices, ttl: step.cache?.ttl }) };
}

/**
 * @example
 * const spend = summarizeSpend(rows.flatMap((row) => readStepMetadata(row) ?? []));
 * spend.cachedShare // 0.91
 */
export function summarizeSpend(steps: Iterable<StepMetadata>): Spend {
  let usage = NO_USAGE;
  let requests = 0;
  let costUsd: number | null = 0;
  let uncachedCostUsd: number | null = 0;
  for (const step of steps) {
    const spent = stepSpend(step);
    if (spent === undefined) continue;
    requests += 1;
    usage = addUsage(usage, spent.usage);
    if (spent.cost === undefined || costUsd === null || uncachedCostUsd === null) {
      costUsd = uncachedCostUsd = null;
      continue;
    }
    costUsd += spent.cost.usd;
    uncachedCostUsd += spent.cost.uncachedUsd;
  }
  return { ...usage, requests, cachedShare: cachedShare(usage), costUsd, uncachedCostUsd };
}
