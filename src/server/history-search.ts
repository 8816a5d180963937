/**
 * History search for the web UI with the `session_history` tool's rules: the privacy floor (nothing
 * at or before the newest manual reset), no hidden or rejected rows, a verbatim snippet around the
 * match. Literal hits come newest first, ranked ones most relevant first.
 */
import { SNIPPET_MAX_CHARS } from "../core/history-view/limits.js";
import { excerptAround, findLiteralMatch, findWordMatch } from "../core/history-view/text-excerpt.js";
import { renderRowText } from "../core/row-text.js";
import { InvalidQueryError, rankedQueryWords, type SearchMode } from "../core/search-query.js";
import { isHistoryVisible } from "../core/visibility.js";
import type { HistoryStore } from "../store/port.js";
import { badRequest } from "./api-error.js";
import type { SessionWindows } from "./session-windows.js";

export interface SearchHitView {
  itemId: string;
  seq: number;
  windowId: string;
  windowNumber: number;
  role: string;
  snippet: string;
}

/**
 * @example const hits = await searchHistory({ store, sessionId: "s1", windows, query: "orders", mode: "literal", limit: 20 });
 */
export async function searchHistory({
  store,
  sessionId,
  windows,
  query,
  mode,
  limit,
}: {
  store: HistoryStore;
  sessionId: string;
  windows: SessionWindows;
  query: string;
  mode: SearchMode;
  limit: number;
}): Promise<SearchHitView[]> {
  if (query.trim().length === 0) throw badRequest("The search text is empty.");
  const floor = await store.privacyFloor(sessionId);
  let page;
  try {
    page = await store.search(sessionId, { query, mode, limit });
  } catch (error) {
    if (InvalidQueryError.isInstance(error)) throw badRequest(error.message);
    throw error;
  }
  const words = mode === "ranked" ? rankedQueryWords(query) : [];
  return page.hits
    .filter((hit) => hit.row.seq > floor && isHistoryVisible(hit.row))
    .map((hit) => {
      const text = renderRowText(hit.row);
      const match = (mode === "literal" ? findLiteralMatch({ text, query }) : findWordMatch({ text, words })) ?? { start: 0, length: 0 };
      const window = windows.windowOf(hit.row.seq);
      return {
        itemId: String(hit.row.seq),
        seq: hit.row.seq,
        windowId: hit.windowId,
        windowNumber: window?.number ?? 1,
        role: hit.row.role,
        snippet: excerptAround({ text, match, maxChars: SNIPPET_MAX_CHARS }).text,
      };
    });
}
