/**
 * Estimated cost of tokens, at the public list prices ctxwin ships (`core/budget/model-prices.json`,
 * ADR 0055). An eval item counts input and output tokens only, so cached reads are priced as fresh
 * input: the figure is an upper bound for a provider that discounts a repeated prefix.
 */
import { lookupModelPrices } from "../core/budget/model-prices.js";

/** US dollars per million tokens. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/**
 * The price of a model (`anthropic:claude-sonnet-4-5`), or `undefined` when no public price is
 * recorded for it (a local model, an unknown id): costs are then shown as tokens only.
 *
 * @example priceOf({ modelKey: "anthropic:claude-sonnet-4-5" }) // { inputPerMillion: 3, outputPerMillion: 15 }
 */
export function priceOf({
  modelKey,
  prices,
}: {
  modelKey: string;
  prices?: Readonly<Record<string, ModelPrice>>;
}): ModelPrice | undefined {
  if (prices !== undefined) return prices[modelKey];
  const found = lookupModelPrices({ model: modelKey });
  return found === undefined ? undefined : { inputPerMillion: found.input, outputPerMillion: found.output };
}

/**
 * Dollars for the tokens at `price`, or `undefined` without a price.
 *
 * @example estimateCost({ inputTokens: 1_000_000, outputTokens: 0, price: { inputPerMillion: 0.4, outputPerMillion: 1.6 } }) // 0.4
 */
export function estimateCost({
  inputTokens,
  outputTokens,
  price,
}: {
  inputTokens: number;
  outputTokens: number;
  price: ModelPrice | undefined;
}): number | undefined {
  if (price === undefined) return undefined;
  return (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000;
}
