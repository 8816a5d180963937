/**
 * `read_item`: one page of one item's rendered text. Pages follow each other through
 * `next_offset_chars`, never split a surrogate pair, and are cut short when the result would pass
 * 16 KiB, so reading every page in turn reconstructs the rendered item exactly, however large.
 */
import { jsonByteLength } from "../../core/history-view/json-size.js";
import { MAX_RESULT_BYTES, READ_LIMIT_CHARS } from "../../core/history-view/limits.js";
import { pageText } from "../../core/history-view/page.js";
import { renderRowText } from "../../core/row-text.js";
import { parseItemId, windowIdFor } from "../../core/windows.js";
import { isReadable, itemFields, windowContaining, type HistoryContext } from "./history-context.js";
import type { SessionHistoryInput } from "./input-schema.js";
import { errorResult, invalidInput, type ReadItemResult, type SessionHistoryErrorResult } from "./results.js";

/**
 * @example await readItem(context, { action: "read_item", item_id: "42", offset_chars: 8000 })
 */
export async function readItem(
  context: HistoryContext,
  input: SessionHistoryInput,
): Promise<ReadItemResult | SessionHistoryErrorResult> {
  const requested = input.item_id ?? undefined;
  if (requested === undefined) {
    return invalidInput(
      "read_item",
      "read_item needs item_id: an item id such as '42', as list_items and search show them.",
    );
  }
  const seq = parseItemId(requested);
  if (seq === undefined) {
    return invalidInput(
      "read_item",
      "item_id must be an item id such as '42' (a positive whole number), as list_items and search show them.",
    );
  }
  const label = String(requested).slice(0, 20);
  const notAvailable = () =>
    errorResult({
      action: "read_item",
      code: "item_not_available",
      message:
        `Item ${label} is not available: it does not exist in this session, ` +
        "is not part of the readable transcript, or lies at or before a manual reset of the history. " +
        "Use search or list_items to find readable items.",
    });
  if (seq <= context.floor || seq > context.lastSeq) return notAvailable();
  let recent = context.recentItems.get(seq);
  if (recent === undefined) {
    const stored = await context.store.read(context.sessionId, seq);
    if (stored === undefined) return notAvailable();
    recent = { row: stored, text: renderRowText(stored) };
    context.recentItems.set(seq, recent);
  }
  const { row, text } = recent;
  if (row.seq !== seq || !isReadable(context, row)) return notAvailable();

  const offsetChars = input.offset_chars ?? 0;
  if (offsetChars > text.length) {
    return errorResult({
      action: "read_item",
      code: "offset_past_end",
      message: `offset_chars ${offsetChars} is past the end of item ${seq}, which has ${text.length} characters. Read from offset_chars 0 to ${text.length}.`,
    });
  }
  const limitChars = input.limit_chars ?? READ_LIMIT_CHARS.default;
  const windowId = (await windowContaining(context, seq))?.windowId ?? windowIdFor(0);

  const build = (page: { text: string; offsetChars: number; endChars: number; hasMore: boolean }): ReadItemResult => ({
    label: context.label,
    ok: true,
    action: "read_item",
    ...itemFields({ row, windowId, text }),
    offset_chars: page.offsetChars,
    text: page.text,
    has_more: page.hasMore,
    next_offset_chars: page.hasMore ? page.endChars : null,
    next: page.hasMore ? { offset_chars: page.endChars } : null,
  });
  // Bytes left for the page text: the result without text, with the widest possible next offsets.
  const frame = jsonByteLength(build({ text: "", offsetChars: text.length, endChars: text.length, hasMore: true }));
  let page = pageText({ text, offsetChars, limitChars, maxBytes: MAX_RESULT_BYTES - frame });
  let result = build(page);
  while (jsonByteLength(result) > MAX_RESULT_BYTES && page.text.length > 1) {
    // Not expected (the frame was measured at its widest), but the bound is a promise: shrink until it holds.
    page = pageText({
      text,
      offsetChars: page.offsetChars,
      limitChars: Math.floor(page.text.length / 2),
      maxBytes: MAX_RESULT_BYTES - frame,
    });
    result = build(page);
  }
  return result;
}
