/**
 * What the session engine needs from the budget engine (DESIGN.md §5), behind one small seam:
 * a model's context limit, a token counter, and the decision at the two moments (on send, after a
 * settled step). The default follows the numbers of DESIGN.md §5; the catalog-backed engine of
 * `core/budget` plugs in through the same interface.
 */
import type { LanguageModel } from "ai";

export type BudgetMoment = "on-send" | "after-step";
export type BudgetDecision = "continue" | "warn" | "rollover" | "block";

export interface BudgetEvaluation {
  decision: BudgetDecision;
  projected: number;
  hardCeiling: number;
  /** Whether the agent had its chance to save notes (a warning was issued in this window). */
  flushOpportunity: boolean;
  /** Tokens at which this moment rolls over. */
  rolloverAt: number;
}

export interface BudgetEvaluationInput {
  moment: BudgetMoment;
  /** Projected tokens of the next request. */
  projected: number;
  contextLimit: number;
  warningEmitted: boolean;
}

/** The seam the session uses. */
export interface SessionBudgetPolicy {
  /** The model's context limit, or `undefined` when unknown (then no rollover decision is made). */
  contextLimitOf(model: LanguageModel): number | undefined;
  countTokens(text: string, model: LanguageModel): number;
  hardCeiling(contextLimit: number): number;
  evaluate(input: BudgetEvaluationInput): BudgetEvaluation;
  /** Tokens at which a warning is due. */
  warnAt(contextLimit: number): number;
}

export interface BudgetSettings {
  /** Fraction of the limit at which a window rolls over on send (default 0.70; ≥ 1 disables proactive action). */
  threshold?: number;
  /** Tokens kept free for the answer, capped at 25% of the limit (default 8192). */
  outputReserve?: number;
  /** Context limit of the primary model; overrides any catalog entry. */
  contextLimit?: number;
  /** Tokens a warning turn needs; a warning that would not fit becomes a rollover without flush. */
  warningReserve?: number;
}

export const DEFAULT_THRESHOLD = 0.7;
export const DEFAULT_OUTPUT_RESERVE = 8192;
export const DEFAULT_WARNING_RESERVE = 1024;
const WARN_BAND = 0.1;
const FORCE_BAND = 0.05;

/**
 * The hard ceiling of DESIGN.md §1: `limit − min(outputReserve, floor(0.25 × limit))`.
 *
 * @example hardCeilingOf(16_000, 8_192) // 12_000
 */
export function hardCeilingOf(contextLimit: number, outputReserve: number = DEFAULT_OUTPUT_RESERVE): number {
  return contextLimit - Math.min(outputReserve, Math.floor(0.25 * contextLimit));
}

/**
 * The default policy: characters / 3 as a conservative token count, and limits only from
 * `contextLimit` (for the primary model) or `limits` (by `provider:modelId` or model id).
 *
 * @example
 * const policy = createDefaultBudgetPolicy({ settings: { contextLimit: 16_000 }, primaryModel: model });
 */
export function createDefaultBudgetPolicy({
  settings = {},
  primaryModel,
  limits = {},
}: {
  settings?: BudgetSettings;
  primaryModel?: LanguageModel;
  limits?: Readonly<Record<string, number>>;
}): SessionBudgetPolicy {
  const threshold = settings.threshold ?? DEFAULT_THRESHOLD;
  const outputReserve = settings.outputReserve ?? DEFAULT_OUTPUT_RESERVE;
  const warningReserve = settings.warningReserve ?? DEFAULT_WARNING_RESERVE;
  const hardCeiling = (contextLimit: number) => hardCeilingOf(contextLimit, outputReserve);
  return {
    contextLimitOf(model) {
      if (settings.contextLimit !== undefined && (primaryModel === undefined || model === primaryModel)) return settings.contextLimit;
      const key = modelKey(model);
      return limits[key] ?? (typeof model === "string" ? undefined : limits[model.modelId]);
    },
    countTokens: (text) => Math.ceil(text.length / 3),
    hardCeiling,
    warnAt: (contextLimit) => Math.floor((threshold - WARN_BAND) * contextLimit),
    evaluate({ moment, projected, contextLimit, warningEmitted }) {
      const ceiling = hardCeiling(contextLimit);
      const rolloverAt = Math.min(ceiling, Math.floor((moment === "on-send" ? threshold : threshold + FORCE_BAND) * contextLimit));
      const result = (decision: BudgetDecision, flushOpportunity = warningEmitted): BudgetEvaluation => ({ decision, projected, hardCeiling: ceiling, flushOpportunity, rolloverAt });
      if (threshold >= 1) return result(projected >= ceiling ? "block" : "continue");
      if (projected >= rolloverAt) return result("rollover");
      if (!warningEmitted && projected >= Math.floor((threshold - WARN_BAND) * contextLimit)) {
        return projected + warningReserve < ceiling ? result("warn") : result("rollover", false);
      }
      return result("continue");
    },
  };
}

/**
 * `provider:modelId` of a model (a string model id is returned as it is).
 *
 * @example modelKey(openai("gpt-4o")) // "openai.chat:gpt-4o"
 */
export function modelKey(model: LanguageModel): string {
  return typeof model === "string" ? model : `${model.provider}:${model.modelId}`;
}
