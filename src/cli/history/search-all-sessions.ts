/**
 * `ctxwin history search <text>` without a session id: the search `session_history` runs without
 * `session_id` (the library's `searchSessions`: one store query, the code path MCP uses, with its
 * role, tool and order filters, and hybrid, ADR 0105), paged by hit until `limit` hits or the last one. Each result is
 * one session's hits with its title; a page's note (word search answered alone, rows not embedded yet) goes to `onNote`.
 */
import { SEARCH_LIMIT } from "../../core/history-view/limits.js";
import type { SearchFilter, SearchOrder } from "../../core/search-filter.js";
import type { HistoryStore } from "../../store/port.js";
import { searchSessions } from "../../tools/session-catalog/catalog-api.js";
import type { CatalogResult, SessionHits } from "../../tools/session-catalog/catalog-results.js";
import type { SessionHistoryResult } from "../../tools/session-history/results.js";
import { HistoryCommandError } from "./history-errors.js";

/**
 * @example const results = await searchAllSessions({ store, query: "staging port", mode: "literal", limit: 20 });
 */
export async function searchAllSessions({
  store,
  query,
  mode,
  limit,
  filter = {},
  order,
  onNote = () => undefined,
}: {
  store: HistoryStore;
  query: string;
  mode: "literal" | "ranked" | "hybrid";
  /** Each distinct note of the pages, once. */
  onNote?: (note: string) => void;
  limit: number;
  /** Only items of this role, or calling this tool: inside the same one query (ADR 0093). */
  filter?: SearchFilter;
  order?: SearchOrder;
}): Promise<SessionHits[]> {
  const results: SessionHits[] = [];
  let found = 0;
  let offset: number | undefined;
  const notes = new Set<string>();
  while (found < limit) {
    const page = await searchSessions({
      store,
      query,
      mode,
      limit: Math.min(SEARCH_LIMIT.max, limit - found),
      ...(offset === undefined ? {} : { offset }),
      ...(filter.role === undefined ? {} : { role: filter.role }),
      ...(filter.toolName === undefined ? {} : { toolName: filter.toolName }),
      ...(order === undefined ? {} : { order }),
    });
    if (!isSearchPage(page)) throw new HistoryCommandError(errorMessageOf(page));
    if (page.note !== undefined && !notes.has(page.note)) {
      notes.add(page.note);
      onNote(page.note);
    }
    for (const session of page.results) {
      results.push(session);
      found += session.hits.length;
    }
    if (page.next === null || !("offset" in page.next)) break;
    offset = page.next.offset;
  }
  return results;
}

type SearchPage = Extract<CatalogResult, { action: "search"; ok: true }>;

function isSearchPage(result: CatalogResult | SessionHistoryResult): result is SearchPage {
  return result.ok === true && "scope" in result && result.scope === "all_sessions";
}

function errorMessageOf(result: CatalogResult | SessionHistoryResult): string {
  const error = (result as { error?: { message?: unknown } }).error;
  return typeof error?.message === "string" ? error.message : "the search failed.";
}
