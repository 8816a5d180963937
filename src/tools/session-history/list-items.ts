/**
 * `list_items`: readable items oldest first, of one window or of the whole readable history,
 * each with a one-line preview (200 characters, or `max_item_chars`). Pages with `after_item`; hidden rows are skipped, and the next
 * `after_item` is the last item shown, so paging neither repeats nor loses an item.
 */
import { classifyBoundary } from "../../core/boundary.js";
import { fitEntries } from "../../core/history-view/bounded-result.js";
import { ITEM_LIMIT, ITEM_PREVIEW_CHARS, MAX_RESULT_BYTES } from "../../core/history-view/limits.js";
import { oneLinePreview } from "../../core/history-view/text-excerpt.js";
import { renderRowText } from "../../core/row-text.js";
import { parseWindowId, windowIdFor } from "../../core/windows.js";
import type { StoredRow } from "../../store/port.js";
import {
  isReadable,
  itemFields,
  parseItemCursor,
  windowAt,
  windowContaining,
  type HistoryContext,
} from "./history-context.js";
import type { SessionHistoryInput } from "./input-schema.js";
import {
  invalidInput,
  limitAboveMaximum,
  windowNotAvailable,
  type ItemEntry,
  type ListItemsResult,
  type SessionHistoryErrorResult,
} from "./results.js";

/** Store pages read at most per call while skipping hidden rows; pages grow from `limit + 1` up to this. */
const MAX_SCAN_STEPS = 8;
const MAX_SCAN_PAGE_ROWS = 100;

/**
 * @example await listItems(context, { action: "list_items", window_id: "w:120", limit: 10 })
 */
export async function listItems(
  context: HistoryContext,
  input: SessionHistoryInput,
): Promise<ListItemsResult | SessionHistoryErrorResult> {
  const limit = input.limit ?? ITEM_LIMIT.default;
  const overLimit = limitAboveMaximum({ action: "list_items", limit, max: ITEM_LIMIT.max });
  if (overLimit !== undefined) return overLimit;
  const afterItem = input.after_item ?? undefined;
  const afterSeq = afterItem === undefined ? 0 : parseItemCursor(afterItem);
  if (afterSeq === undefined) {
    return invalidInput(
      "list_items",
      "after_item must be an item id such as '42', as list_items and search show them.",
    );
  }
  const windowId = input.window_id ?? undefined;
  let windowSeq: number | undefined;
  if (windowId !== undefined) {
    windowSeq = parseWindowId(windowId);
    if (windowSeq === undefined) {
      return invalidInput(
        "list_items",
        "window_id must be a window id such as 'w:0' or 'w:120', as list_windows shows them.",
      );
    }
    if ((await windowAt(context, windowSeq)) === undefined)
      return windowNotAvailable({ action: "list_items", windowId });
  }

  const { rows, exhausted, scannedTo } = await collectReadable(context, {
    windowId,
    afterSeq: Math.max(afterSeq, context.floor),
    wanted: limit + 1,
  });
  const previewChars = input.max_item_chars ?? ITEM_PREVIEW_CHARS;
  const entries: ItemEntry[] = rows.slice(0, limit).map(({ row, windowId: rowWindowId }) => {
    const text = renderRowText(row);
    return {
      ...itemFields({ row, windowId: rowWindowId, text }),
      preview: oneLinePreview({ text: renderRowText(row, { maxValueChars: previewChars }), maxChars: previewChars }),
    };
  });
  const build = (kept: ItemEntry[]): ListItemsResult => {
    const hasMore = rows.length > kept.length || !exhausted;
    const last = kept.at(-1)?.item_id ?? (kept.length === 0 && !exhausted ? String(scannedTo) : undefined);
    return {
      label: context.label,
      ok: true,
      action: "list_items",
      window_id: windowId ?? null,
      items: kept,
      has_more: hasMore,
      next: hasMore && last !== undefined ? { after_item: last } : null,
    };
  };
  const fitted = fitEntries({ entries, build, maxBytes: MAX_RESULT_BYTES });
  return fitted?.result ?? build([]);
}

interface PlacedRow {
  row: StoredRow;
  windowId: string;
}

/**
 * Reads store pages until `wanted` readable rows are found, the rows run out, or the scan budget
 * is spent. Each row is placed in its window: the requested one, or the one the scan is in, which
 * changes at every boundary row scanned (boundary rows themselves are never readable).
 */
async function collectReadable(
  context: HistoryContext,
  { windowId, afterSeq, wanted }: { windowId: string | undefined; afterSeq: number; wanted: number },
): Promise<{ rows: PlacedRow[]; exhausted: boolean; scannedTo: number }> {
  const rows: PlacedRow[] = [];
  let cursor = afterSeq;
  let current = windowId;
  let pageRows = wanted;
  for (let step = 0; step < MAX_SCAN_STEPS; step += 1, pageRows = Math.min(MAX_SCAN_PAGE_ROWS, pageRows * 2)) {
    const page = await context.store.items(context.sessionId, {
      afterSeq: cursor,
      limit: pageRows,
      ...(windowId === undefined ? {} : { windowId }),
    });
    for (const row of page.rows) {
      if (classifyBoundary(row) !== undefined) current = windowIdFor(row.seq);
      current ??= (await windowContaining(context, row.seq))?.windowId ?? windowIdFor(0);
      if (isReadable(context, row)) rows.push({ row, windowId: current });
    }
    const lastScanned = page.rows.at(-1);
    if (lastScanned !== undefined) cursor = lastScanned.seq;
    if (!page.hasMore || lastScanned === undefined) return { rows, exhausted: true, scannedTo: cursor };
    if (rows.length >= wanted) return { rows, exhausted: false, scannedTo: cursor };
  }
  return { rows, exhausted: false, scannedTo: cursor };
}
