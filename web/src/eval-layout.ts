/**
 * Geometry of the Eval view's bar charts: one bar per strategy of a suite, stacked segments from
 * the axis up, in the timeline's chart box and with its axis labels (timeline-layout.ts). Pure, so
 * the component only draws.
 */
import type { EvalSummaryRow } from "./api/eval-types";
import { formatTokens, formatUsd } from "./format";
import { chartBox, niceCeiling, shortTokens, type ChartBox } from "./timeline-layout";

export interface EvalBar {
  strategy: string;
  /** Stacked from the axis up: the first in the strategy's colour, the next lighter. */
  segments: number[];
  /** Above the bar. */
  label: string;
  /** The bar's figures in a sentence (hover, focus, accessible name). */
  description: string;
}

export interface EvalChart {
  title: string;
  bars: EvalBar[];
  /** The axis top. */
  top: number;
  tick: (value: number) => string;
}

const percent = (value: number | null) => (value === null ? "–" : `${(value * 100).toFixed(1)}%`);
const itemsLine = (row: EvalSummaryRow) =>
  `${row.items} ${row.items === 1 ? "item" : "items"}${row.failed > 0 ? `, ${row.failed} failed` : ""}${row.blocked > 0 ? `, ${row.blocked} blocked` : ""}`;

/** Each strategy's mean score, from 0 to 100%. */
export function scoreChart(rows: readonly EvalSummaryRow[]): EvalChart {
  return {
    title: "Score",
    top: 1,
    tick: (value) => `${Math.round(value * 100)}%`,
    bars: rows.map((row) => ({
      strategy: row.strategy,
      segments: [row.score ?? 0],
      label: percent(row.score),
      description: `${row.strategy}: score ${percent(row.score)} over ${itemsLine(row)}`,
    })),
  };
}

/** Each strategy's input and output tokens, stacked, with the cost on the label. */
export function tokenChart(rows: readonly EvalSummaryRow[]): EvalChart {
  const bars = rows.map((row) => {
    const cost = row.costUsd === null ? undefined : formatUsd(row.costUsd);
    return {
      strategy: row.strategy,
      segments: [row.inputTokens, row.outputTokens],
      label: `${shortTokens(row.inputTokens + row.outputTokens)}${cost === undefined ? "" : ` · ${cost}`}`,
      description: `${row.strategy}: ${formatTokens(row.inputTokens)} input and ${formatTokens(row.outputTokens)} output tokens${cost === undefined ? ", cost unknown" : `, ${cost}`}; ${row.rollovers} rollovers, ${row.compactions} compactions, ${row.historyCalls} history calls`,
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

/** The box (the timeline's, a little shorter) and every bar's rectangles for a container width. */
export function barShapes(
  chart: EvalChart,
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
