/**
 * Per-session calibration of our token estimates against the input tokens the provider reports
 * (docs/design.md §5), on `core/budget/calibration`. It is persisted with the session by construction:
 * every step row stores our estimate of its request next to the reported figure, and a new session
 * object learns again from the stored rows of the active window.
 */
import type { LanguageModel } from "ai";
import {
  calibrationFactor,
  createCalibrationState,
  updateCalibration,
  type CalibrationState,
} from "../core/budget/calibration.js";
import { readStepMetadata } from "../core/rollover/step-usage.js";
import { modelKey } from "./budget-policy.js";

/**
 * @example
 * const calibration = createSessionCalibration();
 * calibration.learn(model, { estimated: 10_000, reported: 11_200 });
 * calibration.factor(model) // 1.12
 */
export function createSessionCalibration() {
  let state: CalibrationState = createCalibrationState();
  let seeded = false;
  const learn = ({
    model,
    estimated,
    reported,
  }: {
    model: string;
    estimated: number;
    reported: number | undefined;
  }) => {
    state = updateCalibration(state, {
      model,
      estimated: Math.max(0, Math.round(estimated)),
      reported: reported === undefined ? undefined : Math.max(0, Math.round(reported)),
    });
  };
  return {
    /** The learned state, for `estimateRequestTokens({ calibration })`. */
    state(): CalibrationState {
      return state;
    },
    /** Multiplier for our estimates of requests to `model` (1 until calibrated). */
    factor(model: LanguageModel): number {
      return calibrationFactor(state, { model: modelKey(model) });
    },
    learn(model: LanguageModel, { estimated, reported }: { estimated: number; reported: number | undefined }): void {
      learn({ model: modelKey(model), estimated, reported });
    },
    /** Learns once from stored step rows (after a restart), oldest first. */
    seedOnce(rows: readonly { role: string; metadata?: unknown }[]): void {
      if (seeded) return;
      seeded = true;
      for (const row of rows) {
        if (row.role !== "assistant") continue;
        const step = readStepMetadata(row);
        if (step?.estimatedInputTokens === undefined) continue;
        learn({ model: step.model, estimated: step.estimatedInputTokens, reported: step.usage.inputTokens });
      }
    },
  };
}

export type SessionCalibration = ReturnType<typeof createSessionCalibration>;
