/**
 * `search`: literal (case-insensitive substring, newest first, paged with `before_item`) or
 * ranked (any of the words, most relevant or newest first, paged with `offset`), optionally only
 * items of one role or calling one tool (ADR 0033). Each hit carries a
 * verbatim snippet of at most 500 characters around the match and the offset where the snippet
 * starts, so `read_item` can continue from there.
 */
import { fitEntries } from "../../core/history-view/bounded-result.js";
import {
  MAX_RESULT_BYTES,
  MAX_SEARCH_OFFSET,
  SEARCH_LIMIT,
  SNIPPET_MAX_CHARS,
} from "../../core/history-view/limits.js";
import { renderRowForSearch } from "../../core/row-text.js";
import { InvalidQueryError, queryProblem, type SearchMode } from "../../core/search-query.js";
import { parseWindowId } from "../../core/windows.js";
import { LITERAL_SCAN_LIMIT } from "../../store/filtered-scan.js";
import { isReadable, parseItemCursor, windowAt, type HistoryContext } from "./history-context.js";
import type { SessionHistoryInput } from "./input-schema.js";
import { searchHitEntry, snippetFinder } from "./search-hits.js";
import {
  errorResult,
  windowNotAvailable,
  type SearchHitEntry,
  type SearchResult,
  type SessionHistoryErrorResult,
} from "./results.js";

/**
 * @example await searchHistory(context, { action: "search", query: "migration plan", mode: "ranked" })
 */
export async function searchHistory(
  context: HistoryContext,
  input: SessionHistoryInput,
): Promise<SearchResult | SessionHistoryErrorResult> {
  const invalid = (message: string, code: "invalid_input" | "invalid_query" = "invalid_input") =>
    errorResult({ action: "search", code, message });
  const problem = searchQueryProblem(input);
  if (problem !== undefined) return problem;
  const query = input.query ?? "";
  const mode = input.mode ?? "literal";
  const limit = input.limit ?? SEARCH_LIMIT.default;
  const offset = input.offset ?? 0;
  if (mode === "literal" && offset > 0)
    return invalid("offset pages ranked results only; literal results page with before_item (see `next`).");
  const beforeItem = input.before_item ?? undefined;
  const beforeSeq = beforeItem === undefined ? undefined : parseItemCursor(beforeItem);
  if (beforeItem !== undefined && beforeSeq === undefined)
    return invalid("before_item must be an item id such as '42', as list_items and search show them.");
  const windowId = input.window_id ?? undefined;
  if (windowId !== undefined) {
    const windowSeq = parseWindowId(windowId);
    if (windowSeq === undefined)
      return invalid("window_id must be a window id such as 'w:0' or 'w:120', as list_windows shows them.");
    if ((await windowAt(context, windowSeq)) === undefined) return windowNotAvailable({ action: "search", windowId });
  }

  let page;
  try {
    page = await context.store.search(context.sessionId, {
      query,
      mode,
      limit,
      offset,
      ...(windowId === undefined ? {} : { windowId }),
      ...(beforeSeq === undefined ? {} : { beforeSeq }),
      ...(input.role == null ? {} : { role: input.role }),
      ...(input.tool_name == null ? {} : { toolName: input.tool_name }),
      ...(input.order == null ? {} : { order: input.order }),
    });
  } catch (error) {
    if (InvalidQueryError.isInstance(error)) return invalid(error.message, "invalid_query");
    throw error;
  }

  const snippetOf = snippetFinder({
    query,
    mode: mode === "hybrid" ? "ranked" : mode,
    maxChars: input.max_item_chars ?? SNIPPET_MAX_CHARS,
  });
  const readable = page.hits.filter((hit) => isReadable(context, hit.row));
  const entries: SearchHitEntry[] = readable.map((hit) => {
    const { text, searchable } = renderRowForSearch(hit.row);
    return searchHitEntry({ row: hit.row, windowId: hit.windowId, text, snippet: snippetOf(text, searchable) });
  });
  // Ranked paging counts the store's hits, including any this call left out.
  const consumed = (kept: number) =>
    kept === readable.length ? page.hits.length : page.hits.indexOf(readable[kept] as (typeof page.hits)[number]);

  const build = (kept: SearchHitEntry[]): SearchResult => {
    const hasMore = page.hasMore || kept.length < entries.length;
    // A filtered literal search that stopped early resumes below the rows it read (ADR 0033).
    const resume = kept.length === entries.length ? page.resumeBeforeSeq : undefined;
    const next = !hasMore
      ? null
      : resume !== undefined
        ? { before_item: String(resume) }
        : nextPage({ mode, nextOffset: offset + consumed(kept.length), kept });
    const result: SearchResult = {
      label: context.label,
      ok: true,
      action: "search",
      mode,
      hits: kept,
      has_more: hasMore,
      next,
    };
    // A hybrid search says when word search answered alone, or rows are not embedded yet (ADR 0063).
    const embeddingNote = page.embeddings?.message;
    if (resume === undefined) return embeddingNote === undefined ? result : { ...result, note: embeddingNote };
    return { ...result, note: stoppedEarlyNote(kept.length) };
  };
  const fitted = fitEntries({ entries, build, maxBytes: MAX_RESULT_BYTES });
  return fitted?.result ?? build([]);
}

/**
 * The error result for a query, limit or order no search could answer (empty, too long, a ranked
 * query without a word or of stop words only, limit above the maximum, relevance order of literal
 * hits); `undefined` when the search can run. Shared with cross-session search.
 *
 * @example searchQueryProblem({ action: "search", query: "  " })?.error.code // "invalid_query"
 */
export function searchQueryProblem(input: SessionHistoryInput): SessionHistoryErrorResult | undefined {
  const invalid = (message: string, code: "invalid_input" | "invalid_query" = "invalid_input") =>
    errorResult({ action: "search", code, message });
  const query = input.query ?? "";
  if (query.trim().length === 0)
    return invalid("search needs a query: pass the text to look for in `query`.", "invalid_query");
  // The store's own rules (too long, NUL, a ranked query without a word or of stop words only, ADR 0051).
  const problem = queryProblem(query, input.mode === "hybrid" ? "literal" : (input.mode ?? "literal"));
  if (problem !== undefined) return invalid(problem, "invalid_query");
  const limit = input.limit ?? SEARCH_LIMIT.default;
  if (limit > SEARCH_LIMIT.max)
    return invalid(`search limit must be an integer from 1 to ${SEARCH_LIMIT.max}; got ${limit}.`);
  if ((input.mode ?? "literal") === "literal" && input.order === "relevance") {
    return invalid("order 'relevance' needs mode 'ranked'; literal hits are always newest first.");
  }
  if (input.tool_name != null && input.tool_name.trim().length === 0)
    return invalid("tool_name must name a tool, such as 'read_file'; got only spaces.");
  return undefined;
}

/** Why a literal page that stopped at the scan bound holds fewer hits than asked for, and what to do (ADR 0051). */
function stoppedEarlyNote(hits: number): string {
  const found = hits === 0 ? "No match" : `Only ${hits} match${hits === 1 ? "" : "es"}`;
  return (
    `${found} among the ${LITERAL_SCAN_LIMIT.toLocaleString("en")} items this call read, newest first; older items are not searched yet. ` +
    "Repeat the call with `next` to search them, or narrow it with window_id, role, tool_name or a more distinctive query."
  );
}

function nextPage({
  mode,
  nextOffset,
  kept,
}: {
  mode: SearchMode | "hybrid";
  nextOffset: number;
  kept: readonly SearchHitEntry[];
}): SearchResult["next"] {
  if (mode !== "literal") return nextOffset <= MAX_SEARCH_OFFSET && kept.length > 0 ? { offset: nextOffset } : null;
  const oldest = kept.at(-1);
  return oldest === undefined ? null : { before_item: oldest.item_id };
}
