/**
 * What the session engine needs from the budget engine (`core/budget`, docs/design.md §5), behind one
 * small seam: a model's context limit (catalog + overrides), the budget engine's token count for
 * the model, and the decision at the two moments (on send, after a settled step). Request
 * estimates are not part of the seam: they always come from `estimateRequestTokens`.
 */
import type { LanguageModel } from "ai";
import { createModelCatalog, type ModelOverrides } from "../core/budget/model-catalog.js";
import {
  DEFAULT_OUTPUT_RESERVE,
  DEFAULT_THRESHOLD,
  budgetBands,
  evaluateStepBudget,
  hardCeilingFor,
  type BudgetDecision,
  type BudgetMoment,
} from "../core/budget/step-budget.js";
import { requestOutputLimit } from "../core/budget/output-limit.js";
import { countTokens as countModelTokens } from "../core/budget/token-count.js";

export type { BudgetDecision, BudgetMoment };

/** `rollover` (default): hard rollovers; `compact`: LLM summary boundary; `off`: only the hard ceiling blocks. */
export type BudgetStrategy = "rollover" | "compact" | "off";

export interface BudgetEvaluation {
  decision: BudgetDecision;
  projected: number;
  hardCeiling: number;
  /** Whether the agent has had its chance to save notes in this window. */
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
  /**
   * The session's strategy (default `rollover`). With `compact`, a settled step compacts from the
   * threshold on, like a send: the summary request carries the whole window and must still fit
   * under the hard ceiling, which the force band may equal (docs/adr/0050).
   */
  strategy?: BudgetStrategy;
}

export type ModelLimitLookup = { contextLimit: number } | { contextLimit: undefined; key: string; message: string };

/** The seam the session uses. */
export interface SessionBudgetPolicy {
  /** The model's context limit, or why it is unknown (then no rollover decision is made). */
  limitOf(model: LanguageModel): ModelLimitLookup;
  /** Tokens of a text for the model (hot memory selection, the note of a truncated tool output). */
  countTokens(text: string, model: LanguageModel): number;
  hardCeiling(contextLimit: number): number;
  /**
   * The output limit a request to `model` asks for (none when absent): the output reserve, bounded by
   * what the window has left and the model's catalog maximum.
   */
  outputLimit?(input: { model: LanguageModel; contextLimit: number | undefined; inputTokens: number }): number;
  evaluate(input: BudgetEvaluationInput): BudgetEvaluation;
}

export interface BudgetSettings {
  /** Fraction of the limit at which a window rolls over on send (default 0.70; ≥ 1 disables proactive action). */
  threshold?: number;
  /** Tokens kept free for the answer, capped at 25% of the limit (default 8192). */
  outputReserve?: number;
  /** Context limit of the primary model; overrides the catalog. */
  contextLimit?: number;
  /** Limits of other models (fallbacks, local servers), by any reference the catalog accepts. */
  models?: ModelOverrides;
  /** Tokens a warning turn needs; a warning that would not fit becomes a rollover without flush (default 2500). */
  warningTurnTokens?: number;
}

/**
 * The catalog key of an AI SDK model: `openai.chat` + `gpt-4o` → `openai:gpt-4o`.
 *
 * @example modelKey(anthropic("claude-sonnet-4-5")) // "anthropic:claude-sonnet-4-5"
 */
export function modelKey(model: LanguageModel): string {
  if (typeof model === "string") return model;
  const provider = model.provider.split(".")[0] ?? model.provider;
  return `${provider}:${model.modelId}`;
}

/**
 * The budget policy over `core/budget`: limits from the shipped catalog with `models` overrides
 * (and `contextLimit` for the primary model), token counts per model, `evaluateStepBudget`.
 *
 * @example
 * const policy = createBudgetPolicy({ settings: { contextLimit: 16_000 }, primaryModel: model });
 */
export function createBudgetPolicy({
  settings = {},
  primaryModel,
}: {
  settings?: BudgetSettings;
  primaryModel?: LanguageModel;
}): SessionBudgetPolicy {
  const threshold = settings.threshold ?? DEFAULT_THRESHOLD;
  const outputReserve = settings.outputReserve ?? DEFAULT_OUTPUT_RESERVE;
  const catalog = createModelCatalog({ overrides: settings.models ?? [] });
  return {
    limitOf(model) {
      if (settings.contextLimit !== undefined && (primaryModel === undefined || model === primaryModel))
        return { contextLimit: settings.contextLimit };
      const found = catalog.lookup(modelKey(model));
      return found.status === "found"
        ? { contextLimit: found.contextLimit }
        : { contextLimit: undefined, key: found.key, message: found.message };
    },
    countTokens: (text, model) => countModelTokens(text, { model: modelKey(model) }),
    hardCeiling: (contextLimit) => hardCeilingFor({ limit: contextLimit, outputReserve }),
    outputLimit({ model, contextLimit, inputTokens }) {
      const found = catalog.lookup(modelKey(model));
      const modelMaxOutputTokens = found.status === "found" ? found.maxOutputTokens : undefined;
      return requestOutputLimit({ limit: contextLimit, outputReserve, inputTokens, modelMaxOutputTokens });
    },
    evaluate({ moment: asked, projected, contextLimit, warningEmitted, strategy = "rollover" }) {
      // Strategy `compact` has one point at both moments: the threshold (see BudgetEvaluationInput.strategy).
      const moment = strategy === "compact" ? "on-send" : asked;
      const budget = evaluateStepBudget({
        moment,
        limit: contextLimit,
        contextTokens: Math.max(0, Math.round(projected)),
        threshold,
        outputReserve,
        warningEmitted,
        ...(settings.warningTurnTokens === undefined ? {} : { warningTurnTokens: settings.warningTurnTokens }),
      });
      const bands = budgetBands({ limit: contextLimit, threshold, outputReserve });
      const rolloverAt = bands.proactive
        ? moment === "on-send"
          ? bands.thresholdAt
          : bands.forceAt
        : bands.hardCeiling;
      const hardCeiling = budget.hardCeiling ?? bands.hardCeiling;
      return {
        decision: budget.decision,
        projected: budget.projected,
        hardCeiling,
        flushOpportunity: budget.flushOpportunity,
        rolloverAt,
      };
    },
  };
}
