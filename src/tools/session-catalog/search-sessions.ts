/**
 * Cross-session `search` (no `session_id`): runs the single-session search, with all its rules
 * (privacy floor, hidden rows, snippets), on each matching session in turn, newest activity
 * first, and keeps at most a few hits per session so one chatty session cannot fill the page.
 * The work of one call is bounded: it looks into at most `MAX_SESSIONS_PER_SEARCH` sessions and
 * says where to continue (`next.session_offset`) when it stopped early.
 */
import { fitEntries } from "../../core/history-view/bounded-result.js";
import { MAX_RESULT_BYTES, SEARCH_LIMIT, STORE_HISTORY_LABEL } from "../../core/history-view/limits.js";
import { RecentItems, type HistoryContext } from "../session-history/history-context.js";
import { checkInput } from "../session-history/input-schema.js";
import { searchHistory, searchQueryProblem } from "../session-history/search.js";
import { MAX_SESSION_OFFSET, fieldPhrase } from "./catalog-input.js";
import { catalogError, type CatalogErrorResult, type SearchSessionsResult, type SessionHits } from "./catalog-results.js";
import type { SessionCatalog, SessionFilter } from "./session-descriptors.js";
import { HITS_PER_SESSION, MAX_SESSIONS_PER_SEARCH } from "./catalog-limits.js";

export { HITS_PER_SESSION, MAX_SESSIONS_PER_SEARCH };

/**
 * @example await searchSessions({ catalog, filter: {}, offset: 0, input: { action: "search", query: "staging" } })
 */
export async function searchSessions({
  catalog,
  filter,
  offset,
  input,
  maxSessions = MAX_SESSIONS_PER_SEARCH,
}: {
  catalog: SessionCatalog;
  filter: SessionFilter;
  offset: number;
  /** The session_history search fields (query, mode, limit). */
  input: Record<string, unknown>;
  maxSessions?: number;
}): Promise<SearchSessionsResult | CatalogErrorResult> {
  const invalid = (code: "invalid_input" | "invalid_query", message: string) => catalogError({ action: "search", code, message });
  const checked = checkInput(input);
  if (!checked.ok) return invalid("invalid_input", checked.message);
  const scoped = (["window_id", "before_item", "offset"] as const).filter((field) => checked.input[field] !== undefined && checked.input[field] !== null);
  if (scoped.length > 0) {
    const { names, verb } = fieldPhrase(scoped, { singular: "works", plural: "work" });
    return invalid("invalid_input", `Invalid input: ${names} ${verb} within one session only; give session_id too, or page across sessions with session_offset.`);
  }
  const problem = searchQueryProblem(checked.input);
  if (problem !== undefined) return invalid(problem.error.code === "invalid_query" ? "invalid_query" : "invalid_input", problem.error.message);
  const limit = checked.input.limit ?? SEARCH_LIMIT.default;
  const mode = checked.input.mode ?? "literal";

  const descriptors = await catalog.describe(filter);
  const groups: { position: number; hits: SessionHits }[] = [];
  let found = 0;
  let position = offset;
  for (; position < descriptors.length && position < offset + maxSessions && found < limit; position += 1) {
    const descriptor = descriptors[position]!;
    const { summary } = descriptor;
    const context: HistoryContext = { store: catalog.store, sessionId: summary.sessionId, floor: summary.floorSeq, lastSeq: summary.lastSeq, recentItems: new RecentItems(), label: STORE_HISTORY_LABEL };
    const result = await searchHistory(context, { ...checked.input, limit: Math.min(HITS_PER_SESSION, limit - found) });
    if (!result.ok) return invalid(result.error.code === "invalid_query" ? "invalid_query" : "invalid_input", result.error.message);
    // A session without hits is left out, unless its search stopped at the literal scan bound
    // (ADR 0051): then it is listed with no hits and more_hits_in_session, never passed over silently.
    if (result.hits.length === 0 && (result.note === undefined || result.mode === "hybrid")) continue;
    found += result.hits.length;
    groups.push({
      position,
      hits: {
        session_id: summary.sessionId,
        source: descriptor.source,
        title: descriptor.title,
        project: descriptor.project,
        hits: result.hits.map((hit) => ({ session_id: summary.sessionId, ...hit })),
        more_hits_in_session: result.has_more,
      },
    });
  }

  const build = (kept: { position: number; hits: SessionHits }[]): SearchSessionsResult => {
    // Cut groups are searched again on the next page; otherwise it starts after the last session looked into.
    const nextOffset = kept.length < groups.length ? groups[kept.length]!.position : position;
    const hasMore = nextOffset < descriptors.length;
    return {
      label: STORE_HISTORY_LABEL,
      ok: true,
      action: "search",
      scope: "all_sessions",
      mode,
      sessions_total: descriptors.length,
      sessions_searched: nextOffset - offset,
      results: kept.map((group) => group.hits),
      has_more: hasMore,
      next: hasMore && nextOffset <= MAX_SESSION_OFFSET ? { session_offset: nextOffset } : null,
    };
  };
  return fitEntries({ entries: groups, build, maxBytes: MAX_RESULT_BYTES })?.result ?? build([]);
}
