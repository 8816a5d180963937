/**
 * The output limit a request asks the provider for (`maxOutputTokens`). The budget keeps an output
 * reserve free below the context limit; the request must ask for no more than that, or a provider
 * that checks `input + max_tokens <= context` (Anthropic) refuses requests the budget accepted.
 */
import { requirePositiveInteger } from "./budget-arguments.js";
import { DEFAULT_OUTPUT_RESERVE, hardCeilingFor } from "./step-budget.js";

export interface OutputLimitInput {
  /** The model's context limit; undefined when unknown (then only the reserve and the model maximum bound it). */
  limit: number | undefined;
  /** Tokens the budget keeps for the answer (capped at 25% of the limit, as the hard ceiling is). */
  outputReserve?: number;
  /** Estimated input tokens of the request. */
  inputTokens: number;
  /** The model's own output maximum from the catalog, when known. */
  modelMaxOutputTokens?: number | undefined;
}

/**
 * `min(reserve, limit − input, model maximum)`, at least 1: the reserve is what the budget kept
 * free, never more than the window has left after the input, never more than the model can write.
 *
 * @example
 * requestOutputLimit({ limit: 200_000, inputTokens: 137_360, modelMaxOutputTokens: 64_000 }) // 8192
 * requestOutputLimit({ limit: 16_000, inputTokens: 14_000 }) // 2000
 */
export function requestOutputLimit({
  limit,
  outputReserve = DEFAULT_OUTPUT_RESERVE,
  inputTokens,
  modelMaxOutputTokens,
}: OutputLimitInput): number {
  requirePositiveInteger("outputReserve", outputReserve);
  let outputLimit = outputReserve;
  if (limit !== undefined) {
    outputLimit = Math.min(
      limit - hardCeilingFor({ limit, outputReserve }),
      Math.max(0, limit - Math.ceil(inputTokens)),
    );
  }
  if (modelMaxOutputTokens !== undefined) outputLimit = Math.min(outputLimit, modelMaxOutputTokens);
  return Math.max(1, outputLimit);
}
