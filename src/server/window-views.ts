/**
 * WindowView: one entry per context window for the windows panel — number, kind, span, row count,
 * and for rollovers the reason and how full the window was. Reads the window summaries and, once
 * per rollover, its boundary row: a stored boundary never changes, so its figure is kept.
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

/** How full each rollover's window was, by store, session, boundary seq and start (a recreated session starts anew). */
const percentCache = new WeakMap<HistoryStore, Map<string, number | null>>();

async function rolloverPercent({ store, sessionId, window }: { store: HistoryStore; sessionId: string; window: SessionWindows["windows"][number] }): Promise<number | undefined> {
  let known = percentCache.get(store);
  if (known === undefined) percentCache.set(store, (known = new Map()));
  const key = `${sessionId}\u0000${window.boundarySeq}\u0000${window.startedAt}`;
  const cached = known.get(key);
  if (cached !== undefined) return cached ?? undefined;
  const boundary = await store.read(sessionId, window.boundarySeq, { includeCleared: true });
  const meta = boundary === undefined ? undefined : rolloverMetaOf(boundary);
  const percent = meta !== undefined && meta.maxTokens > 0 ? Math.round((meta.contextTokens / meta.maxTokens) * 100) : undefined;
  if (boundary !== undefined) known.set(key, percent ?? null);
  return percent;
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
      const percent = await rolloverPercent({ store, sessionId, window });
      if (percent !== undefined) view.percent = percent;
    }
    views.push(view);
  }
  return views;
}
