/**
 * The bar charts that compare a suite's strategies — each one's score, and its tokens with the
 * cost — for both faces of an eval run: the web UI's Eval view (React) and the static page of
 * `ctxwin eval --html` (SVG text). Both draw these bars, in this box, with these labels; only the
 * drawing differs. Pure, so the web UI bundles it (the layer lint lets web/ import src/core/chart/).
 */
import { chartBox, niceCeiling, shortTokens, type ChartBox } from "./chart-scale.js";
import { formatUsd } from "./format-usd.js";

/**
 * A strategy's figures in one suite, as the comparison table holds them: the eval's own summary
 * rows (`undefined` where unknown) and the server's view of them (`null`) both fit.
 */
export interface StrategyFigures {
  strategy: string;
  items: number;
  failed: number;
  blocked: number;
  /** Mean score, from 0 to 1. */
  score: number | null | undefined;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null | undefined;
  rollovers: number;
  compactions: number;
  historyCalls: number;
}

export interface StrategyBar {
  strategy: string;
  /** Stacked from the axis up: the first in the strategy's colour, the next lighter. */
  segments: number[];
  /** Above the bar. */
  label: string;
  /** The bar's figures in a sentence (hover, focus, accessible name). */
  description: string;
}

export interface StrategyChart {
  title: string;
  bars: StrategyBar[];
  /** The axis top. */
  top: number;
  tick: (value: number) => string;
}

/**
 * A share from 0 to 1 as a percentage with one decimal; `–` when unknown.
 *
 * @example scoreText(0.755) // "75.5%"
 */
export function scoreText(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : `${(value * 100).toFixed(1)}%`;
}

const count = (value: number) => Math.round(value).toLocaleString("en-US");

const itemsLine = ({ items, failed, blocked }: StrategyFigures) =>
  `${items} ${items === 1 ? "item" : "items"}${failed > 0 ? `, ${failed} failed` : ""}` +
  `${blocked > 0 ? `, ${blocked} blocked` : ""}`;

/**
 * Each strategy's mean score, from 0 to 100%.
 *
 * @example scoreChart(rows).bars[0] // { strategy: "rollover", segments: [0.75], label: "75.0%", … }
 */
export function scoreChart(rows: readonly StrategyFigures[]): StrategyChart {
  return {
    title: "Score",
    top: 1,
    tick: (value) => `${Math.round(value * 100)}%`,
    bars: rows.map((row) => ({
      strategy: row.strategy,
      segments: [row.score ?? 0],
      label: scoreText(row.score),
      description: `${row.strategy}: score ${scoreText(row.score)} over ${itemsLine(row)}`,
    })),
  };
}

/**
 * Each strategy's input and output tokens, stacked, with the cost on the label.
 *
 * @example tokenChart(rows).bars[0]?.label // "12k · $0.0123"
 */
export function tokenChart(rows: readonly StrategyFigures[]): StrategyChart {
  const bars = rows.map((row) => {
    const cost = row.costUsd === null || row.costUsd === undefined ? undefined : formatUsd(row.costUsd);
    const tokens = `${count(row.inputTokens)} input and ${count(row.outputTokens)} output tokens`;
    const calls = `${row.rollovers} rollovers, ${row.compactions} compactions, ${row.historyCalls} history calls`;
    return {
      strategy: row.strategy,
      segments: [row.inputTokens, row.outputTokens],
      label: `${shortTokens(row.inputTokens + row.outputTokens)}${cost === undefined ? "" : ` · ${cost}`}`,
      description: `${row.strategy}: ${tokens}${cost === undefined ? ", cost unknown" : `, ${cost}`}; ${calls}`,
    };
  });
  const peak = Math.max(1, ...bars.map((bar) => bar.segments.reduce((sum, value) => sum + value, 0)));
  // A round half as well as a round top: the middle tick is labelled too.
  return {
    title: "Tokens (input, output lighter) and cost",
    top: 2 * niceCeiling((peak * 1.1) / 2),
    tick: shortTokens,
    bars,
  };
}

export interface BarShape {
  strategy: string;
  x: number;
  width: number;
  /** Top to bottom of each segment, in the order of `segments`. */
  rects: Array<{ y: number; height: number }>;
  /** Where the label sits. */
  labelY: number;
}

/**
 * The box (the timeline's, a little shorter) and every bar's rectangles for a chart `width` wide.
 *
 * @example const { box, y, shapes } = barShapes(tokenChart(rows), 360);
 */
export function barShapes(
  chart: StrategyChart,
  width: number,
): { box: ChartBox; y: (value: number) => number; shapes: BarShape[] } {
  const box = { ...chartBox(width), height: width < 600 ? 170 : 200 };
  const plotWidth = Math.max(1, box.width - box.left - box.right);
  const plotHeight = Math.max(1, box.height - box.top - box.bottom);
  const y = (value: number) => box.top + plotHeight - (Math.max(0, value) / chart.top) * plotHeight;
  const slot = plotWidth / Math.max(1, chart.bars.length);
  const barWidth = Math.min(72, slot * 0.6);
  const shapes = chart.bars.map((bar, index) => {
    let base = 0;
    const rects = bar.segments.map((value) => {
      const rect = { y: y(base + value), height: Math.max(0, y(base) - y(base + value)) };
      base += value;
      return rect;
    });
    return {
      strategy: bar.strategy,
      x: box.left + slot * index + (slot - barWidth) / 2,
      width: barWidth,
      rects,
      labelY: y(base) - 5,
    };
  });
  return { box, y, shapes };
}
