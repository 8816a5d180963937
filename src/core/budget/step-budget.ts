/**
 * The budget decision of docs/design.md §5. From the projected size of the next request and the model's
 * limit: `continue`, `warn` (once per window, only if the warning turn itself fits), `rollover`
 * (with or without a flush opportunity), or `block` (proactive action disabled and over the hard
 * ceiling). Band edges are whole tokens; a projection exactly at an edge is inside the band.
 */
import { requirePositiveInteger, requireTokenCount } from "./budget-arguments.js";
import { InvalidArgumentError } from "../errors.js";
import { DEFAULT_IMAGE_TOKENS } from "./message-tokens.js";

export const DEFAULT_THRESHOLD = 0.7;
/** The warn band starts this fraction of the limit below the threshold. */
export const WARN_BAND_WIDTH = 0.1;
/** The force band starts this fraction of the limit above the threshold. */
export const FORCE_BAND_OFFSET = 0.05;
/** Tokens kept free for the reply, at most a quarter of the limit. */
export const DEFAULT_OUTPUT_RESERVE = 8192;
export const MAXIMUM_RESERVE_SHARE = 0.25;
/**
 * What the warning turn adds to the window: the warning text (~250 tokens) and the agent's notes
 * update (up to the notes allowance of 2,000 tokens) with its tool framing.
 */
export const DEFAULT_WARNING_TURN_TOKENS = 2500;

/** `on-send`: before new input goes out. `after-step`: after a settled step inside a running turn. */
export type BudgetMoment = "on-send" | "after-step";
export type BudgetDecision = "continue" | "warn" | "rollover" | "block";
export type BudgetReason =
  | "below-warn-band"
  | "warn-band"
  | "warning-already-emitted"
  | "warning-does-not-fit"
  | "threshold"
  | "force-band"
  | "hard-ceiling"
  | "proactive-disabled"
  | "over-hard-ceiling"
  | "unknown-limit";

/** Band edges in tokens for one limit. With a threshold ≥ 1 only the hard ceiling exists. */
export type BudgetBands =
  | { proactive: true; hardCeiling: number; warnAt: number; thresholdAt: number; forceAt: number }
  | { proactive: false; hardCeiling: number };

export interface StepBudgetInput {
  moment: BudgetMoment;
  /** The model's context limit; `undefined` when unknown (then no decision is made). */
  limit: number | undefined;
  /** Input tokens the provider reported for the last step (cached reads counted once); 0 for a fresh window. */
  contextTokens: number;
  /** Output tokens of the last step: they are input of the next request. */
  outputTokens?: number;
  /** Tool results produced since the last step, not yet sent. */
  pendingToolResultTokens?: number;
  /** The new input about to be sent (on send). */
  pendingInputTokens?: number;
  /** Images not yet sent. */
  images?: number;
  threshold?: number;
  warningEmitted?: boolean;
  outputReserve?: number;
  imageTokens?: number;
  warningTurnTokens?: number;
}

interface StepBudgetCommon {
  decision: BudgetDecision;
  reason: BudgetReason;
  /** Estimated size of the next request. */
  projected: number;
  /** The agent has had (or, for `warn`, is now given) a chance to write its notes in this window. */
  flushOpportunity: boolean;
}

export type StepBudget =
  | (StepBudgetCommon & { limitKnown: true; limit: number; hardCeiling: number; bands: BudgetBands })
  | (StepBudgetCommon & {
      limitKnown: false;
      decision: "continue";
      reason: "unknown-limit";
      limit: undefined;
      hardCeiling: undefined;
      bands: undefined;
    });

/**
 * `limit − min(outputReserve, floor(0.25 × limit))`: no request estimated above it is sent.
 *
 * @example
 * hardCeilingFor({ limit: 200_000 }) // 191808
 * hardCeilingFor({ limit: 16_000 }) // 12000
 */
export function hardCeilingFor({
  limit,
  outputReserve = DEFAULT_OUTPUT_RESERVE,
}: {
  limit: number;
  outputReserve?: number;
}): number {
  requirePositiveInteger("limit", limit);
  requirePositiveInteger("outputReserve", outputReserve);
  return limit - Math.min(outputReserve, Math.floor(MAXIMUM_RESERVE_SHARE * limit));
}

/**
 * The band edges for a limit and threshold (the numbers a budget bar draws).
 *
 * @example
 * budgetBands({ limit: 100_000 }) // { proactive: true, hardCeiling: 91808, warnAt: 60000, thresholdAt: 70000, forceAt: 75000 }
 */
export function budgetBands({
  limit,
  threshold = DEFAULT_THRESHOLD,
  outputReserve = DEFAULT_OUTPUT_RESERVE,
}: {
  limit: number;
  threshold?: number;
  outputReserve?: number;
}): BudgetBands {
  checkThreshold(threshold);
  const hardCeiling = hardCeilingFor({ limit, outputReserve });
  if (threshold >= 1) return { proactive: false, hardCeiling };
  return {
    proactive: true,
    hardCeiling,
    warnAt: tokensAt(Math.max(0, threshold - WARN_BAND_WIDTH), limit),
    thresholdAt: tokensAt(threshold, limit),
    forceAt: Math.min(tokensAt(threshold + FORCE_BAND_OFFSET, limit), hardCeiling),
  };
}

/**
 * Decides what the session does next. Malformed numbers throw `InvalidArgumentError`; an unknown
 * limit is not an error: the result is `continue` with `limitKnown: false`.
 *
 * @example
 * evaluateStepBudget({ moment: "after-step", limit: 100_000, contextTokens: 61_000, outputTokens: 500 })
 * // { decision: "warn", reason: "warn-band", projected: 61500, hardCeiling: 91808, flushOpportunity: true, ... }
 */
export function evaluateStepBudget({
  moment,
  limit,
  contextTokens,
  outputTokens = 0,
  pendingToolResultTokens = 0,
  pendingInputTokens = 0,
  images = 0,
  threshold = DEFAULT_THRESHOLD,
  warningEmitted = false,
  outputReserve = DEFAULT_OUTPUT_RESERVE,
  imageTokens = DEFAULT_IMAGE_TOKENS,
  warningTurnTokens = DEFAULT_WARNING_TURN_TOKENS,
}: StepBudgetInput): StepBudget {
  if (moment !== "on-send" && moment !== "after-step") {
    throw new InvalidArgumentError(`moment must be "on-send" or "after-step"; got ${JSON.stringify(moment)}.`);
  }
  if (typeof warningEmitted !== "boolean")
    throw new InvalidArgumentError(`warningEmitted must be a boolean; got ${String(warningEmitted)}.`);
  const projected =
    requireTokenCount("contextTokens", contextTokens) +
    requireTokenCount("outputTokens", outputTokens) +
    requireTokenCount("pendingToolResultTokens", pendingToolResultTokens) +
    requireTokenCount("pendingInputTokens", pendingInputTokens) +
    requireTokenCount("images", images) * requirePositiveInteger("imageTokens", imageTokens);
  requireTokenCount("warningTurnTokens", warningTurnTokens);
  checkThreshold(threshold);
  requirePositiveInteger("outputReserve", outputReserve);
  if (limit === undefined) {
    return {
      limitKnown: false,
      decision: "continue",
      reason: "unknown-limit",
      projected,
      limit: undefined,
      hardCeiling: undefined,
      flushOpportunity: false,
      bands: undefined,
    };
  }
  const bands = budgetBands({ limit, threshold, outputReserve });
  const { hardCeiling } = bands;
  const result = (decision: BudgetDecision, reason: BudgetReason, flushOpportunity: boolean): StepBudget => ({
    limitKnown: true,
    decision,
    reason,
    projected,
    limit,
    hardCeiling,
    flushOpportunity,
    bands,
  });

  if (!bands.proactive) {
    return projected > hardCeiling
      ? result("block", "over-hard-ceiling", warningEmitted)
      : result("continue", "proactive-disabled", warningEmitted);
  }
  if (projected >= hardCeiling) return result("rollover", "hard-ceiling", warningEmitted);
  if (projected >= bands.forceAt) return result("rollover", "force-band", warningEmitted);
  if (moment === "on-send" && projected >= bands.thresholdAt) return result("rollover", "threshold", warningEmitted);
  if (projected >= bands.warnAt) {
    if (warningEmitted) return result("continue", "warning-already-emitted", true);
    if (projected + warningTurnTokens <= hardCeiling) return result("warn", "warn-band", true);
    return result("rollover", "warning-does-not-fit", false);
  }
  return result("continue", "below-warn-band", warningEmitted);
}

function checkThreshold(threshold: unknown): void {
  if (typeof threshold !== "number" || Number.isNaN(threshold) || threshold <= 0) {
    throw new InvalidArgumentError(
      `threshold must be a number above 0 (at or above 1 disables proactive rollover); got ${String(threshold)}.`,
    );
  }
}

/** The first whole token at or above `fraction × limit`, immune to floating-point noise (0.7 × 1000 is 700). */
function tokensAt(fraction: number, limit: number): number {
  const exact = fraction * limit;
  const nearest = Math.round(exact);
  return Math.abs(exact - nearest) <= 1e-9 * Math.max(1, exact) ? nearest : Math.ceil(exact);
}
