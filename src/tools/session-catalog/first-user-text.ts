/**
 * The first thing a person typed into a session after its privacy floor: what names a session in
 * the lists (the web UI's, and `list_sessions` over MCP for ctxwin's own sessions). The store
 * applies its own current floor to the read, so text a manual reset cleared never names a session
 * (ADR 0046). Synthetic rows and internal rows (`meta.type`, e.g. a lead-in or a rejected input)
 * are not typed by a person and are skipped.
 */
import { renderRowText } from "../../core/row-text.js";
import type { HistoryStore } from "../../store/port.js";

/** Rows looked at from the privacy floor on (the session's start without one). */
export const FIRST_USER_TEXT_SCAN_ROWS = 50;

/**
 * The rendered text of the first user message after the floor (trimmed, never empty), or
 * `undefined` when the first rows hold none.
 *
 * @example const title = await firstUserText({ store, sessionId: "s1" }); // "Rotate the staging keys"
 */
export async function firstUserText({
  store,
  sessionId,
}: {
  store: HistoryStore;
  sessionId: string;
}): Promise<string | undefined> {
  const page = await store.items(sessionId, { afterSeq: 0, limit: FIRST_USER_TEXT_SCAN_ROWS });
  for (const row of page.rows) {
    if (row.role !== "user" || row.synthetic === true || row.meta !== undefined) continue;
    const text = renderRowText(row).trim();
    if (text.length > 0) return text;
  }
  return undefined;
}
