/**
 * Terminal rendering of a context timeline (`ctxwin history usage`, the demo's report): one
 * sparkline per window, one bar per request scaled to the window's context limit, then a table
 * per window. Unicode block characters, or plain ASCII where the terminal may not show them.
 */
import { formatUsd } from "../../core/chart/format-usd.js";
import type { Spend } from "../../core/budget/step-spend.js";
import type { Timeline, TimelinePoint, TimelineWindow } from "../../core/timeline/timeline-types.js";
import { formatTokens } from "./budget-bar.js";

const UNICODE_LEVELS = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];
const ASCII_LEVELS = ["_", ".", "-", ":", "=", "+", "*", "#"];

/** Most requests a sparkline shows one by one; longer windows show the peak of each slice. */
export const SPARKLINE_WIDTH = 40;

export interface ChartOptions {
  /** Plain ASCII instead of Unicode block characters. */
  ascii?: boolean;
  width?: number;
}

/**
 * Whether the terminal is likely to show Unicode: the locale names UTF-8 (LC_ALL, LC_CTYPE or
 * LANG, first one set wins), or Windows Terminal. Without any locale, ASCII is the safe choice.
 *
 * @example wantsUnicode({ env: { LANG: "en_US.UTF-8" } }) // true
 */
export function wantsUnicode({ env = process.env }: { env?: NodeJS.ProcessEnv } = {}): boolean {
  if ((env["WT_SESSION"] ?? "") !== "") return true;
  const locale = env["LC_ALL"] || env["LC_CTYPE"] || env["LANG"] || "";
  return /utf-?8/i.test(locale);
}

/**
 * One sparkline per window, for a report or `ctxwin history usage`.
 *
 * @example
 * renderTimelineChart(timeline)
 * // "#1 w:0        ▂▅▆▆▇  peak 7,100 / 10,000 (71%) · warned at 6,300 · rolled over at 7,100 (on-send)"
 */
export function renderTimelineChart(
  timeline: Timeline,
  { ascii = false, width = SPARKLINE_WIDTH }: ChartOptions = {},
): string {
  if (timeline.windows.length === 0) return "No windows.";
  const levels = ascii ? ASCII_LEVELS : UNICODE_LEVELS;
  const pointsByWindow = groupPoints(timeline.points);
  const scale = Math.max(1, ...timeline.points.map((point) => point.tokens));
  const labelWidth = Math.max(...timeline.windows.map((window) => windowLabel(window).length));
  const sparkWidth = Math.min(
    width,
    Math.max(1, ...timeline.windows.map((window) => pointsByWindow.get(window.windowId)?.length ?? 1)),
  );
  const lines = [headline(timeline, ascii ? "|" : "·")];
  for (const window of timeline.windows) {
    const points = pointsByWindow.get(window.windowId) ?? [];
    const spark = window.detailed
      ? sparkline(points, { limit: window.limit ?? scale, width: sparkWidth, levels })
      : "(not read)";
    lines.push(
      `${windowLabel(window).padEnd(labelWidth)}  ${spark.padEnd(sparkWidth)}  ${windowSummary(window, ascii)}`,
    );
  }
  return lines.join("\n");
}

/**
 * The per-window table: requests, peak tokens, warning at, rolled over at, rows, tool output, the
 * share of the window's input read from the provider's cache, and its estimated cost.
 *
 * @example renderTimelineTable(timeline).split("\n")[0] // "window  kind  requests  peak  …"
 */
export function renderTimelineTable(timeline: Timeline): string {
  const header = [
    "window",
    "kind",
    "requests",
    "peak tokens",
    "warning at",
    "rolled over at",
    "rows",
    "tool output",
    "cached",
    "cost",
  ];
  const body = timeline.windows.map((window) => [
    window.windowId,
    window.kind === "start" ? "start" : window.reason === null ? window.kind : `${window.kind} (${window.reason})`,
    optional(window.requests),
    optional(window.peakTokens),
    window.warning === null
      ? window.detailed
        ? "-"
        : "?"
      : `${optional(window.warning.tokens)} #${window.warning.seq}`,
    window.rolledOver === null ? "-" : `${optional(window.rolledOver.tokens)} #${window.rolledOver.seq}`,
    formatTokens(window.rows),
    optional(window.toolOutputTokens),
    window.spend === null ? "?" : window.spend.requests === 0 ? "-" : formatShare(window.spend.cachedShare),
    window.spend === null ? "?" : window.spend.costUsd === null ? "-" : formatUsd(window.spend.costUsd),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((cells) => (cells[column] ?? "").length)),
  );
  const format = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column >= 2 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  return [format(header), ...body.map(format)].join("\n");
}

/**
 * One line on what the requests read row by row spent: their input, the part read from the
 * provider's prompt cache, and the estimated cost beside the same tokens without a cache.
 *
 * @example renderSpendLine(timeline.spend) // "Input of 12 requests: 48,200 tokens, 91% read from the cache …"
 */
export function renderSpendLine(spend: Spend): string {
  if (spend.requests === 0) return "No request reported its usage yet.";
  const cache =
    `${formatShare(spend.cachedShare)} read from the cache ` +
    `(${formatTokens(spend.cacheReadTokens)}), ${formatTokens(spend.cacheWriteTokens)} written to it`;
  const cost =
    spend.costUsd === null || spend.uncachedCostUsd === null
      ? "cost unknown (no public price for a model of these requests: tokens only)"
      : `estimated cost ${formatUsd(spend.costUsd)} (${formatUsd(spend.uncachedCostUsd)} without a cache)`;
  return (
    `Input of ${plural(spend.requests, "request")}: ` +
    `${formatTokens(spend.inputTokens)} tokens, ${cache}; ${formatTokens(spend.outputTokens)} output tokens; ${cost}.`
  );
}

function formatShare(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** Bars of one window's requests: each scaled to the limit, the peak of each slice when there are more than `width`. */
export function sparkline(
  points: readonly TimelinePoint[],
  { limit, width, levels }: { limit: number; width: number; levels: readonly string[] },
): string {
  if (points.length === 0) return "";
  const slices = Math.min(width, points.length);
  let line = "";
  for (let slice = 0; slice < slices; slice += 1) {
    const start = Math.floor((slice * points.length) / slices);
    const end = Math.floor(((slice + 1) * points.length) / slices);
    let peak = 0;
    for (let index = start; index < end; index += 1) peak = Math.max(peak, points[index]?.tokens ?? 0);
    const share = Math.min(1, peak / Math.max(1, limit));
    line += levels[Math.min(levels.length - 1, Math.max(0, Math.ceil(share * levels.length) - 1))];
  }
  return line;
}

function headline(timeline: Timeline, separator: string): string {
  const windows = timeline.windows.length;
  const requests = timeline.points.length;
  const detailed = timeline.windows.filter((window) => window.detailed).length;
  const limits = [
    ...new Set(timeline.windows.map((window) => window.limit).filter((limit): limit is number => limit !== null)),
  ];
  const lines = timeline.windows.find((window) => window.lines !== null)?.lines;
  const limitText =
    limits.length === 0
      ? "limit unknown"
      : limits.length === 1
        ? `limit ${formatTokens(limits[0] ?? 0)}`
        : `limits ${limits.map(formatTokens).join(", ")}`;
  const bands =
    lines === undefined || lines === null
      ? ""
      : [
          lines.warnAt === null ? undefined : `warn from ${formatTokens(lines.warnAt)}`,
          lines.threshold === null ? undefined : `threshold ${formatTokens(lines.threshold)}`,
          `ceiling ${formatTokens(lines.hardCeiling)}`,
        ]
          .filter((part) => part !== undefined)
          .join(", ");
  const read =
    detailed === windows
      ? ""
      : ` (the newest ${detailed} of ${windows} windows read request by request; --windows all reads every one)`;
  return (
    `Context timeline of ${timeline.sessionId}: ${plural(windows, "window")}, ${plural(requests, "request")}${read} ` +
    `${separator} ${limitText}${bands === "" ? "" : ` (${bands})`}`
  );
}

function windowLabel(window: TimelineWindow): string {
  return `#${window.number} ${window.windowId}${window.active ? "*" : ""}`;
}

function windowSummary(window: TimelineWindow, ascii: boolean): string {
  const parts: string[] = [];
  if (window.kind === "compaction") parts.push("compacted");
  if (window.kind === "reset") parts.push("cleared");
  if (window.peakTokens !== null) {
    const percent = window.limit === null ? "" : ` (${Math.round((window.peakTokens / window.limit) * 100)}%)`;
    parts.push(
      `peak ${formatTokens(window.peakTokens)}${window.limit === null ? "" : ` / ${formatTokens(window.limit)}`}${percent}`,
    );
  }
  if (window.warning !== null) parts.push(`warned at ${optional(window.warning.tokens)}`);
  if (window.rolledOver !== null) {
    const reason = window.rolledOver.reason === null ? "" : ` (${window.rolledOver.reason})`;
    parts.push(`rolled over at ${optional(window.rolledOver.tokens)}${reason}`);
  }
  if (window.active) parts.push("active");
  return parts.join(ascii ? " | " : " · ");
}

function groupPoints(points: readonly TimelinePoint[]): Map<string, TimelinePoint[]> {
  const groups = new Map<string, TimelinePoint[]>();
  for (const point of points) {
    const group = groups.get(point.windowId);
    if (group === undefined) groups.set(point.windowId, [point]);
    else group.push(point);
  }
  return groups;
}

function optional(value: number | null): string {
  return value === null ? "?" : formatTokens(value);
}

function plural(count: number, noun: string): string {
  return `${formatTokens(count)} ${noun}${count === 1 ? "" : "s"}`;
}
