/**
 * The web UI's context timeline (`GET /api/sessions/:id/timeline`): every window's span from the
 * cached window summaries, and the requests and marks of a few windows read row by row — by
 * default the active one — so the answer costs the same on a 100,000-row session as on a 100-row
 * one (ADR 0044). The UI asks for earlier windows as the person moves back.
 */
import type { TimelineSettings, TimelineWindow } from "../core/timeline/timeline-types.js";
import type { HistoryStore } from "../store/port.js";
import { readTimeline } from "../store/read-timeline.js";
import { badRequest } from "./api-error.js";
import type { SessionWindows } from "./session-windows.js";
import type { TimelineOverviewBar, TimelineView } from "./view-types.js";

/** Most windows one answer reads row by row. */
export const MAX_TIMELINE_WINDOWS = 20;

/**
 * Without `count`, the newest windows are read while their rows add up to at most this many (the
 * active window always): a short session shows whole, a long one opens on its newest window(s).
 */
export const DEFAULT_TIMELINE_ROWS = 500;

export interface TimelineViewOptions {
  store: HistoryStore;
  sessionId: string;
  windows: SessionWindows;
  settings: TimelineSettings;
  /** The newest window to read row by row (default: the active window). */
  windowId?: string | undefined;
  /** How many windows to read row by row, ending at `windowId` (default: as many as fit `DEFAULT_TIMELINE_ROWS`). */
  count?: number | undefined;
}

/**
 * @example const view = await timelineView({ store, sessionId: "s1", windows: await cache.windowsOf("s1"), settings });
 */
export async function timelineView({
  store,
  sessionId,
  windows,
  settings,
  windowId,
  count,
}: TimelineViewOptions): Promise<TimelineView> {
  const list = windows.windows;
  const end = windowId === undefined ? list.length - 1 : list.findIndex((window) => window.windowId === windowId);
  if (end < 0 && list.length > 0) throw badRequest(`Unknown window '${windowId}' in session '${sessionId}'.`);
  const detailWindowIds = list
    .slice(Math.max(0, end - (count ?? fittingCount(list, end)) + 1), end + 1)
    .map((window) => window.windowId);
  const timeline = await readTimeline({
    store,
    sessionId,
    settings,
    windows: list,
    detail: { windowIds: detailWindowIds },
  });
  const shown = new Set(detailWindowIds);
  return {
    ...timeline,
    windows: timeline.windows.filter((window) => shown.has(window.windowId)),
    overview: timeline.windows.map(overviewBar),
    marks: timeline.marks.filter((mark) => shown.has(mark.windowId)),
    detailWindowIds,
  };
}

/**
 * A window outside the detail range costs the answer one small bar, not a whole window entry and
 * its boundary mark: the answer then grows with the number of windows by ~80 bytes each (ADR 0045).
 */
function overviewBar(window: TimelineWindow): TimelineOverviewBar {
  return {
    windowId: window.windowId,
    number: window.number,
    kind: window.kind,
    limit: window.limit,
    tokens: window.peakTokens ?? window.rolledOver?.tokens ?? null,
  };
}

/** How many windows ending at `end` fit the default row budget (at least one). */
function fittingCount(list: readonly { rowCount: number }[], end: number): number {
  let rows = 0;
  let count = 0;
  for (let index = end; index >= 0 && count < MAX_TIMELINE_WINDOWS; index -= 1) {
    rows += list[index]?.rowCount ?? 0;
    if (count > 0 && rows > DEFAULT_TIMELINE_ROWS) break;
    count += 1;
  }
  return Math.max(1, count);
}
