import { describe, expect, it } from "vitest";
import { barShapes, scoreChart, scoreText, tokenChart, type StrategyFigures } from "./strategy-charts.js";

const row = (strategy: string, fields: Partial<StrategyFigures> = {}): StrategyFigures => ({
  strategy,
  items: 2,
  failed: 0,
  blocked: 0,
  score: 0.5,
  inputTokens: 10_000,
  outputTokens: 2_000,
  costUsd: null,
  rollovers: 1,
  compactions: 0,
  historyCalls: 2,
  ...fields,
});

describe("strategy charts", () => {
  it("draws each strategy's score from 0 to 100% with its figure and what it is the mean of", () => {
    const chart = scoreChart([row("rollover", { score: 0.75 }), row("off", { score: null, failed: 1, blocked: 1 })]);
    expect(chart.top).toBe(1);
    expect(chart.tick(0.5)).toBe("50%");
    expect(chart.bars.map((bar) => [bar.label, bar.segments])).toEqual([
      ["75.0%", [0.75]],
      ["–", [0]],
    ]);
    expect(chart.bars[1]?.description).toBe("off: score – over 2 items, 1 failed, 1 blocked");
  });

  it("stacks output on input tokens, with a round axis top whose half is round too, and the cost when known", () => {
    const chart = tokenChart([
      row("rollover", { costUsd: 0.0123 }),
      row("compact", { inputTokens: 30_000, outputTokens: 5_000 }),
    ]);
    expect(chart.bars.map((bar) => bar.label)).toEqual(["12k · $0.0123", "35k"]);
    expect(chart.top).toBeGreaterThanOrEqual(35_000 * 1.1);
    expect(chart.top / 2).toBe(Math.round(chart.top / 2));
    expect(chart.bars[1]?.description).toContain("cost unknown");
  });

  it("takes the eval's summary rows (undefined where unknown) as the server's (null)", () => {
    const chart = tokenChart([row("rollover", { costUsd: undefined, score: undefined })]);
    expect(chart.bars[0]?.label).toBe("12k");
    expect(scoreChart([row("off", { score: undefined })]).bars[0]?.label).toBe("–");
    expect([scoreText(0.755), scoreText(null), scoreText(undefined)]).toEqual(["75.5%", "–", "–"]);
  });

  it("places the bars side by side in the box, segments stacked from the axis up", () => {
    const chart = tokenChart([row("rollover"), row("compact"), row("off")]);
    const { box, y, shapes } = barShapes(chart, 900);
    expect(shapes).toHaveLength(3);
    for (const [index, shape] of shapes.entries()) {
      const next = shapes[index + 1];
      if (next !== undefined) expect(shape.x + shape.width).toBeLessThan(next.x);
      const [input, output] = shape.rects;
      expect(input!.y + input!.height).toBeCloseTo(y(0));
      expect(output!.y + output!.height).toBeCloseTo(input!.y);
      expect(shape.labelY).toBeLessThan(output!.y);
    }
    expect(y(chart.top)).toBe(box.top);
  });
});
