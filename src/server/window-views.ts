/**
 * WindowView: one entry per context window for the windows panel — number, kind, span, row count,
 * and for rollovers the reason and how full the window was. Reads the window summaries and each
 * rollover's boundary row, so the cost follows the number of windows.
 */
import { rolloverMetaOf } from "../core/boundary.js";
import type { HistoryStore } from "../store/port.js";
import type { SessionWindows } from "./session-windows.js";

export interface WindowView {
  windowId: string;
  number: number;
  kind: "initial" | "rollover" | "compaction" | "reset";
  firstSeq: number;
  lastSeq: number;
  /** Rows stored in the window (boundary, hidden and internal rows included). */
  items: number;
  startedAt: string;
  reason?: string;
  percent?: number;
}

/**
 * @example const views = await windowViews({ store, sessionId: "s1", windows: await cache.windowsOf("s1") });
 */
export async function windowViews({ store, sessionId, windows }: { store: HistoryStore; sessionId: string; windows: SessionWindows }): Promise<WindowView[]> {
  const views: WindowView[] = [];
  for (const window of windows.windows) {
    const view: WindowView = {
      windowId: window.windowId,
      number: window.number,
      kind: window.kind === "start" ? "initial" : window.kind,
      firstSeq: window.firstSeq,
      lastSeq: window.lastSeq,
      items: window.rowCount,
      startedAt: window.startedAt,
      ...(window.reason === undefined ? {} : { reason: window.reason }),
    };
    if (window.kind === "rollover") {
      const boundary = await store.read(sessionId, window.boundarySeq, { includeCleared: true });
      const meta = boundary === undefined ? undefined : rolloverMetaOf(boundary);
      if (meta !== undefined && meta.maxTokens > 0) view.percent = Math.round((meta.contextTokens / meta.maxTokens) * 100);
    }
    views.push(view);
  }
  return views;
}
