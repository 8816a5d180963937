/**
 * History search for the web UI with the `session_history` tool's rules (privacy floor, no hidden
 * or rejected rows, a verbatim snippet around the match; see tools/session-history/search-hits.ts),
 * shaped as the UI's hit view. Literal hits come newest first, ranked ones most relevant (or, with
 * `order: "newest"`, newest) first; a role or tool filter narrows them (ADR 0033). A hybrid or
 * semantic search (a server with an embedding model, ADR 0063) also says how its vectors took
 * part: rows not embedded yet, or word search answering alone.
 */
import type { SearchFilter, SearchOrder } from "../core/search-filter.js";
import type { SearchMode } from "../core/search-query.js";
import type { EmbeddingSearchMode, HistoryStore, SearchEmbeddingsNote } from "../store/port.js";
import { findSnippetHits, type SnippetHit } from "../tools/session-history/search-hits.js";
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

export interface SearchResultView {
  hits: SearchHitView[];
  /** Set for `hybrid` and `semantic`: the store's `SearchPage.embeddings`. */
  embeddings?: SearchEmbeddingsNote;
}

/**
 * @example const { hits } = await searchHistory({ store, sessionId: "s1", windows, query: "orders", mode: "literal", limit: 20 });
 */
export async function searchHistory({
  store,
  sessionId,
  windows,
  query,
  mode,
  limit,
  filter = {},
  order,
}: {
  store: HistoryStore;
  sessionId: string;
  windows: SessionWindows;
  query: string;
  mode: SearchMode | EmbeddingSearchMode;
  limit: number;
  /** Only hits of this role, or calling this tool (ADR 0033). */
  filter?: SearchFilter;
  order?: SearchOrder;
}): Promise<SearchResultView> {
  const result = await findSnippetHits({ store, sessionId, query, mode, limit, filter, ...(order === undefined ? {} : { order }) });
  if (result.status === "invalid-query") throw badRequest(result.message);
  const hits = result.hits.map((hit) => searchHitView({ hit, windows }));
  return result.embeddings === undefined ? { hits } : { hits, embeddings: result.embeddings };
}

function searchHitView({ hit, windows }: { hit: SnippetHit; windows: SessionWindows }): SearchHitView {
  const { row } = hit;
  return {
    itemId: String(row.seq),
    seq: row.seq,
    windowId: hit.windowId,
    windowNumber: windows.windowOf(row.seq)?.number ?? 1,
    role: row.role,
    snippet: hit.snippet.text,
  };
}
