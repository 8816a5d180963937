/**
 * Estimated cost of tokens. The model catalog carries no prices yet; `priceOf` is the one place
 * that will read them, so every figure `ctxwin eval` shows follows the catalog once it does.
 */

/** US dollars per million tokens. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/**
 * The price of a model (`openai:gpt-4.1-mini`), or `undefined` when unknown.
 *
 * @example priceOf({ modelKey: "openai:gpt-4.1-mini" }) // undefined until the catalog has prices
 */
export function priceOf({ modelKey, prices = {} }: { modelKey: string; prices?: Readonly<Record<string, ModelPrice>> }): ModelPrice | undefined {
  return prices[modelKey];
}

/**
 * Dollars for the tokens at `price`, or `undefined` without a price.
 *
 * @example estimateCost({ inputTokens: 1_000_000, outputTokens: 0, price: { inputPerMillion: 0.4, outputPerMillion: 1.6 } }) // 0.4
 */
export function estimateCost({ inputTokens, outputTokens, price }: { inputTokens: number; outputTokens: number; price: ModelPrice | undefined }): number | undefined {
  if (price === undefined) return undefined;
  return (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000;
}
