/**
 * WindowView: one entry per context window for the windows panel — number, kind, span, row count,
 * and for rollovers the reason and how full the window was. Built from the window summaries alone:
 * a rollover's summary carries its boundary's contextTokens and maxTokens (store format 3, ADR 0015).
 */
import { rolloverMetaOf } from "../core/boundary.js";
import type { HistoryStore, WindowSummary } from "../store/port.js";
import type { SessionWindows } from "./session-windows.js";
import type { WindowView } from "./view-types.js";

/** Percent of the limit the window's context had reached when it rolled over. */
function percentOf({ contextTokens, maxTokens }: { contextTokens: number; maxTokens: number }): number | undefined {
  return maxTokens > 0 ? Math.round((contextTokens / maxTokens) * 100) : undefined;
}

/**
 * Fallback for a rollover summary without figures: one written by a format-2 ctxwin process that
 * had the database open across the upgrade, or whose boundary no longer decoded at the migration.
 * The boundary row is read once and its figure kept (a stored boundary never changes), by store,
 * session, boundary seq and start (a recreated session starts anew).
 */
const fallbackPercents = new WeakMap<HistoryStore, Map<string, number | null>>();

async function percentFromBoundary({
  store,
  sessionId,
  window,
}: {
  store: HistoryStore;
  sessionId: string;
  window: WindowSummary;
}): Promise<number | undefined> {
  let known = fallbackPercents.get(store);
  if (known === undefined) fallbackPercents.set(store, (known = new Map()));
  const key = `${sessionId}\u0000${window.boundarySeq}\u0000${window.startedAt}`;
  const cached = known.get(key);
  if (cached !== undefined) return cached ?? undefined;
  const boundary = await store.read(sessionId, window.boundarySeq, { includeCleared: true });
  const meta = boundary === undefined ? undefined : rolloverMetaOf(boundary);
  const percent = meta === undefined ? undefined : percentOf(meta);
  if (boundary !== undefined) known.set(key, percent ?? null);
  return percent;
}

/**
 * @example const views = await windowViews({ store, sessionId: "s1", windows: await cache.windowsOf("s1") });
 */
export async function windowViews({
  store,
  sessionId,
  windows,
}: {
  store: HistoryStore;
  sessionId: string;
  windows: SessionWindows;
}): Promise<WindowView[]> {
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
      const { contextTokens, maxTokens } = window;
      // Only a summary without figures waits for a read.
      const percent =
        contextTokens !== undefined && maxTokens !== undefined
          ? percentOf({ contextTokens, maxTokens })
          : await percentFromBoundary({ store, sessionId, window });
      if (percent !== undefined) view.percent = percent;
    }
    views.push(view);
  }
  return views;
}
