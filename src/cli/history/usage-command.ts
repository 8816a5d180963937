/**
 * `ctxwin history usage <session>`: the session's context timeline in the terminal — one sparkline
 * per window and a table per window — or the timeline as JSON (`--json`) for scripts.
 */
import { DEFAULT_OUTPUT_RESERVE, DEFAULT_THRESHOLD } from "../../core/budget/step-budget.js";
import type { Timeline, TimelineSettings } from "../../core/timeline/timeline-types.js";
import type { CtxwinConfig } from "../../store/config-file.js";
import type { HistoryStore } from "../../store/port.js";
import { readAllWindows, readTimeline } from "../../store/read-timeline.js";
import { renderTimelineChart, renderTimelineTable } from "../terminal/timeline-chart.js";
import { HistoryCommandError } from "./history-errors.js";

export interface UsageOptions {
  /** Read only the newest this many windows row by row (default: every window). */
  windows?: number;
  ascii: boolean;
}

/**
 * The budget settings the lines are drawn for: the project's configuration, else the defaults.
 *
 * @example timelineSettingsOf({ budget: { threshold: 0.6 } }) // { strategy: "rollover", threshold: 0.6, outputReserve: 8192 }
 */
export function timelineSettingsOf(config: CtxwinConfig): TimelineSettings {
  return {
    strategy: config.strategy ?? "rollover",
    threshold: config.budget?.threshold ?? DEFAULT_THRESHOLD,
    outputReserve: config.budget?.outputReserve ?? DEFAULT_OUTPUT_RESERVE,
  };
}

/**
 * @example const timeline = await sessionTimeline({ store, sessionId: "demo", settings, options: { ascii: false } });
 */
export async function sessionTimeline({ store, sessionId, settings, windows }: { store: HistoryStore; sessionId: string; settings: TimelineSettings; windows?: number | undefined }): Promise<Timeline> {
  if ((await store.session(sessionId)) === undefined) {
    throw new HistoryCommandError(`Unknown session '${sessionId}': \`ctxwin history sessions\` lists the sessions of this project.`);
  }
  const summaries = await readAllWindows({ store, sessionId });
  const detail = windows === undefined ? "all" : { windowIds: summaries.slice(-windows).map((window) => window.windowId) };
  return readTimeline({ store, sessionId, settings, detail, windows: summaries });
}

/** The chart, a blank line and the table. */
export function formatUsage(timeline: Timeline, { ascii }: UsageOptions): string {
  return `${renderTimelineChart(timeline, { ascii })}\n\n${renderTimelineTable(timeline)}`;
}
