/**
 * `ctxwin history usage <session>`: the session's context timeline in the terminal — one sparkline
 * per window and a table per window — or the timeline as JSON (`--json`) for scripts.
 */
import type { Timeline, TimelineSettings } from "../../core/timeline/timeline-types.js";
import type { HistoryStore } from "../../store/port.js";
import { readAllWindows, readTimeline } from "../../store/read-timeline.js";
import { renderSpendLine, renderTimelineChart, renderTimelineTable } from "../terminal/timeline-chart.js";
import { isVisibleSession } from "../../store/lineage/session-visibility.js";
import { HistoryCommandError } from "./history-errors.js";
import { hiddenSession } from "./history-queries.js";

/**
 * Windows read request by request unless `--windows` says otherwise: reading every row of a
 * 100,000-row session takes seconds, the newest 20 windows a fraction of one (ADR 0043).
 */
export const DEFAULT_USAGE_WINDOWS = 20;

export interface UsageOptions {
  ascii: boolean;
}

/**
 * @example const timeline = await sessionTimeline({ store, sessionId: "demo", settings, windows: 20 });
 */
export async function sessionTimeline({
  store,
  sessionId,
  settings,
  windows,
  includeCleared = false,
}: {
  store: HistoryStore;
  sessionId: string;
  settings: TimelineSettings;
  windows: number | "all";
  /** Also a child session a clear above it hides (ADR 0073): the person asked explicitly. */
  includeCleared?: boolean;
}): Promise<Timeline> {
  const summary = await store.session(sessionId);
  if (summary === undefined) {
    throw new HistoryCommandError(
      `Unknown session '${sessionId}': \`ctxwin history sessions\` lists the sessions of this project.`,
    );
  }
  if (!includeCleared && !(await isVisibleSession({ store, summary }))) throw hiddenSession(sessionId);
  const summaries = await readAllWindows({ store, sessionId });
  const detail = windows === "all" ? "all" : { windowIds: summaries.slice(-windows).map((window) => window.windowId) };
  return readTimeline({ store, sessionId, settings, detail, windows: summaries });
}

/** The chart, a blank line, the table, and what the requests spent. */
export function formatUsage(timeline: Timeline, { ascii }: UsageOptions): string {
  return `${renderTimelineChart(timeline, { ascii })}\n\n${renderTimelineTable(timeline)}\n\n${renderSpendLine(timeline.spend)}`;
}
