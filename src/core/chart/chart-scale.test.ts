import { describe, expect, it } from "vitest";
import { axisTicks, chartBox, niceCeiling, shortTokens } from "./chart-scale.js";

describe("axisTicks, niceCeiling and shortTokens", () => {
  it("keeps each label once and no fractional halfway tick", () => {
    expect(axisTicks(16_000)).toEqual([0, 8_000, 16_000]);
    expect(axisTicks(3)).toEqual([0, 3]);
    expect(axisTicks(1.2)).toEqual([0, 1.2]);
    expect(axisTicks(0)).toEqual([0]);
  });

  it("rounds an axis top up to a round figure, and has a top of 1 for nothing to show", () => {
    expect(niceCeiling(1_234)).toBe(1_500);
    expect(niceCeiling(16_000)).toBe(20_000);
    expect(niceCeiling(10)).toBe(10);
    expect([niceCeiling(0), niceCeiling(-5), niceCeiling(Number.NaN)]).toEqual([1, 1, 1]);
  });

  it("writes short axis labels", () => {
    expect([shortTokens(0), shortTokens(950), shortTokens(1_500), shortTokens(16_000), shortTokens(1_250_000)]).toEqual(
      ["0", "950", "1.5k", "16k", "1.3M"],
    );
  });

  it("gives a phone a shorter box with a narrower axis margin", () => {
    expect(chartBox(375)).toMatchObject({ width: 375, height: 180, left: 40 });
    expect(chartBox(900)).toMatchObject({ width: 900, height: 230, left: 56 });
  });
});
