/**
 * What every action needs: the store, the session, and the session's privacy floor and last seq
 * read once at the start of the call. Also the shared checks that keep hidden rows and rows at or
 * before the floor out of every result, whatever the store returned (defence in depth).
 */
import type { StoredRow, HistoryStore, WindowSummary } from "../../store/port.js";
import { HISTORY_LABEL } from "../../core/history-view/limits.js";
import { sliceSafe } from "../../core/row-text.js";
import { isHistoryVisible } from "../../core/visibility.js";
import { windowIdFor } from "../../core/windows.js";
import type { ItemFields } from "./results.js";

export interface HistoryContext {
  store: HistoryStore;
  sessionId: string;
  /** Seq of the newest manual reset (0 when none): nothing at or before it is shown. */
  floor: number;
  lastSeq: number;
  /** Items read recently by this tool instance, so paging a huge item does not re-read it per page. */
  recentItems: RecentItems;
  /**
   * What every result says its content is: `HISTORY_LABEL` for an agent's own session,
   * `STORE_HISTORY_LABEL` when the caller is not the session's agent (the MCP server).
   */
  label: string;
}

/** A rendered item kept between `read_item` pages. */
export interface RecentItem {
  row: StoredRow;
  text: string;
}

/**
 * The last few items `read_item` rendered, by seq. Rows never change once stored; the cache is
 * dropped when the session's incarnation changes (it was deleted and started again).
 */
export class RecentItems {
  private readonly items = new Map<number, RecentItem>();
  private incarnation: string | undefined;

  constructor(private readonly capacity = 2) {}

  /** Forgets everything when the session is not the one the items were read from. */
  observe(incarnation: string | undefined): void {
    if (incarnation !== this.incarnation) this.items.clear();
    this.incarnation = incarnation;
  }

  get(seq: number): RecentItem | undefined {
    return this.items.get(seq);
  }

  set(seq: number, item: RecentItem): void {
    this.items.delete(seq);
    this.items.set(seq, item);
    for (const oldest of this.items.keys()) {
      if (this.items.size <= this.capacity) break;
      this.items.delete(oldest);
    }
  }
}

/**
 * @example const context = await loadHistoryContext({ store, sessionId: "s1" });
 */
export async function loadHistoryContext({
  store,
  sessionId,
  recentItems = new RecentItems(),
  label = HISTORY_LABEL,
}: {
  store: HistoryStore;
  sessionId: string;
  recentItems?: RecentItems;
  label?: string;
}): Promise<HistoryContext> {
  const summary = await store.session(sessionId);
  recentItems.observe(summary?.incarnation);
  return { store, sessionId, floor: summary?.floorSeq ?? 0, lastSeq: summary?.lastSeq ?? 0, recentItems, label };
}

/** A row the tool may show: of this session, after the floor, and visible to history. */
export function isReadable(context: HistoryContext, row: StoredRow): boolean {
  return row.sessionId === context.sessionId && row.seq > context.floor && isHistoryVisible(row);
}

/** A window the tool may name: its boundary is at or after the floor (the reset window itself is fine). */
export function isListable(context: HistoryContext, window: WindowSummary): boolean {
  return window.boundarySeq >= context.floor;
}

/**
 * The window that opened at `boundarySeq`, when it exists and is listable.
 *
 * @example await windowAt(context, 120) // the summary of "w:120", or undefined
 */
export async function windowAt(context: HistoryContext, boundarySeq: number): Promise<WindowSummary | undefined> {
  if (boundarySeq > context.lastSeq || boundarySeq < context.floor) return undefined;
  const window = await windowContaining(context, boundarySeq);
  return window?.boundarySeq === boundarySeq ? window : undefined;
}

/** The listable window a seq falls into. */
export async function windowContaining(context: HistoryContext, seq: number): Promise<WindowSummary | undefined> {
  if (seq > context.lastSeq) return undefined;
  const page = await context.store.windows(context.sessionId, { beforeWindow: windowIdFor(seq + 1), limit: 1 });
  const window = page.windows[0];
  return window !== undefined && isListable(context, window) ? window : undefined;
}

/** The fields every item entry shares. `text` is the row's full rendering. */
export function itemFields({ row, windowId, text }: { row: StoredRow; windowId: string; text: string }): ItemFields {
  const type = row.meta?.type;
  return {
    item_id: String(row.seq),
    window_id: windowId,
    role: row.role,
    created_at: row.createdAt,
    ...(typeof type === "string" ? { type: sliceSafe(type, 0, 60) } : {}),
    total_chars: text.length,
  };
}

/**
 * An item cursor (`after_item`, `before_item`): a non-negative integer, as a number or written
 * plainly as a string; `undefined` when malformed.
 *
 * @example parseItemCursor("0") // 0
 */
export function parseItemCursor(value: unknown): number | undefined {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !/^(0|[1-9][0-9]{0,15})$/.test(text)) return undefined;
  const seq = Number(text);
  return Number.isSafeInteger(seq) ? seq : undefined;
}
