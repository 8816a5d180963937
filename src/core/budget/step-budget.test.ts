import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors.js";
import {
  budgetBands,
  evaluateStepBudget,
  hardCeilingFor,
  type BudgetMoment,
  type StepBudgetInput,
} from "./step-budget.js";

// Limit 100,000 at the defaults: hard ceiling 91,808, warn band from 60,000, threshold 70,000, force band 75,000.
const limit = 100_000;

type Row = [
  moment: BudgetMoment,
  projected: number,
  warningEmitted: boolean,
  decision: string,
  reason: string,
  flushOpportunity: boolean,
];

const defaultBandRows: Row[] = [
  ["on-send", 0, false, "continue", "below-warn-band", false],
  ["on-send", 59_999, false, "continue", "below-warn-band", false],
  ["on-send", 60_000, false, "warn", "warn-band", true],
  ["on-send", 60_001, false, "warn", "warn-band", true],
  ["on-send", 60_000, true, "continue", "warning-already-emitted", true],
  ["on-send", 69_999, false, "warn", "warn-band", true],
  ["on-send", 69_999, true, "continue", "warning-already-emitted", true],
  ["on-send", 70_000, false, "rollover", "threshold", false],
  ["on-send", 70_000, true, "rollover", "threshold", true],
  ["on-send", 70_001, true, "rollover", "threshold", true],
  ["on-send", 74_999, false, "rollover", "threshold", false],
  ["on-send", 75_000, false, "rollover", "force-band", false],
  ["on-send", 91_807, true, "rollover", "force-band", true],
  ["on-send", 91_808, true, "rollover", "hard-ceiling", true],
  ["on-send", 91_809, false, "rollover", "hard-ceiling", false],
  ["after-step", 0, false, "continue", "below-warn-band", false],
  ["after-step", 59_999, false, "continue", "below-warn-band", false],
  ["after-step", 59_999, true, "continue", "below-warn-band", true],
  ["after-step", 60_000, false, "warn", "warn-band", true],
  ["after-step", 69_999, false, "warn", "warn-band", true],
  ["after-step", 70_000, false, "warn", "warn-band", true],
  ["after-step", 70_000, true, "continue", "warning-already-emitted", true],
  ["after-step", 74_999, false, "warn", "warn-band", true],
  ["after-step", 74_999, true, "continue", "warning-already-emitted", true],
  ["after-step", 75_000, false, "rollover", "force-band", false],
  ["after-step", 75_000, true, "rollover", "force-band", true],
  ["after-step", 75_001, true, "rollover", "force-band", true],
  ["after-step", 91_807, true, "rollover", "force-band", true],
  ["after-step", 91_808, true, "rollover", "hard-ceiling", true],
  ["after-step", 91_809, true, "rollover", "hard-ceiling", true],
];

function decide(input: Partial<StepBudgetInput> & { moment: BudgetMoment; contextTokens: number }) {
  return evaluateStepBudget({ limit, ...input });
}

describe("hardCeilingFor", () => {
  it.each([
    [200_000, 191_808],
    [128_000, 119_808],
    [100_000, 91_808],
    [32_769, 24_577],
    [32_768, 24_576], // floor(0.25 × limit) equals the reserve
    [32_767, 24_576], // from here down a quarter of the limit is the smaller reserve
    [16_000, 12_000],
    [1_000, 750],
    [4, 3],
    [3, 3], // floor(0.75) is 0: nothing can be reserved
    [1, 1],
  ])("limit %i → ceiling %i", (contextLimit, ceiling) => {
    expect(hardCeilingFor({ limit: contextLimit })).toBe(ceiling);
  });

  it("uses a custom output reserve while it is under a quarter of the limit", () => {
    expect(hardCeilingFor({ limit: 100_000, outputReserve: 4_000 })).toBe(96_000);
    expect(hardCeilingFor({ limit: 100_000, outputReserve: 40_000 })).toBe(75_000);
  });
});

describe("budgetBands", () => {
  it("places the edges at whole tokens, free of floating-point noise", () => {
    expect(budgetBands({ limit })).toEqual({
      proactive: true,
      hardCeiling: 91_808,
      warnAt: 60_000,
      thresholdAt: 70_000,
      forceAt: 75_000,
    });
    expect(budgetBands({ limit: 1_000 })).toEqual({
      proactive: true,
      hardCeiling: 750,
      warnAt: 600,
      thresholdAt: 700,
      forceAt: 750,
    });
    // A fractional edge rounds up: 0.7 × 1,001 = 700.7 → 701.
    expect(budgetBands({ limit: 1_001 })).toEqual({
      proactive: true,
      hardCeiling: 751,
      warnAt: 601,
      thresholdAt: 701,
      forceAt: 751,
    });
    expect(budgetBands({ limit: 3, threshold: 0.3 })).toEqual({
      proactive: true,
      hardCeiling: 3,
      warnAt: 1,
      thresholdAt: 1,
      forceAt: 2,
    });
  });

  it("caps the force band at the hard ceiling and clamps the warn band at zero", () => {
    expect(budgetBands({ limit: 16_000, threshold: 0.9 })).toEqual({
      proactive: true,
      hardCeiling: 12_000,
      warnAt: 12_800,
      thresholdAt: 14_400,
      forceAt: 12_000,
    });
    expect(budgetBands({ limit, threshold: 0.05 })).toMatchObject({ warnAt: 0, thresholdAt: 5_000, forceAt: 10_000 });
  });

  it("has only the hard ceiling when the threshold is 1 or more", () => {
    expect(budgetBands({ limit, threshold: 1 })).toEqual({ proactive: false, hardCeiling: 91_808 });
    expect(budgetBands({ limit, threshold: Number.POSITIVE_INFINITY })).toEqual({
      proactive: false,
      hardCeiling: 91_808,
    });
  });
});

describe("evaluateStepBudget at the default bands (limit 100,000)", () => {
  it.each(defaultBandRows)(
    "%s, projected %i, warned %s → %s (%s), flush %s",
    (moment, projected, warningEmitted, decision, reason, flushOpportunity) => {
      const result = decide({ moment, contextTokens: projected, warningEmitted });
      expect(result).toMatchObject({
        decision,
        reason,
        flushOpportunity,
        projected,
        limitKnown: true,
        limit,
        hardCeiling: 91_808,
      });
    },
  );

  it("projects the next request from every pending part", () => {
    const result = decide({
      moment: "after-step",
      contextTokens: 58_000,
      outputTokens: 500,
      pendingToolResultTokens: 400,
      pendingInputTokens: 76,
      images: 1,
    });
    expect(result.projected).toBe(60_000);
    expect(result.decision).toBe("warn");
    expect(
      decide({
        moment: "after-step",
        contextTokens: 58_000,
        outputTokens: 500,
        pendingToolResultTokens: 400,
        pendingInputTokens: 75,
        images: 1,
      }).decision,
    ).toBe("continue");
    expect(decide({ moment: "on-send", contextTokens: 0, images: 3, imageTokens: 20_000 }).projected).toBe(60_000);
  });
});

describe("evaluateStepBudget: the warning turn must fit under the ceiling", () => {
  it.each([
    ["after-step", 60_000, 31_808, "warn", "warn-band", true],
    ["after-step", 60_000, 31_809, "rollover", "warning-does-not-fit", false],
    ["on-send", 69_999, 21_809, "warn", "warn-band", true],
    ["on-send", 69_999, 21_810, "rollover", "warning-does-not-fit", false],
    ["after-step", 74_999, 16_809, "warn", "warn-band", true],
    ["after-step", 74_999, 16_810, "rollover", "warning-does-not-fit", false],
  ] as const)(
    "%s, projected %i, warning turn %i → %s",
    (moment, projected, warningTurnTokens, decision, reason, flushOpportunity) => {
      expect(decide({ moment, contextTokens: projected, warningTurnTokens })).toMatchObject({
        decision,
        reason,
        flushOpportunity,
      });
    },
  );

  it("does not check the fit once the warning was emitted", () => {
    expect(
      decide({ moment: "after-step", contextTokens: 74_999, warningTurnTokens: 50_000, warningEmitted: true }),
    ).toMatchObject({
      decision: "continue",
      reason: "warning-already-emitted",
    });
  });
});

describe("evaluateStepBudget with tiny limits, where the quarter-of-limit reserve dominates", () => {
  // Limit 1,000: reserve 250, ceiling 750, warn 600, threshold 700, force band = ceiling = 750.
  it.each([
    ["on-send", 599, 0, "continue", "below-warn-band"],
    ["on-send", 600, 150, "warn", "warn-band"],
    ["on-send", 600, 151, "rollover", "warning-does-not-fit"],
    ["on-send", 600, 2_500, "rollover", "warning-does-not-fit"],
    ["on-send", 699, 0, "warn", "warn-band"],
    ["on-send", 700, 0, "rollover", "threshold"],
    ["on-send", 749, 0, "rollover", "threshold"],
    ["on-send", 750, 0, "rollover", "hard-ceiling"],
    ["after-step", 749, 0, "warn", "warn-band"],
    ["after-step", 749, 1, "warn", "warn-band"],
    ["after-step", 749, 2, "rollover", "warning-does-not-fit"],
    ["after-step", 750, 0, "rollover", "hard-ceiling"],
    ["after-step", 751, 0, "rollover", "hard-ceiling"],
  ] as const)(
    "%s, projected %i, warning turn %i → %s (%s)",
    (moment, projected, warningTurnTokens, decision, reason) => {
      const result = evaluateStepBudget({ moment, limit: 1_000, contextTokens: projected, warningTurnTokens });
      expect(result).toMatchObject({ decision, reason, hardCeiling: 750 });
    },
  );

  it("handles a limit of one token", () => {
    expect(evaluateStepBudget({ moment: "on-send", limit: 1, contextTokens: 0 })).toMatchObject({
      decision: "continue",
      hardCeiling: 1,
    });
    expect(evaluateStepBudget({ moment: "on-send", limit: 1, contextTokens: 1 })).toMatchObject({
      decision: "rollover",
      reason: "hard-ceiling",
    });
  });

  it("makes the force band start at the ceiling when threshold + 0.05 is above it", () => {
    const at = (projected: number) =>
      evaluateStepBudget({
        moment: "after-step",
        limit: 16_000,
        threshold: 0.9,
        contextTokens: projected,
        warningEmitted: true,
      });
    expect(at(11_999).decision).toBe("continue");
    expect(at(12_000)).toMatchObject({ decision: "rollover", reason: "hard-ceiling" });
  });
});

describe("evaluateStepBudget with proactive action disabled (threshold ≥ 1)", () => {
  it.each([
    [1, "on-send", 91_807, "continue", "proactive-disabled"],
    [1, "on-send", 91_808, "continue", "proactive-disabled"],
    [1, "on-send", 91_809, "block", "over-hard-ceiling"],
    [1, "after-step", 91_808, "continue", "proactive-disabled"],
    [1, "after-step", 91_809, "block", "over-hard-ceiling"],
    [1.5, "after-step", 80_000, "continue", "proactive-disabled"],
    [Number.POSITIVE_INFINITY, "on-send", 99_999, "block", "over-hard-ceiling"],
  ] as const)("threshold %s, %s, projected %i → %s", (threshold, moment, projected, decision, reason) => {
    expect(decide({ moment, contextTokens: projected, threshold })).toMatchObject({ decision, reason });
  });

  it("never warns", () => {
    expect(decide({ moment: "after-step", contextTokens: 65_000, threshold: 1 }).decision).toBe("continue");
  });
});

describe("evaluateStepBudget with an unknown limit", () => {
  it("makes no decision and says the limit is unknown", () => {
    const result = evaluateStepBudget({
      moment: "on-send",
      limit: undefined,
      contextTokens: 5_000_000,
      outputTokens: 1,
    });
    expect(result).toEqual({
      limitKnown: false,
      decision: "continue",
      reason: "unknown-limit",
      projected: 5_000_001,
      limit: undefined,
      hardCeiling: undefined,
      flushOpportunity: false,
      bands: undefined,
    });
  });

  it("still refuses malformed numbers", () => {
    expect(() => evaluateStepBudget({ moment: "on-send", limit: undefined, contextTokens: -1 })).toThrow(
      InvalidArgumentError,
    );
  });
});

describe("evaluateStepBudget refuses malformed input", () => {
  const valid = { moment: "on-send" as const, limit, contextTokens: 1_000 };
  it.each([
    ["limit", { limit: 0 }],
    ["limit", { limit: -1 }],
    ["limit", { limit: 1.5 }],
    ["limit", { limit: Number.NaN }],
    ["limit", { limit: Number.POSITIVE_INFINITY }],
    ["contextTokens", { contextTokens: -1 }],
    ["contextTokens", { contextTokens: Number.NaN }],
    ["contextTokens", { contextTokens: 0.5 }],
    ["contextTokens", { contextTokens: Number.POSITIVE_INFINITY }],
    ["outputTokens", { outputTokens: -5 }],
    ["pendingToolResultTokens", { pendingToolResultTokens: Number.NaN }],
    ["pendingInputTokens", { pendingInputTokens: -1 }],
    ["images", { images: -1 }],
    ["images", { images: 0.5 }],
    ["imageTokens", { imageTokens: 0, images: 1 }],
    ["threshold", { threshold: 0 }],
    ["threshold", { threshold: -0.7 }],
    ["threshold", { threshold: Number.NaN }],
    ["outputReserve", { outputReserve: 0 }],
    ["outputReserve", { outputReserve: -8192 }],
    ["warningTurnTokens", { warningTurnTokens: -1 }],
    ["moment", { moment: "later" }],
    ["warningEmitted", { warningEmitted: "yes" }],
  ])("%s: %j", (name, override) => {
    const call = () => evaluateStepBudget({ ...valid, ...(override as Partial<StepBudgetInput>) });
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow(new RegExp(name));
  });

  it("accepts zero token counts: a fresh window has none", () => {
    expect(
      evaluateStepBudget({
        moment: "on-send",
        limit,
        contextTokens: 0,
        outputTokens: 0,
        images: 0,
        warningTurnTokens: 0,
      }).decision,
    ).toBe("continue");
  });
});

describe("evaluateStepBudget properties", () => {
  const severity = { continue: 0, warn: 1, rollover: 2, block: 3 } as const;
  const inputs = fc.record({
    limit: fc.integer({ min: 1, max: 2_000_000 }),
    projected: fc.integer({ min: 0, max: 3_000_000 }),
    threshold: fc.oneof(fc.double({ min: 0.01, max: 0.99, noNaN: true }), fc.constantFrom(1, 2)),
    warningEmitted: fc.boolean(),
    warningTurnTokens: fc.integer({ min: 0, max: 10_000 }),
  });

  it("never lets a request at or over the ceiling continue, and blocks only when proactive action is off", () => {
    fc.assert(
      fc.property(
        inputs,
        fc.constantFrom<BudgetMoment>("on-send", "after-step"),
        ({ limit: contextLimit, projected, threshold, warningEmitted, warningTurnTokens }, moment) => {
          const result = evaluateStepBudget({
            moment,
            limit: contextLimit,
            contextTokens: projected,
            threshold,
            warningEmitted,
            warningTurnTokens,
          });
          if (!result.limitKnown) throw new Error("limit is known here");
          if (threshold >= 1) {
            expect(result.decision).toBe(projected > result.hardCeiling ? "block" : "continue");
          } else {
            expect(result.decision).not.toBe("block");
            if (projected >= result.hardCeiling) expect(result.decision).toBe("rollover");
            if (result.decision === "warn") {
              expect(warningEmitted).toBe(false);
              expect(projected + warningTurnTokens).toBeLessThanOrEqual(result.hardCeiling);
            }
          }
        },
      ),
    );
  });

  it("is never less strict on send than after a step", () => {
    fc.assert(
      fc.property(inputs, ({ limit: contextLimit, projected, threshold, warningEmitted, warningTurnTokens }) => {
        const common = { limit: contextLimit, contextTokens: projected, threshold, warningEmitted, warningTurnTokens };
        const onSend = evaluateStepBudget({ moment: "on-send", ...common });
        const afterStep = evaluateStepBudget({ moment: "after-step", ...common });
        expect(severity[onSend.decision]).toBeGreaterThanOrEqual(severity[afterStep.decision]);
      }),
    );
  });
});
