/**
 * History search for the web UI with the `session_history` tool's rules (privacy floor, no hidden
 * or rejected rows, a verbatim snippet around the match; see tools/session-history/search-hits.ts),
 * shaped as the UI's hit view. Literal hits come newest first, ranked ones most relevant (or, with
 * `order: "newest"`, newest) first; a role or tool filter narrows them (ADR 0033). A hybrid or
 * semantic search (a server with an embedding model, ADR 0063) also says how its vectors took
 * part: rows not embedded yet, or word search answering alone.
 */
import { findLiteralMatch, WORD_RUN_CLASS, type MatchSpan } from "../core/history-view/text-excerpt.js";
import type { SearchFilter, SearchOrder } from "../core/search-filter.js";
import { rankedQueryWords, rankedTerms, type SearchMode } from "../core/search-query.js";
import { textRuns } from "../core/text-runs.js";
import type { EmbeddingSearchMode, HistoryStore } from "../store/port.js";
import { findSnippetHits, type SnippetHit } from "../tools/session-history/search-hits.js";
import { badRequest } from "./api-error.js";
import { displayText } from "./row-view.js";
import type { SessionWindows } from "./session-windows.js";
import type { SearchHitView, SearchResultView } from "./view-types.js";

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
  const result = await findSnippetHits({
    store,
    sessionId,
    query,
    mode,
    limit,
    filter,
    ...(order === undefined ? {} : { order }),
  });
  if (result.status === "invalid-query") throw badRequest(result.message);
  const marks = matchFinder({ query, mode });
  const hits = result.hits.map((hit) => searchHitView({ hit, windows, marks }));
  return result.embeddings === undefined ? { hits } : { hits, embeddings: result.embeddings };
}

function searchHitView({
  hit,
  windows,
  marks,
}: {
  hit: SnippetHit;
  windows: SessionWindows;
  marks: (text: string) => MatchSpan[];
}): SearchHitView {
  const { row } = hit;
  const snippet = displayText(hit.snippet.text);
  return {
    itemId: String(row.seq),
    seq: row.seq,
    windowId: hit.windowId,
    windowNumber: windows.windowOf(row.seq)?.number ?? 1,
    role: row.role,
    snippet,
    matches: marks(snippet),
  };
}

/**
 * What a query matches in a snippet, for the UI to mark: each case-folded occurrence of a literal
 * query; each word whose stem is one of a ranked (or hybrid) query's terms. A semantic hit matched
 * by meaning: nothing to mark.
 *
 * @example matchFinder({ query: "paint", mode: "ranked" })("She painted it") // [{ start: 4, length: 7 }]
 */
export function matchFinder({
  query,
  mode,
}: {
  query: string;
  mode: SearchMode | EmbeddingSearchMode;
}): (text: string) => MatchSpan[] {
  if (mode === "semantic") return () => [];
  if (mode === "literal") return (text) => literalSpans(text, query);
  const wanted = new Set(rankedQueryWords(query));
  return (text) => {
    const spans: MatchSpan[] = [];
    for (const run of textRuns(text, { classes: [WORD_RUN_CLASS] })) {
      if (rankedTerms(text.slice(run.start, run.end)).some((term) => wanted.has(term)))
        spans.push({ start: run.start, length: run.end - run.start });
    }
    return spans;
  };
}

function literalSpans(text: string, query: string): MatchSpan[] {
  const spans: MatchSpan[] = [];
  for (let from = 0; from < text.length;) {
    const match = findLiteralMatch({ text: text.slice(from), query });
    if (match === undefined || match.length === 0) break;
    spans.push({ start: from + match.start, length: match.length });
    from += match.start + match.length;
  }
  return spans;
}
