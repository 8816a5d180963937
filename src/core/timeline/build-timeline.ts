/**
 * Builds a session's timeline from its window summaries (every window, cheap to read) and the
 * stored rows of the windows to show in detail. Boundaries and rollover figures come from the
 * summaries, so every window has its span and its rollover even when its rows were not read.
 */
import { budgetBands, hardCeilingFor } from "../budget/step-budget.js";
import { summarizeSpend } from "../budget/step-spend.js";
import { readStepMetadata, type StepMetadata } from "../rollover/step-usage.js";
import type { WindowKind } from "../windows.js";
import { isFlushStep, notesWriteOf, requestOf, toolOutputTokensOf, warningOf, type TimelineRow } from "./row-marks.js";
import type {
  Timeline,
  TimelineLines,
  TimelineMark,
  TimelineMarkKind,
  TimelinePoint,
  TimelineSettings,
  TimelineWindow,
} from "./timeline-types.js";

/** The fields of a window summary the timeline reads (the store port's `WindowSummary` has them). */
export interface TimelineWindowSummary {
  windowId: string;
  boundarySeq: number;
  kind: WindowKind;
  reason?: string | undefined;
  contextTokens?: number | undefined;
  maxTokens?: number | undefined;
  firstSeq: number;
  lastSeq: number;
  rowCount: number;
  startedAt: string;
  endedAt: string;
  active: boolean;
}

export interface BuildTimelineOptions {
  sessionId: string;
  /** Every window of the session, oldest first. */
  windows: readonly TimelineWindowSummary[];
  /** Rows of the windows shown in detail, keyed by window id, each in seq order. */
  details: ReadonlyMap<string, readonly TimelineRow[]>;
  settings: TimelineSettings;
}

const boundaryMarks: Partial<Record<WindowKind, TimelineMarkKind>> = {
  rollover: "rollover",
  compaction: "compaction",
  reset: "clear",
};

/**
 * @example
 * const timeline = buildTimeline({ sessionId: "s1", windows, details: new Map([["w:0", rows]]), settings });
 * timeline.windows[0].peakTokens // the largest request of the first window
 */
export function buildTimeline({ sessionId, windows, details, settings }: BuildTimelineOptions): Timeline {
  const points: TimelinePoint[] = [];
  const marks: TimelineMark[] = [];
  const allSteps: StepMetadata[] = [];
  const timelineWindows = windows.map((window, index): TimelineWindow => {
    const next = windows[index + 1];
    const boundaryMark = boundaryMarks[window.kind];
    if (boundaryMark !== undefined) {
      marks.push({
        kind: boundaryMark,
        seq: window.boundarySeq,
        windowId: window.windowId,
        at: window.startedAt,
        tokens: window.kind === "rollover" ? (window.contextTokens ?? null) : null,
        detail: window.reason ?? null,
      });
    }
    const rows = details.get(window.windowId);
    const detail = rows === undefined ? undefined : readWindowRows({ windowId: window.windowId, rows, points, marks });
    if (detail !== undefined) allSteps.push(...detail.steps);
    const closingRollover =
      next?.kind === "rollover"
        ? { seq: next.boundarySeq, tokens: next.contextTokens ?? null, reason: next.reason ?? null }
        : null;
    const limit =
      detail?.limit ??
      (next?.kind === "rollover" ? next.maxTokens : undefined) ??
      (window.kind === "rollover" ? window.maxTokens : undefined) ??
      null;
    return {
      windowId: window.windowId,
      number: index + 1,
      kind: window.kind,
      reason: window.reason ?? null,
      firstSeq: window.firstSeq,
      lastSeq: window.lastSeq,
      rows: window.rowCount,
      startedAt: window.startedAt,
      endedAt: window.endedAt,
      active: window.active,
      detailed: detail !== undefined,
      limit,
      lines: linesFor(limit, settings),
      requests: detail?.requests ?? null,
      peakTokens: detail?.peakTokens ?? null,
      warning: detail?.warning ?? null,
      rolledOver: closingRollover,
      toolOutputTokens: detail?.toolOutputTokens ?? null,
      spend: detail === undefined ? null : summarizeSpend(detail.steps),
    };
  });
  marks.sort((left, right) => left.seq - right.seq);
  return { sessionId, settings, windows: timelineWindows, points, marks, spend: summarizeSpend(allSteps) };
}

function readWindowRows({
  windowId,
  rows,
  points,
  marks,
}: {
  windowId: string;
  rows: readonly TimelineRow[];
  points: TimelinePoint[];
  marks: TimelineMark[];
}) {
  let requests = 0;
  let peakTokens: number | null = null;
  let limit: number | undefined;
  let toolOutputTokens = 0;
  let warning: { seq: number; tokens: number | null } | null = null;
  const steps: StepMetadata[] = [];
  for (const row of rows) {
    const step = row.role === "assistant" ? readStepMetadata(row) : undefined;
    if (step !== undefined) steps.push(step);
    const base = { seq: row.seq, windowId, at: row.createdAt };
    const rowToolTokens = toolOutputTokensOf(row);
    toolOutputTokens += rowToolTokens;
    const request = requestOf(row);
    if (request !== undefined) {
      requests += 1;
      peakTokens = Math.max(peakTokens ?? 0, request.tokens);
      if (request.limit !== null) limit = request.limit;
      points.push({ ...base, ...request, toolOutputTokens: rowToolTokens });
    }
    const warned = warningOf(row);
    if (warned !== undefined) {
      warning ??= { seq: row.seq, tokens: warned.tokens };
      marks.push({ ...base, kind: "warning", tokens: warned.tokens, detail: null });
    }
    if (isFlushStep(row)) marks.push({ ...base, kind: "flush", tokens: request?.tokens ?? null, detail: null });
    const notesCommand = notesWriteOf(row);
    if (notesCommand !== undefined)
      marks.push({ ...base, kind: "notes", tokens: request?.tokens ?? null, detail: notesCommand });
  }
  return { requests, peakTokens, limit, toolOutputTokens, warning, steps };
}

/** The lines a window's chart draws: warn band start, threshold and hard ceiling, for its limit. */
export function linesFor(
  limit: number | null,
  { strategy, threshold, outputReserve }: TimelineSettings,
): TimelineLines | null {
  if (limit === null || !Number.isSafeInteger(limit) || limit <= 0) return null;
  if (strategy === "off")
    return { warnAt: null, threshold: null, hardCeiling: hardCeilingFor({ limit, outputReserve }) };
  const bands = budgetBands({ limit, threshold, outputReserve });
  if (!bands.proactive) return { warnAt: null, threshold: null, hardCeiling: bands.hardCeiling };
  return { warnAt: bands.warnAt, threshold: bands.thresholdAt, hardCeiling: bands.hardCeiling };
}
