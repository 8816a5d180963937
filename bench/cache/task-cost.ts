/**
 * The cache-aware cost of a continuity task (issue 28): its requests replayed through Anthropic's
 * cache rule with the breakpoints ctxwin places for a Claude model (the same `placeAnthropicBreakpoints`
 * the session runs; the benchmark's scripted model is not a Claude model, so its requests carry
 * none), priced at Claude Sonnet 4.5's public prices, beside the same tokens without a cache.
 * The filler before the task warms the cache; only the task's own requests are priced.
 */
import { usageCost } from "../../src/core/budget/cost.js";
import { lookupModelPrices } from "../../src/core/budget/model-prices.js";
import { placeAnthropicBreakpoints } from "../../src/session/cache-breakpoints.js";
import type { RecordedCall } from "../../src/session/test-support/scripted-model.js";
import { anthropicCache } from "./provider-rules.js";
import { requestBlocks } from "./request-blocks.js";

export const COST_MODEL = "anthropic:claude-sonnet-4-5";

export interface TaskCost {
  /** USD with Anthropic's cache. */
  usd: number;
  /** USD for the same tokens without a cache. */
  uncachedUsd: number;
}

/**
 * @example
 * const meter = taskCostMeter();
 * runTask({ ..., hooks: { onRequest: meter.record } });
 * meter.cost() // { usd: 0.21, uncachedUsd: 0.63 }
 */
export function taskCostMeter() {
  const prices = lookupModelPrices({ model: COST_MODEL });
  if (prices === undefined) throw new Error(`no price for ${COST_MODEL}`);
  const minimumTokens = prices.minimumCacheableTokens ?? 1024;
  const cache = anthropicCache({ minimumTokens });
  const cost: TaskCost = { usd: 0, uncachedUsd: 0 };
  return {
    record(call: RecordedCall, { phase, outputTokens }: { phase: "filler" | "task"; outputTokens: number }): void {
      const sent = placeAnthropicBreakpoints({
        params: { prompt: call.prompt, tools: call.tools },
        minimumTokens,
      }).params;
      const simulated = cache(requestBlocks({ prompt: sent.prompt, tools: sent.tools }));
      if (phase !== "task") return;
      const priced = usageCost({ usage: { ...simulated, outputTokens }, prices });
      cost.usd += priced.usd;
      cost.uncachedUsd += priced.uncachedUsd;
    },
    cost: (): TaskCost => ({ ...cost }),
  };
}
