/**
 * Cross-session `search` (no `session_id`): one search over the store's indexes across every
 * visible session (`HistoryStore.searchSessions`, ADR 0089), with each session's privacy floor,
 * hidden rows, lineage and sub-agent visibility applied inside it. Hits are grouped by session
 * (at most `HITS_PER_SESSION` each, so one chatty session cannot fill the page) and paged by hit
 * with `offset`; a role or tool filter and `order` are part of that one search (ADR 0093), and so is
 * `hybrid`: the ranked query fused with one nearest-neighbour query over the same sessions (ADR 0105).
 * `session_offset` is accepted and ignored (it paged the per-session path this replaced).
 */
import { fitEntries } from "../../core/history-view/bounded-result.js";
import {
  MAX_RESULT_BYTES,
  MAX_SEARCH_OFFSET,
  SEARCH_LIMIT,
  SNIPPET_MAX_CHARS,
  STORE_HISTORY_LABEL,
} from "../../core/history-view/limits.js";
import { renderRowForSearch } from "../../core/row-text.js";
import { InvalidQueryError } from "../../core/search-query.js";
import { checkInput } from "../session-history/input-schema.js";
import { searchQueryProblem } from "../session-history/search.js";
import { searchHitEntry, snippetFinder } from "../session-history/search-hits.js";
import { fieldPhrase } from "./catalog-input.js";
import {
  catalogError,
  type CatalogErrorResult,
  type SearchSessionsResult,
  type SessionHits,
} from "./catalog-results.js";
import type { SessionCatalog, SessionFilter } from "./session-descriptors.js";
import { HITS_PER_SESSION } from "./catalog-limits.js";

export { HITS_PER_SESSION };

const hasFilter = (filter: SessionFilter) => Object.values(filter).some((value) => value !== undefined);

/**
 * @example await searchSessions({ catalog, filter: {}, offset: 0, input: { action: "search", query: "staging" } })
 */
export async function searchSessions({
  catalog,
  filter,
  input,
}: {
  catalog: SessionCatalog;
  filter: SessionFilter;
  /** `session_offset`: accepted for compatibility and ignored; pages go by hit (`offset`, ADR 0105). */
  offset?: number;
  /** The session_history search fields (query, mode, limit, offset). */
  input: Record<string, unknown>;
}): Promise<SearchSessionsResult | CatalogErrorResult> {
  const invalid = (code: "invalid_input" | "invalid_query", message: string) =>
    catalogError({ action: "search", code, message });
  const checked = checkInput(input);
  if (!checked.ok) return invalid("invalid_input", checked.message);
  const fields = checked.input;
  const scoped = (["window_id", "before_item"] as const).filter(
    (field) => fields[field] !== undefined && fields[field] !== null,
  );
  if (scoped.length > 0) {
    const { names, verb } = fieldPhrase(scoped, { singular: "works", plural: "work" });
    return invalid("invalid_input", `Invalid input: ${names} ${verb} within one session only; give session_id too.`);
  }
  const problem = searchQueryProblem(fields);
  if (problem !== undefined)
    return invalid(problem.error.code === "invalid_query" ? "invalid_query" : "invalid_input", problem.error.message);

  const limit = fields.limit ?? SEARCH_LIMIT.default;
  const mode = fields.mode === "ranked" || fields.mode === "hybrid" ? fields.mode : "literal";
  const hitOffset = fields.offset ?? 0;
  const query = fields.query ?? "";
  // Filters by project, source or date need the sessions described; without them only the hits' sessions are.
  const filtered = hasFilter(filter) ? await catalog.describe(filter) : undefined;
  let page;
  try {
    page = await catalog.store.searchSessions({
      query,
      mode,
      // A few hits more than the page: a session whose hits straddle its end moves whole to the next page.
      limit: limit + HITS_PER_SESSION,
      offset: hitOffset,
      hitsPerSession: HITS_PER_SESSION,
      ...(fields.role == null ? {} : { role: fields.role }),
      ...(fields.tool_name == null ? {} : { toolName: fields.tool_name }),
      ...(fields.order == null ? {} : { order: fields.order }),
      ...(filtered === undefined ? {} : { sessionIds: filtered.map((descriptor) => descriptor.sessionId) }),
    });
  } catch (error) {
    if (InvalidQueryError.isInstance(error)) return invalid("invalid_query", error.message);
    throw error;
  }
  const descriptors =
    filtered !== undefined
      ? new Map(filtered.map((descriptor) => [descriptor.sessionId, descriptor]))
      : await catalog.describeSessions(page.hits.map((hit) => hit.sessionId));
  const snippetOf = snippetFinder({
    query,
    mode: mode === "literal" ? "literal" : "ranked",
    maxChars: fields.max_item_chars ?? SNIPPET_MAX_CHARS,
  });
  const more = new Set(page.moreInSession);
  const entries: { hits: number; group: SessionHits }[] = [];
  for (const hit of page.hits) {
    const descriptor = descriptors.get(hit.sessionId);
    if (descriptor === undefined) continue;
    const { text, searchable } = renderRowForSearch(hit.row);
    const entry = {
      session_id: hit.sessionId,
      ...searchHitEntry({ row: hit.row, windowId: hit.windowId, text, snippet: snippetOf(text, searchable) }),
    };
    const last = entries.at(-1);
    if (last !== undefined && last.group.session_id === hit.sessionId) {
      last.group.hits.push(entry);
      last.hits += 1;
      continue;
    }
    entries.push({
      hits: 1,
      group: {
        session_id: hit.sessionId,
        source: descriptor.source,
        title: descriptor.title,
        project: descriptor.project,
        hits: [entry],
        more_hits_in_session: more.has(hit.sessionId),
      },
    });
  }
  // Whole sessions up to `limit` hits (the first one whole in any case): no session is split over two pages.
  let pageHits = 0;
  let pageEntries = 0;
  for (const entry of entries) {
    if (pageEntries > 0 && pageHits + entry.hits > limit) break;
    pageHits += entry.hits;
    pageEntries += 1;
  }
  const onPage = entries.slice(0, pageEntries);
  const storeHasMore = page.hasMore || pageEntries < entries.length;
  // A hybrid page says when word search answered alone, or rows are not embedded yet (ADR 0063, 0105).
  const notes = [page.partial === true ? PARTIAL_NOTE : undefined, page.embeddings?.message].filter(
    (note): note is string => note !== undefined,
  );
  const build = (kept: { hits: number; group: SessionHits }[]): SearchSessionsResult => {
    const shown = kept.reduce((sum, entry) => sum + entry.hits, 0);
    const hasMore = storeHasMore || kept.length < onPage.length;
    const nextOffset = hitOffset + shown;
    return {
      label: STORE_HISTORY_LABEL,
      ok: true,
      action: "search",
      scope: "all_sessions",
      mode,
      sessions_total: filtered?.length ?? page.sessionsSearched,
      sessions_searched: page.sessionsSearched,
      results: kept.map((entry) => entry.group),
      has_more: hasMore,
      next: hasMore && nextOffset <= MAX_SEARCH_OFFSET ? { offset: nextOffset } : null,
      ...(notes.length > 0 ? { note: notes.join(" ") } : {}),
    };
  };
  return fitEntries({ entries: onPage, build, maxBytes: MAX_RESULT_BYTES })?.result ?? build([]);
}

const PARTIAL_NOTE =
  "The query matches more items than one search reads: these hits come from the newest ones. " +
  "Add words to narrow it, or search one session (session_id) to page through all of its hits.";
