/**
 * What tokens cost (issue 28): a step's usage priced with the model's public prices, with its
 * cached input at the cache-read price and its cache writes at the write price, beside what the
 * same tokens would cost without a cache. Caching changes price only: the budget never reads this.
 */
import type { ModelPrices } from "./model-prices.js";

/** Tokens of one request or a sum of requests; the cache figures are inside `inputTokens`. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface UsageCost {
  /** USD with the cache as reported. */
  usd: number;
  /** USD for the same tokens without any cache: every input token at the input price. */
  uncachedUsd: number;
}

const PER_MILLION = 1_000_000;

/**
 * @example
 * usageCost({ usage: { inputTokens: 10_000, outputTokens: 500, cacheReadTokens: 9_000, cacheWriteTokens: 0 }, prices })
 * // { usd: 0.0132, uncachedUsd: 0.0375 } for Claude Sonnet 4.5
 */
export function usageCost({
  usage,
  prices,
  ttl,
}: {
  usage: TokenUsage;
  prices: ModelPrices;
  ttl?: "5m" | "1h" | undefined;
}): UsageCost {
  const cached = Math.min(usage.inputTokens, usage.cacheReadTokens + usage.cacheWriteTokens);
  const fresh = usage.inputTokens - cached;
  const writePrice = ttl === "1h" ? (prices.cacheWrite1h ?? prices.cacheWrite) : prices.cacheWrite;
  const reads = Math.min(usage.cacheReadTokens, usage.inputTokens);
  const writes = cached - reads;
  const usd =
    (fresh * prices.input + reads * prices.cacheRead + writes * writePrice + usage.outputTokens * prices.output) /
    PER_MILLION;
  const uncachedUsd = (usage.inputTokens * prices.input + usage.outputTokens * prices.output) / PER_MILLION;
  return { usd, uncachedUsd };
}

/** The share of input tokens read from the cache (0 when there was no input). */
export function cachedShare(usage: Pick<TokenUsage, "inputTokens" | "cacheReadTokens">): number {
  return usage.inputTokens <= 0 ? 0 : Math.min(1, usage.cacheReadTokens / usage.inputTokens);
}

/** Adds usages. */
export function addUsage(left: TokenUsage, right: TokenUsage): TokenUsage {
  return {
    inputTokens: left.inputTokens + right.inputTokens,
    outputTokens: left.outputTokens + right.outputTokens,
    cacheReadTokens: left.cacheReadTokens + right.cacheReadTokens,
    cacheWriteTokens: left.cacheWriteTokens + right.cacheWriteTokens,
  };
}

export const NO_USAGE: TokenUsage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});
