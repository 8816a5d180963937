/**
 * Pages of a session's transcript for the person's view, by seq with the store's indexed range
 * reads: the newest rows, the rows before or after a seq, or from a seq on. A page of a
 * 100,000-row session reads what a page of a 100-row session reads. Rows below the privacy floor
 * are shown (this is the person's own transcript); hidden and internal rows only with `internal`. A tool call
 * that started a sub-agent names the child session (child-links.ts).
 */
import { toolNameOf } from "../core/row-text.js";
import type { HistoryStore, StoredRow } from "../store/port.js";
import { childLinks, NO_CHILD_LINKS } from "./child-links.js";
import { isInternalRow, rowView } from "./row-view.js";
import type { SessionWindows } from "./session-windows.js";
import type { TranscriptPage } from "./view-types.js";

export type PagePosition =
  { kind: "newest" } | { kind: "before"; seq: number } | { kind: "after"; seq: number } | { kind: "from"; seq: number };

/** Rows read per store call; hidden rows are rare, so one or two calls fill a page. */
const MIN_READ_ROWS = 50;
/** Rows per store call when only asking whether more shown rows exist. */
const PROBE_ROWS = 8;

/**
 * @example
 * const page = await transcriptPage({ store, sessionId: "s1", windows, position: { kind: "newest" }, limit: 100, internal: false });
 */
export async function transcriptPage({
  store,
  sessionId,
  windows,
  position,
  limit,
  internal = false,
}: {
  store: HistoryStore;
  sessionId: string;
  windows: SessionWindows;
  position: PagePosition;
  limit: number;
  internal?: boolean;
}): Promise<TranscriptPage> {
  const shown = (row: StoredRow) => internal || !isInternalRow(row);
  const toViews = async (rows: StoredRow[]) => {
    // Only a page with a tool call can link to a child session.
    const links = rows.some((row) => row.parts.some((part) => toolNameOf(part as { type: string }) !== undefined))
      ? await childLinks({ store, sessionId })
      : NO_CHILD_LINKS;
    return rows.map((row) => rowView({ row, window: windows.windowOf(row.seq), links }));
  };
  if (position.kind === "newest" || position.kind === "before") {
    const beforeSeq = position.kind === "before" ? position.seq : Number.MAX_SAFE_INTEGER;
    const { rows, more } = await collect({ store, sessionId, direction: "backward", edge: beforeSeq, limit, shown });
    const newestSeq = rows.at(-1)?.seq ?? beforeSeq - 1;
    const hasMoreAfter =
      position.kind === "before"
        ? await anyShown({ store, sessionId, direction: "forward", edge: newestSeq, shown })
        : false;
    return { rows: await toViews(rows), hasMoreBefore: more, hasMoreAfter };
  }
  const afterSeq = position.kind === "after" ? position.seq : Math.max(0, position.seq - 1);
  const { rows, more } = await collect({ store, sessionId, direction: "forward", edge: afterSeq, limit, shown });
  const oldestSeq = rows[0]?.seq ?? afterSeq + 1;
  const hasMoreBefore = await anyShown({ store, sessionId, direction: "backward", edge: oldestSeq, shown });
  return { rows: await toViews(rows), hasMoreBefore, hasMoreAfter: more };
}

/**
 * Up to `limit` shown rows past `edge` in one direction (exclusive), ascending; `more` when at
 * least one further shown row exists.
 */
async function collect({
  store,
  sessionId,
  direction,
  edge,
  limit,
  shown,
}: {
  store: HistoryStore;
  sessionId: string;
  direction: "forward" | "backward";
  edge: number;
  limit: number;
  shown: (row: StoredRow) => boolean;
}): Promise<{ rows: StoredRow[]; more: boolean }> {
  const collected: StoredRow[] = [];
  let cursor = edge;
  const readRows = Math.max(MIN_READ_ROWS, limit + 1);
  for (;;) {
    const bounds = direction === "forward" ? { afterSeq: cursor } : { beforeSeq: cursor };
    const page = await store.items(sessionId, { ...bounds, limit: readRows, includeCleared: true });
    const ordered = direction === "forward" ? page.rows : [...page.rows].reverse();
    for (const row of ordered) {
      if (!shown(row)) continue;
      if (collected.length === limit) return finish(collected, direction, true);
      collected.push(row);
    }
    const furthest = ordered.at(-1);
    if (!page.hasMore || furthest === undefined) return finish(collected, direction, false);
    // A full page whose last read held hidden rows: whether more follow is a probe, not another full read.
    if (collected.length === limit)
      return finish(collected, direction, await anyShown({ store, sessionId, direction, edge: furthest.seq, shown }));
    cursor = furthest.seq;
  }
}

function finish(
  rows: StoredRow[],
  direction: "forward" | "backward",
  more: boolean,
): { rows: StoredRow[]; more: boolean } {
  return { rows: direction === "forward" ? rows : rows.reverse(), more };
}

/** Whether any shown row lies past `edge` in a direction (stops at the first one). */
async function anyShown({
  store,
  sessionId,
  direction,
  edge,
  shown,
}: {
  store: HistoryStore;
  sessionId: string;
  direction: "forward" | "backward";
  edge: number;
  shown: (row: StoredRow) => boolean;
}): Promise<boolean> {
  let cursor = edge;
  for (;;) {
    const bounds = direction === "forward" ? { afterSeq: cursor } : { beforeSeq: cursor };
    const page = await store.items(sessionId, { ...bounds, limit: PROBE_ROWS, includeCleared: true });
    if (page.rows.some(shown)) return true;
    const ordered = direction === "forward" ? page.rows : [...page.rows].reverse();
    const furthest = ordered.at(-1);
    if (!page.hasMore || furthest === undefined) return false;
    cursor = furthest.seq;
  }
}
