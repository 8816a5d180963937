import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors.js";
import {
  CALIBRATION_FACTOR_BOUNDS,
  MINIMUM_CALIBRATION_SAMPLE_TOKENS,
  applyCalibration,
  calibrationFactor,
  createCalibrationState,
  parseCalibrationState,
  updateCalibration,
} from "./calibration.js";

const model = "anthropic:claude-sonnet-4-5";

describe("calibration", () => {
  it("is 1 until a model has a sample: never below the raw estimate", () => {
    const state = createCalibrationState();
    expect(calibrationFactor(state, { model })).toBe(1);
    expect(calibrationFactor(undefined, { model })).toBe(1);
    expect(applyCalibration({ estimate: 12_345, factor: calibrationFactor(state, { model }) })).toBe(12_345);
  });

  it.each([
    // [estimated, reported, factor after one sample]
    [10_000, 11_200, 1.12],
    [10_000, 10_000, 1],
    [10_000, 9_000, 0.9],
    [10_000, 5_000, CALIBRATION_FACTOR_BOUNDS.minimum],
    [10_000, 50_000, CALIBRATION_FACTOR_BOUNDS.maximum],
  ])("estimated %i, reported %i → factor %s", (estimated, reported, factor) => {
    const state = updateCalibration(createCalibrationState(), { model, estimated, reported });
    expect(calibrationFactor(state, { model })).toBeCloseTo(factor, 10);
    expect(state.models["anthropic:claude-sonnet-4-5"]?.samples).toBe(1);
  });

  it("rises at once on an underestimate and falls a quarter of the way on an overestimate", () => {
    let state = updateCalibration(createCalibrationState(), { model, estimated: 10_000, reported: 11_000 });
    state = updateCalibration(state, { model, estimated: 10_000, reported: 13_000 });
    expect(calibrationFactor(state, { model })).toBeCloseTo(1.3, 10);
    state = updateCalibration(state, { model, estimated: 10_000, reported: 10_000 });
    expect(calibrationFactor(state, { model })).toBeCloseTo(1.3 + 0.25 * (1 - 1.3), 10);
    expect(state.models["anthropic:claude-sonnet-4-5"]).toMatchObject({ samples: 3, lastRatio: 1 });
  });

  it("keeps models apart and treats spellings of one model alike", () => {
    const state = updateCalibration(createCalibrationState(), {
      model: "claude-sonnet-4-5",
      estimated: 10_000,
      reported: 12_000,
    });
    expect(calibrationFactor(state, { model: "ANTHROPIC:claude-sonnet-4-5" })).toBeCloseTo(1.2, 10);
    expect(calibrationFactor(state, { model: "gemini-2.5-pro" })).toBe(1);
  });

  it("ignores samples that carry no information", () => {
    const state = createCalibrationState();
    expect(updateCalibration(state, { model, estimated: MINIMUM_CALIBRATION_SAMPLE_TOKENS - 1, reported: 2_000 })).toBe(
      state,
    );
    expect(updateCalibration(state, { model, estimated: 10_000, reported: undefined })).toBe(state);
    expect(updateCalibration(state, { model, estimated: 10_000, reported: 0 })).toBe(state);
    expect(
      calibrationFactor(
        updateCalibration(state, { model, estimated: MINIMUM_CALIBRATION_SAMPLE_TOKENS, reported: 1_024 }),
        { model },
      ),
    ).toBe(2);
  });

  it("never changes the state it was given", () => {
    const state = createCalibrationState();
    const snapshot = JSON.stringify(state);
    updateCalibration(state, { model, estimated: 10_000, reported: 12_000 });
    expect(JSON.stringify(state)).toBe(snapshot);
  });

  it.each([
    [{ estimated: -1, reported: 10 }, /estimated/],
    [{ estimated: Number.NaN, reported: 10 }, /estimated/],
    [{ estimated: 1.5, reported: 10 }, /estimated/],
    [{ estimated: 1_000, reported: -3 }, /reported/],
    [{ estimated: 1_000, reported: Number.POSITIVE_INFINITY }, /reported/],
  ])("refuses %j", (sample, message) => {
    expect(() => updateCalibration(createCalibrationState(), { model, ...sample })).toThrow(InvalidArgumentError);
    expect(() => updateCalibration(createCalibrationState(), { model, ...sample })).toThrow(message);
  });

  it("stays within bounds whatever the samples", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            estimated: fc.integer({ min: 0, max: 2_000_000 }),
            reported: fc.integer({ min: 0, max: 6_000_000 }),
          }),
        ),
        (samples) => {
          let state = createCalibrationState();
          for (const sample of samples) state = updateCalibration(state, { model, ...sample });
          const factor = calibrationFactor(state, { model });
          if (state.models["anthropic:claude-sonnet-4-5"] === undefined) expect(factor).toBe(1);
          expect(factor).toBeGreaterThanOrEqual(CALIBRATION_FACTOR_BOUNDS.minimum);
          expect(factor).toBeLessThanOrEqual(CALIBRATION_FACTOR_BOUNDS.maximum);
        },
      ),
    );
  });

  it("survives a JSON round trip, and a damaged stored value loses only what it learned", () => {
    const state = updateCalibration(createCalibrationState(), { model, estimated: 10_000, reported: 12_500 });
    expect(parseCalibrationState(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(parseCalibrationState("garbage")).toEqual(createCalibrationState());
    expect(parseCalibrationState(null)).toEqual(createCalibrationState());
    const damaged = parseCalibrationState({
      version: 1,
      models: {
        good: { factor: 99, samples: 2, lastRatio: 99 },
        bad: { factor: "x", samples: 1 },
        none: { factor: 1.1, samples: 0 },
        worse: null,
      },
    });
    expect(damaged).toEqual({
      version: 1,
      models: { good: { factor: CALIBRATION_FACTOR_BOUNDS.maximum, samples: 2, lastRatio: 99 } },
    });
  });

  it("rounds calibrated estimates up without floating-point noise", () => {
    expect(applyCalibration({ estimate: 1_000, factor: 1.12 })).toBe(1_120);
    expect(applyCalibration({ estimate: 1_000, factor: 1.1201 })).toBe(1_121);
    expect(applyCalibration({ estimate: 1_000, factor: 0.8 })).toBe(800);
  });
});
