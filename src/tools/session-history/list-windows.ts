/**
 * `list_windows`: the session's listable context windows, newest first, each with its visible
 * item count, first and last visible item, time span, rollover reason and a one-line preview.
 */
import { fitEntries } from "../../core/history-view/bounded-result.js";
import { MAX_RESULT_BYTES, WINDOW_LIMIT, WINDOW_PREVIEW_CHARS } from "../../core/history-view/limits.js";
import { oneLinePreview } from "../../core/history-view/text-excerpt.js";
import { renderRowText } from "../../core/row-text.js";
import { parseWindowId } from "../../core/windows.js";
import type { StoredRow, WindowSummary } from "../../store/port.js";
import { windowEdgeRow } from "../../store/window-edges.js";
import { isListable, isReadable, type HistoryContext } from "./history-context.js";
import type { SessionHistoryInput } from "./input-schema.js";
import {
  invalidInput,
  limitAboveMaximum,
  type ListWindowsResult,
  type SessionHistoryErrorResult,
  type WindowEntry,
} from "./results.js";

/** Rows read per step, and steps at most, when looking for a window's first or last visible row. */
const EDGE_PAGE_ROWS = 4;
const EDGE_MAX_STEPS = 4;

/**
 * @example await listWindows(context, { action: "list_windows", limit: 5 })
 */
export async function listWindows(
  context: HistoryContext,
  input: SessionHistoryInput,
): Promise<ListWindowsResult | SessionHistoryErrorResult> {
  const limit = input.limit ?? WINDOW_LIMIT.default;
  const overLimit = limitAboveMaximum({ action: "list_windows", limit, max: WINDOW_LIMIT.max });
  if (overLimit !== undefined) return overLimit;
  const beforeWindow = input.before_window ?? undefined;
  if (beforeWindow !== undefined && parseWindowId(beforeWindow) === undefined) {
    return invalidInput(
      "list_windows",
      "before_window must be a window id such as 'w:0' or 'w:120', as list_windows shows them.",
    );
  }
  const page = await context.store.windows(context.sessionId, {
    limit,
    ...(beforeWindow === undefined ? {} : { beforeWindow }),
  });
  const windows = page.windows.filter((window) => isListable(context, window));
  const entries: WindowEntry[] = [];
  for (const window of windows) entries.push(await windowEntry(context, window));
  const build = (kept: WindowEntry[]): ListWindowsResult => {
    const hasMore = page.hasMore || kept.length < entries.length;
    const last = kept.at(-1);
    return {
      label: context.label,
      ok: true,
      action: "list_windows",
      windows: kept,
      has_more: hasMore,
      next: hasMore && last !== undefined ? { before_window: last.window_id } : null,
    };
  };
  const fitted = fitEntries({ entries, build, maxBytes: MAX_RESULT_BYTES });
  return fitted?.result ?? build([]);
}

async function windowEntry(context: HistoryContext, window: WindowSummary): Promise<WindowEntry> {
  const first = window.visibleCount > 0 ? await edgeVisibleRow(context, window, "first") : undefined;
  const last = window.visibleCount > 0 ? await edgeVisibleRow(context, window, "last") : undefined;
  return windowEntryOf({ window, first, last });
}

/**
 * A window as `list_windows` (and `ctxwin history windows`) shows it, given its first and last
 * readable rows.
 *
 * @example windowEntryOf({ window, first: rows[0], last: rows.at(-1) })
 */
export function windowEntryOf({
  window,
  first,
  last,
}: {
  window: WindowSummary;
  first: StoredRow | undefined;
  last: StoredRow | undefined;
}): WindowEntry {
  return {
    window_id: window.windowId,
    kind: window.kind,
    ...(window.reason === undefined ? {} : { reason: window.reason }),
    active: window.active,
    item_count: window.visibleCount,
    first_item: first === undefined ? null : String(first.seq),
    last_item: last === undefined ? null : String(last.seq),
    started_at: window.startedAt,
    ended_at: window.endedAt,
    preview:
      first === undefined
        ? null
        : oneLinePreview({
            text: renderRowText(first, { maxValueChars: WINDOW_PREVIEW_CHARS }),
            maxChars: WINDOW_PREVIEW_CHARS,
          }),
  };
}

/** The first or last readable row of a window, scanning a few small pages past hidden rows. */
function edgeVisibleRow(
  context: HistoryContext,
  window: WindowSummary,
  edge: "first" | "last",
): Promise<StoredRow | undefined> {
  return windowEdgeRow({
    store: context.store,
    sessionId: context.sessionId,
    window,
    edge,
    accept: (row) => isReadable(context, row),
    pageRows: EDGE_PAGE_ROWS,
    maxPages: EDGE_MAX_STEPS,
  });
}
