/**
 * Geometry of the context timeline: scales from rows (x) and tokens (y) to pixels, and the list of
 * things a person can focus and open (requests and marks, in row order). Pure, so the component
 * only draws.
 */
import { axisTicks, niceCeiling, type ChartBox } from "../../src/core/chart/chart-scale.js";
import type { TimelineMark, TimelinePoint, TimelineView, TimelineWindow } from "./api/timeline-types";
import { formatPercent, formatTokens, formatUsd, spendLine } from "./format";

export interface Scales {
  x: (seq: number) => number;
  y: (tokens: number) => number;
  /** Half the width of one row, at least a pixel. */
  rowWidth: number;
  maxTokens: number;
  ticks: number[];
}

/** Scales over the windows read row by row: x from their first to last row, y from 0 to the largest limit or request. */
export function scalesFor(view: TimelineView, box: ChartBox): Scales {
  const shown = shownWindows(view);
  const firstSeq = Math.min(...shown.map((window) => window.firstSeq), Number.POSITIVE_INFINITY);
  const lastSeq = Math.max(...shown.map((window) => window.lastSeq), Number.NEGATIVE_INFINITY);
  const low = Number.isFinite(firstSeq) ? firstSeq - 0.5 : 0;
  const high = Number.isFinite(lastSeq) ? lastSeq + 0.5 : 1;
  const limit = Math.max(0, ...shown.map((window) => window.limit ?? 0));
  const peak = Math.max(0, ...view.points.map((point) => point.tokens), ...view.marks.map((mark) => mark.tokens ?? 0));
  // The limit is the top when the figures fit under it; otherwise a little room above the peak
  // (an empty chart without a limit still gets a readable axis).
  const maxTokens = limit > 0 && peak <= limit ? limit : niceCeiling(Math.max(peak * 1.04, MIN_AXIS_TOKENS));
  const plotWidth = Math.max(1, box.width - box.left - box.right);
  const plotHeight = Math.max(1, box.height - box.top - box.bottom);
  return {
    x: (seq) => box.left + ((seq - low) / (high - low)) * plotWidth,
    y: (tokens) => box.top + plotHeight - (Math.max(0, tokens) / maxTokens) * plotHeight,
    rowWidth: Math.max(1, plotWidth / (high - low)),
    maxTokens,
    // Nothing to measure yet: the axis says 0 and nothing it does not know.
    ticks: peak === 0 && limit === 0 ? [0] : axisTicks(maxTokens),
  };
}

/** The smallest top of the y axis: below it the halfway tick would be a fraction of a token. */
const MIN_AXIS_TOKENS = 10;

/** The windows drawn in the chart: those read row by row. */
export function shownWindows(view: TimelineView): TimelineWindow[] {
  return view.windows.filter((window) => window.detailed);
}

/** Something on the chart a person can focus, read and open. */
export type TimelineItem =
  | { type: "point"; key: string; seq: number; point: TimelinePoint }
  | { type: "mark"; key: string; seq: number; mark: TimelineMark };

/** Requests and marks in row order (a request before a mark of the same row). */
export function timelineItems(view: TimelineView): TimelineItem[] {
  const items: TimelineItem[] = [
    ...view.points.map((point): TimelineItem => ({ type: "point", key: `p${point.seq}`, seq: point.seq, point })),
    ...view.marks
      .filter((mark) => isShown(view, mark.windowId))
      .map((mark): TimelineItem => ({ type: "mark", key: `m${mark.kind}${mark.seq}`, seq: mark.seq, mark })),
  ];
  return items.sort(
    (left, right) => left.seq - right.seq || (left.type === right.type ? 0 : left.type === "point" ? -1 : 1),
  );
}

function isShown(view: TimelineView, windowId: string): boolean {
  return view.detailWindowIds.includes(windowId);
}

const MARK_NAMES: Record<TimelineMark["kind"], string> = {
  warning: "Budget warning",
  notes: "Notes written",
  flush: "Notes flush step",
  rollover: "Rollover",
  compaction: "Compaction",
  clear: "Cleared by you",
};

/** The figures of an item, in one sentence (hover text, the live figures line, the accessible name). */
export function describeItem(item: TimelineItem, view: TimelineView): string {
  const window = view.windows.find(
    (candidate) => candidate.windowId === (item.type === "point" ? item.point.windowId : item.mark.windowId),
  );
  const where = `row #${item.seq}${window === undefined ? "" : `, window ${window.number}`}`;
  if (item.type === "point") {
    const { tokens, limit, source, outputTokens, toolOutputTokens, cacheReadTokens, costUsd } = item.point;
    const share = limit === null ? "" : ` (${formatPercent((tokens / limit) * 100)} of ${formatTokens(limit)})`;
    const extra = [
      cacheReadTokens === null || tokens <= 0 ? undefined : `${formatPercent((cacheReadTokens / tokens) * 100)} cached`,
      outputTokens === null ? undefined : `${formatTokens(outputTokens)} out`,
      toolOutputTokens > 0 ? `${formatTokens(toolOutputTokens)} tool output` : undefined,
      costUsd === null ? undefined : `~${formatUsd(costUsd)}`,
    ]
      .filter(Boolean)
      .join(", ");
    return `Request at ${where}: ${formatTokens(tokens)} tokens sent${source === "estimated" ? " (estimated)" : ""}${share}${extra === "" ? "" : `; ${extra}`}`;
  }
  const { kind, tokens, detail } = item.mark;
  const figure = tokens === null ? "" : ` at ${formatTokens(tokens)} tokens`;
  return `${MARK_NAMES[kind]} (${where})${figure}${detail === null ? "" : ` · ${detail}`}`;
}

/** One line about the windows shown, for when nothing is focused. */
export function describeWindows(view: TimelineView): string {
  const shown = shownWindows(view);
  if (view.overview.length === 0) return "No requests yet.";
  const first = shown[0];
  const last = shown.at(-1);
  const range =
    first === undefined || last === undefined
      ? ""
      : first === last
        ? `Window ${first.number}`
        : `Windows ${first.number}–${last.number}`;
  const requests = shown.reduce((sum, window) => sum + (window.requests ?? 0), 0);
  const peak = Math.max(0, ...shown.map((window) => window.peakTokens ?? 0));
  const spend = spendLine(view.spend);
  return (
    `${range} of ${view.overview.length}: ${requests} ${requests === 1 ? "request" : "requests"}, ` +
    `the largest ${formatTokens(peak)} tokens${spend === undefined ? "" : `; ${spend}`}.`
  );
}
