/**
 * Per-session calibration of token estimates against what the provider reports. The state is a
 * plain JSON value (persist it with the session); every function here is pure and returns a new
 * state. Until a model has a usable sample its factor is 1: the raw estimate, never less.
 */
import { InvalidArgumentError } from "../errors.js";
import { tokenizerProfileFor } from "./token-count.js";

/**
 * Bounds of a learned factor. Below 0.8 the provider reports fewer than four fifths of our own
 * count: the per-provider factors are at most ~35% high, so a lower ratio means the sample is not
 * comparable (cached or dropped parts counted differently), not that the tokenizer is that thrifty.
 * Above 3.0 the provider counts something we never saw (an injected prompt, media): trusting it
 * would roll windows over at a third of their size, so the factor stops there.
 */
export const CALIBRATION_FACTOR_BOUNDS = { minimum: 0.8, maximum: 3 } as const;

/** Requests estimated below this many tokens are not used: fixed provider framing dominates them. */
export const MINIMUM_CALIBRATION_SAMPLE_TOKENS = 512;

/** Weight of a new sample that is lower than the current factor (higher ones are taken at once). */
export const CALIBRATION_DECREASE_WEIGHT = 0.25;

export interface ModelCalibration {
  /** Multiplier applied to the raw estimate. */
  factor: number;
  /** Samples taken into account. */
  samples: number;
  /** reported / estimated of the last sample taken into account. */
  lastRatio: number;
}

/** Calibration of one session, keyed by normalized model reference. JSON-serializable. */
export interface CalibrationState {
  version: 1;
  models: Record<string, ModelCalibration>;
}

/**
 * @example
 * let calibration = createCalibrationState();
 */
export function createCalibrationState(): CalibrationState {
  return { version: 1, models: {} };
}

/**
 * Learns from one request: `estimated` is our raw (uncalibrated) estimate of it, `reported` the
 * provider's input tokens for it. A higher ratio is taken at once (underestimating is the risk);
 * a lower one moves the factor a quarter of the way. Samples below
 * `MINIMUM_CALIBRATION_SAMPLE_TOKENS`, and a missing or zero `reported`, leave the state unchanged.
 *
 * @example
 * calibration = updateCalibration(calibration, { model: "anthropic:claude-sonnet-4-5", estimated: 10_000, reported: 11_200 });
 * calibrationFactor(calibration, { model: "anthropic:claude-sonnet-4-5" }) // 1.12
 */
export function updateCalibration(
  state: CalibrationState,
  { model, estimated, reported }: { model?: string | undefined; estimated: number; reported: number | undefined },
): CalibrationState {
  if (!Number.isSafeInteger(estimated) || estimated < 0) {
    throw new InvalidArgumentError(`estimated must be a non-negative integer token count; got ${String(estimated)}.`);
  }
  if (reported !== undefined && (!Number.isSafeInteger(reported) || reported < 0)) {
    throw new InvalidArgumentError(
      `reported must be a non-negative integer token count or undefined; got ${String(reported)}.`,
    );
  }
  if (reported === undefined || reported === 0 || estimated < MINIMUM_CALIBRATION_SAMPLE_TOKENS) return state;
  const key = tokenizerProfileFor({ model }).key;
  const ratio = reported / estimated;
  const previous = state.models[key];
  const target =
    previous === undefined || ratio >= previous.factor
      ? ratio
      : previous.factor + CALIBRATION_DECREASE_WEIGHT * (ratio - previous.factor);
  const next: ModelCalibration = {
    factor: clampFactor(target),
    samples: (previous?.samples ?? 0) + 1,
    lastRatio: ratio,
  };
  return { version: 1, models: { ...state.models, [key]: next } };
}

/**
 * The factor to apply to raw estimates for `model`: 1 until calibrated.
 *
 * @example
 * calibrationFactor(createCalibrationState(), { model: "gemini-2.5-pro" }) // 1
 */
export function calibrationFactor(
  state: CalibrationState | undefined,
  { model }: { model?: string | undefined },
): number {
  if (state === undefined) return 1;
  return state.models[tokenizerProfileFor({ model }).key]?.factor ?? 1;
}

/**
 * A raw estimate times a factor, rounded up.
 *
 * @example
 * applyCalibration({ estimate: 1000, factor: 1.125 }) // 1125
 */
export function applyCalibration({ estimate, factor }: { estimate: number; factor: number }): number {
  return factor === 1 ? estimate : Math.ceil(estimate * factor - 1e-9);
}

/**
 * Reads a stored calibration leniently: unusable entries are dropped and factors are put back
 * within bounds, so a damaged or older value never breaks a session (it only loses what it learned).
 *
 * @example
 * const calibration = parseCalibrationState(JSON.parse(saved));
 */
export function parseCalibrationState(value: unknown): CalibrationState {
  const state = createCalibrationState();
  if (value === null || typeof value !== "object") return state;
  const models = (value as { models?: unknown }).models;
  if (models === null || typeof models !== "object") return state;
  for (const [key, entry] of Object.entries(models as Record<string, unknown>)) {
    if (entry === null || typeof entry !== "object") continue;
    const { factor, samples, lastRatio } = entry as Record<string, unknown>;
    if (typeof factor !== "number" || !Number.isFinite(factor)) continue;
    if (typeof samples !== "number" || !Number.isSafeInteger(samples) || samples < 1) continue;
    state.models[key] = {
      factor: clampFactor(factor),
      samples,
      lastRatio: typeof lastRatio === "number" && Number.isFinite(lastRatio) ? lastRatio : factor,
    };
  }
  return state;
}

function clampFactor(factor: number): number {
  return Math.min(CALIBRATION_FACTOR_BOUNDS.maximum, Math.max(CALIBRATION_FACTOR_BOUNDS.minimum, factor));
}
