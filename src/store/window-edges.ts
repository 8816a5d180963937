/**
 * The first or last row of a window that a reader accepts (e.g. a visible one), read from that
 * edge inward in small pages, so that listing windows costs what their edges hold, not what the
 * whole history holds. Shared by `session_history` and `ctxwin history`.
 */
import type { HistoryStore, StoredRow, WindowSummary } from "./port.js";

export interface WindowEdgeOptions {
  store: HistoryStore;
  sessionId: string;
  window: WindowSummary;
  edge: "first" | "last";
  /** Which rows count (e.g. visible and above the privacy floor). */
  accept: (row: StoredRow) => boolean;
  includeCleared?: boolean;
  pageRows?: number;
  /** Stop after this many pages (a bound for tools); default: scan the whole window if needed. */
  maxPages?: number;
}

/**
 * @example
 * const first = await windowEdgeRow({ store, sessionId, window, edge: "first", accept: isHistoryVisible });
 */
export async function windowEdgeRow({
  store,
  sessionId,
  window,
  edge,
  accept,
  includeCleared = false,
  pageRows = 20,
  maxPages = Number.POSITIVE_INFINITY,
}: WindowEdgeOptions): Promise<StoredRow | undefined> {
  let afterSeq = Math.max(0, window.firstSeq - 1);
  let beforeSeq = window.lastSeq + 1;
  for (let page = 0; page < maxPages; page += 1) {
    const bounds = edge === "first" ? { afterSeq } : { beforeSeq };
    const result = await store.items(sessionId, {
      windowId: window.windowId,
      ...bounds,
      limit: pageRows,
      includeCleared,
    });
    const ordered = edge === "first" ? result.rows : [...result.rows].reverse();
    const found = ordered.find(accept);
    if (found !== undefined) return found;
    const furthest = ordered.at(-1);
    if (!result.hasMore || furthest === undefined) return undefined;
    if (edge === "first") afterSeq = furthest.seq;
    else beforeSeq = furthest.seq;
  }
  return undefined;
}
