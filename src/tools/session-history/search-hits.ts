/**
 * Search hits with the `session_history` rules, for the views people use (`ctxwin history search`,
 * the web UI's search): the store's hits without anything at or before the privacy floor (unless
 * the person lifts it with `includeCleared`) or hidden from history, each with its rendered text
 * and a verbatim snippet of at most 500 characters around the match. Literal hits come newest
 * first, ranked ones most relevant first. Each caller shapes its own entries from the hits.
 */
import { SNIPPET_MAX_CHARS } from "../../core/history-view/limits.js";
import {
  excerptAround,
  findLiteralMatch,
  findWordMatch,
  type Excerpt,
  type MatchSpan,
} from "../../core/history-view/text-excerpt.js";
import { InvalidArgumentError } from "../../core/errors.js";
import { renderRowForSearch } from "../../core/row-text.js";
import type { SearchFilter, SearchOrder } from "../../core/search-filter.js";
import { InvalidQueryError, rankedQueryWords, type SearchMode } from "../../core/search-query.js";
import { isHistoryVisible } from "../../core/visibility.js";
import type {
  EmbeddingSearchMode,
  HistoryStore,
  SearchEmbeddingsNote,
  SearchHit,
  StoredRow,
} from "../../store/port.js";
import { itemFields } from "./history-context.js";
import type { SearchHitEntry } from "./results.js";

/** One shown hit: its row and window, the row's full rendering, and the snippet cut from it. */
export interface SnippetHit {
  row: StoredRow;
  windowId: string;
  /** The row's full rendered text (what a read pages through). */
  text: string;
  snippet: Excerpt;
}

/** Hits, or a query (or filter) the person has to change (an expected outcome, not an exception). */
export type SnippetSearchResult =
  | {
      status: "ok";
      hits: SnippetHit[];
      /** What a hybrid or semantic search says about its vectors. */
      note?: string;
      /** How a hybrid or semantic search used the vectors (the store's last page's `embeddings`). */
      embeddings?: SearchEmbeddingsNote;
    }
  | { status: "invalid-query"; message: string };

/** Rounds of a literal search that stopped early (each reads at most 1,000 candidate rows, ADR 0033, 0051). */
const MAX_LITERAL_ROUNDS = 10;

/** Where the snippet starts when the rendered text holds no match (e.g. the match was in metadata). */
const NO_MATCH: MatchSpan = { start: 0, length: 0 };

/**
 * Searches one session and keeps the hits a person may see, each with its snippet.
 *
 * @example
 * const result = await findSnippetHits({ store, sessionId: "s1", query: "orders", mode: "literal", limit: 20 });
 * if (result.status === "ok") result.hits[0]?.snippet.text // "Which services write to orders.status?"
 */
export async function findSnippetHits({
  store,
  sessionId,
  query,
  mode,
  limit,
  includeCleared = false,
  filter = {},
  order,
  maxChars = SNIPPET_MAX_CHARS,
}: {
  store: HistoryStore;
  sessionId: string;
  query: string;
  mode: SearchMode | EmbeddingSearchMode;
  limit: number;
  /** Also show hits at or before the newest manual reset: only when the person asks for it. */
  includeCleared?: boolean;
  /** Only hits of this role, or calling this tool (ADR 0033). */
  filter?: SearchFilter;
  /** Ranked hits most relevant (default) or newest first. */
  order?: SearchOrder;
  /** Longest snippet (at most 500). */
  maxChars?: number;
}): Promise<SnippetSearchResult> {
  if (query.trim().length === 0) return { status: "invalid-query", message: "The search text is empty." };
  const floor = includeCleared ? 0 : await store.privacyFloor(sessionId);
  let hits: SearchHit[];
  let note: string | undefined;
  let embeddings: SearchEmbeddingsNote | undefined;
  try {
    const narrowing = {
      ...(filter.role === undefined ? {} : { role: filter.role }),
      ...(filter.toolName === undefined ? {} : { toolName: filter.toolName }),
      ...(order === undefined ? {} : { order }),
    };
    hits = [];
    // A literal search may stop early (ADR 0033, 0051); a person waits for a few more rounds.
    let beforeSeq: number | undefined;
    for (let round = 0; round < MAX_LITERAL_ROUNDS && hits.length < limit; round += 1) {
      const page = await store.search(sessionId, {
        query,
        mode,
        limit: limit - hits.length,
        includeCleared,
        ...narrowing,
        ...(beforeSeq === undefined ? {} : { beforeSeq }),
      });
      hits.push(...page.hits);
      note = page.embeddings?.message ?? note;
      embeddings = page.embeddings ?? embeddings;
      if (page.resumeBeforeSeq === undefined) break;
      beforeSeq = page.resumeBeforeSeq;
    }
  } catch (error) {
    // A filter or order the store refuses is the person's to change, like a bad query.
    if (InvalidQueryError.isInstance(error) || InvalidArgumentError.isInstance(error))
      return { status: "invalid-query", message: error.message };
    throw error;
  }
  const snippetOf = snippetFinder({ query, mode: mode === "literal" ? "literal" : "ranked", maxChars });
  const shown = hits.filter((hit) => isShownHit({ row: hit.row, sessionId, floor }));
  return {
    status: "ok",
    hits: shown.map((hit) => snippetHit({ hit, snippetOf })),
    ...(note === undefined ? {} : { note }),
    ...(embeddings === undefined ? {} : { embeddings }),
  };
}

/**
 * Cuts the snippet of a hit's rendered text: around the first literal occurrence of `query`, or
 * the first word ranked search would count; from the start when neither is in the text. At most
 * `maxChars` characters (default and maximum: 500).
 *
 * @example snippetFinder({ query: "STATUS", mode: "literal" })("orders.status") // { text: "orders.status", offsetChars: 0 }
 */
export function snippetFinder({
  query,
  mode,
  maxChars = SNIPPET_MAX_CHARS,
}: {
  query: string;
  mode: SearchMode;
  maxChars?: number;
}): (text: string, searchable?: string) => Excerpt {
  const words = mode === "ranked" ? rankedQueryWords(query) : [];
  const cap = Math.min(maxChars, SNIPPET_MAX_CHARS);
  // The match is looked for where search looks (history lookups blanked), the excerpt cut from the text.
  return (text, searchable = text) => {
    const match =
      (mode === "literal"
        ? findLiteralMatch({ text: searchable, query })
        : findWordMatch({ text: searchable, words })) ?? NO_MATCH;
    return excerptAround({ text, match, maxChars: cap });
  };
}

/**
 * A hit as `session_history` and `ctxwin history search` list it.
 *
 * @example searchHitEntry(hit) // { item_id: "10", window_id: "w:8", role: "user", …, snippet: "…", snippet_offset_chars: 0 }
 */
export function searchHitEntry({ row, windowId, text, snippet }: SnippetHit): SearchHitEntry {
  return { ...itemFields({ row, windowId, text }), snippet: snippet.text, snippet_offset_chars: snippet.offsetChars };
}

/** Of this session, after the floor, and visible to history (whatever the store returned). */
function isShownHit({ row, sessionId, floor }: { row: StoredRow; sessionId: string; floor: number }): boolean {
  return row.sessionId === sessionId && row.seq > floor && isHistoryVisible(row);
}

function snippetHit({
  hit,
  snippetOf,
}: {
  hit: SearchHit;
  snippetOf: (text: string, searchable?: string) => Excerpt;
}): SnippetHit {
  const { text, searchable } = renderRowForSearch(hit.row);
  return { row: hit.row, windowId: hit.windowId, text, snippet: snippetOf(text, searchable) };
}
