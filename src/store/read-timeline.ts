/**
 * Reads a session's context timeline through the store port: every window's summary (cost follows
 * the number of windows) plus the rows of the windows asked for in detail (cost follows those
 * windows, never the whole history unless every window is asked for). Uses only the store's
 * existing indexes; ADR 0043 says why no new index or format was needed.
 */
import { buildTimeline } from "../core/timeline/build-timeline.js";
import type { TimelineRow } from "../core/timeline/row-marks.js";
import type { Timeline, TimelineSettings } from "../core/timeline/timeline-types.js";
import type { HistoryStore, WindowSummary } from "./port.js";

/** Rows read per `items` call while reading a window. */
const PAGE_ROWS = 1000;

/** Which windows to read row by row: all of them, or the windows with these ids. */
export type TimelineDetail = "all" | { windowIds: readonly string[] };

export interface ReadTimelineOptions {
  store: HistoryStore;
  sessionId: string;
  settings: TimelineSettings;
  detail?: TimelineDetail;
  /** Every window of the session, oldest first, when the caller already has them (a cache). */
  windows?: readonly WindowSummary[];
}

/**
 * The timeline of a session; cleared history included (it is a person's view of figures).
 *
 * @example
 * const timeline = await readTimeline({ store, sessionId: "s1", settings: { strategy: "rollover", threshold: 0.7, outputReserve: 8192 } });
 */
export async function readTimeline({
  store,
  sessionId,
  settings,
  detail = "all",
  windows,
}: ReadTimelineOptions): Promise<Timeline> {
  const summaries = windows ?? (await readAllWindows({ store, sessionId }));
  const wanted =
    detail === "all" ? summaries : summaries.filter((window) => detail.windowIds.includes(window.windowId));
  const details = new Map<string, TimelineRow[]>();
  for (const window of wanted) details.set(window.windowId, await readWindowRows({ store, sessionId, window }));
  return buildTimeline({ sessionId, windows: summaries, details, settings });
}

/** Every window summary of a session, oldest first, cleared ones included unless `includeCleared` is false. */
export async function readAllWindows({
  store,
  sessionId,
  includeCleared = true,
}: {
  store: HistoryStore;
  sessionId: string;
  includeCleared?: boolean;
}): Promise<WindowSummary[]> {
  const collected: WindowSummary[] = [];
  let beforeWindow: string | undefined;
  for (;;) {
    const page = await store.windows(sessionId, {
      includeCleared,
      limit: 1000,
      ...(beforeWindow === undefined ? {} : { beforeWindow }),
    });
    collected.push(...page.windows);
    const oldest = page.windows.at(-1);
    if (!page.hasMore || oldest === undefined) break;
    beforeWindow = oldest.windowId;
  }
  return collected.reverse();
}

async function readWindowRows({
  store,
  sessionId,
  window,
}: {
  store: HistoryStore;
  sessionId: string;
  window: WindowSummary;
}): Promise<TimelineRow[]> {
  const rows: TimelineRow[] = [];
  let afterSeq = window.firstSeq - 1;
  for (;;) {
    const page = await store.items(sessionId, {
      windowId: window.windowId,
      afterSeq,
      limit: PAGE_ROWS,
      includeCleared: true,
    });
    rows.push(...page.rows);
    const last = page.rows.at(-1);
    if (!page.hasMore || last === undefined) return rows;
    afterSeq = last.seq;
  }
}
