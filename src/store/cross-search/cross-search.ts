/**
 * `searchSessions` on every backend (ADR 0089): the sessions table says which stored rows each
 * visible session may show (`search-scope.ts`), the backend finds the matching rows among them in
 * one query over its indexes (`searchScope`), and this module orders them, caps each session's
 * hits and cuts the page. Literal hits come by session, newest activity first, each session's
 * newest first; ranked hits by one BM25 over all sessions, or in the literal order with
 * `order: "newest"`. A role or tool filter (ADR 0033) is part of the backend's query (ADR 0093).
 * Hybrid (ADR 0105) is the ranked query fused with one nearest-neighbour query over the same scope.
 */
import { InvalidArgumentError } from "../../core/errors.js";
import { RANKED_CANDIDATE_LIMIT } from "../../core/ranked-search-plan.js";
import { checkSearchFilter, type SearchFilter, type SearchOrder } from "../../core/search-filter.js";
import { assertSearchableQuery } from "../../core/search-query.js";
import type { LineageBackend } from "../lineage/lineage-backend.js";
import { checkLimit, checkSeq } from "../options.js";
import type { CrossSearchHit, CrossSearchOptions, CrossSearchPage, CrossSearchVectors, StoredRow } from "../port.js";
import { hybridMatches, hybridPool } from "./hybrid-matches.js";
import { loadHits } from "./load-hits.js";
import { ownersOf, searchScope, type ScopeSession, type SearchScope } from "./search-scope.js";

/** Most hits of one cross-session page. */
export const MAX_CROSS_SEARCH_LIMIT = 50;
/** Matching rows one cross-session search reads at most (ADR 0089); past it the page is `partial`. */
export const CROSS_SEARCH_SCAN_LIMIT = 2_000;
/**
 * Ranked, with a role or tool filter: the rows of the scope one cross-session search looks at at
 * most, passing the filter or not (SQLite, ADR 0093); past it the page is `partial`. A literal
 * search looks at `CROSS_SEARCH_SCAN_LIMIT` candidates at most, with a filter or without.
 */
export const CROSS_FILTER_EXAMINE_LIMIT = 10_000;
/** Ranked: the newest rows holding a kept word that one cross-session search scores at most (ADR 0016, 0089). */
export const CROSS_RANKED_CANDIDATE_LIMIT = RANKED_CANDIDATE_LIMIT;

/**
 * What a backend's one query is asked (ADR 0089). The backend reads the sessions table and runs the
 * query in one read transaction (one snapshot), so that no clear can fall between the two.
 */
export interface ScopeSearchRequest {
  /** The scope of these sessions (one light row each, `ScopeSession`). */
  scopeOf: (sessions: readonly ScopeSession[]) => SearchScope;
  query: string;
  mode: "literal" | "ranked";
  /** Literal: a stored row whose every session already has this many hits and one need not be verified. */
  hitsPerSession: number;
  /** Read at most this many matching (literal: candidate) rows, then say `partial`. */
  scanLimit: number;
  /**
   * Literal: the sessions the page needs hits of (offset + limit + 1). A backend that reads the
   * sessions newest activity first, each one's hits (and one more) in full, may stop once this many
   * sessions have hits: the page and `hasMore` are then what a full read gives.
   */
  wantedSessions: number;
  /**
   * Only rows that pass this role and tool filter (ADR 0093): rows that do not pass are no candidates
   * and do not count towards `scanLimit`. Empty: no filter.
   */
  filter: SearchFilter;
  /** With a filter: look at at most this many rows of the scope, passing it or not, then say `partial`. */
  examineLimit: number;
  /** The page's order (`crossSearch` orders the matches): for a backend that reads the page's rows ahead. */
  order: SearchOrder;
}

/** A stored row that matches: literal ones verified (`containsLiteral`), ranked ones with their BM25 score. */
export interface ScopeMatch {
  storedIn: string;
  seq: number;
  /** Ranked: higher is better (0 for literal). */
  score: number;
  /** The decoded row when the backend read it anyway; otherwise it is read for the page only. */
  hit?: { row: StoredRow; windowId: string };
}

export interface ScopeSearchResult {
  /** The scope the query ran in. */
  scope: SearchScope;
  matches: ScopeMatch[];
  partial: boolean;
}

interface CheckedCrossSearch {
  query: string;
  mode: "literal" | "ranked" | "hybrid";
  limit: number;
  offset: number;
  hitsPerSession: number;
  sessionIds: readonly string[] | undefined;
  filter: SearchFilter;
  order: SearchOrder;
}

function checkCrossSearchOptions(options: CrossSearchOptions): CheckedCrossSearch {
  if (options === null || typeof options !== "object")
    throw new InvalidArgumentError("searchSessions needs { query, mode }.");
  const mode = options.mode;
  if (mode !== "literal" && mode !== "ranked" && mode !== "hybrid")
    throw new InvalidArgumentError(`mode must be 'literal', 'ranked' or 'hybrid'; got ${String(mode)}.`);
  // Hybrid's word half is ranked search: its query and filters are checked as ranked ones.
  const wordMode = mode === "literal" ? "literal" : "ranked";
  if (
    options.sessionIds !== undefined &&
    (!Array.isArray(options.sessionIds) || options.sessionIds.some((id) => typeof id !== "string"))
  ) {
    throw new InvalidArgumentError("sessionIds must be an array of session ids.");
  }
  const { order, ...filter } = checkSearchFilter({
    mode: wordMode,
    role: options.role,
    toolName: options.toolName,
    order: options.order,
  });
  return {
    query: assertSearchableQuery(options.query, wordMode),
    mode,
    limit: checkLimit(options.limit, 10, MAX_CROSS_SEARCH_LIMIT),
    offset: checkSeq("offset", options.offset) ?? 0,
    hitsPerSession: checkLimit(options.hitsPerSession, 3, MAX_CROSS_SEARCH_LIMIT),
    sessionIds: options.sessionIds,
    filter,
    order,
  };
}

/**
 * Counts hits per session while a backend reads candidates, so that it can skip verifying a row
 * no session of which needs another hit.
 *
 * @example const counter = ownerCounter(request); if (counter.wanted(id, seq)) { ...; counter.add(id, seq); }
 */
export function ownerCounter({ scope, hitsPerSession }: { scope: SearchScope; hitsPerSession: number }) {
  const counts = new Map<string, number>();
  return {
    /** Whether some session showing this stored row still needs hits (one past the cap says it has more). */
    wanted(storedIn: string, seq: number): boolean {
      return ownersOf(scope, storedIn, seq).some((segment) => (counts.get(segment.ownerId) ?? 0) <= hitsPerSession);
    },
    add(storedIn: string, seq: number): void {
      for (const segment of ownersOf(scope, storedIn, seq))
        counts.set(segment.ownerId, (counts.get(segment.ownerId) ?? 0) + 1);
    },
  };
}

/**
 * @example const page = await crossSearch(raw, { query: "staging", mode: "literal" });
 */
export async function crossSearch(
  raw: LineageBackend,
  options: CrossSearchOptions,
  vectors?: CrossSearchVectors,
): Promise<CrossSearchPage> {
  const checked = checkCrossSearchOptions(options);
  const mode = checked.mode === "literal" ? "literal" : "ranked";
  const {
    scope,
    matches: wordMatches,
    partial,
  } = await raw.searchScope({
    scopeOf: (sessions) => cachedScope(sessions, checked.sessionIds),
    query: checked.query,
    mode,
    hitsPerSession: checked.hitsPerSession,
    scanLimit: mode === "ranked" ? CROSS_RANKED_CANDIDATE_LIMIT : CROSS_SEARCH_SCAN_LIMIT,
    wantedSessions: checked.offset + checked.limit + 1,
    filter: checked.filter,
    examineLimit: mode === "ranked" ? CROSS_FILTER_EXAMINE_LIMIT : CROSS_SEARCH_SCAN_LIMIT,
    order: checked.order,
  });
  const matches =
    checked.mode === "hybrid"
      ? await hybridMatches({
          raw,
          scope,
          matches: wordMatches,
          vectors,
          pool: hybridPool(checked.offset + checked.limit),
          filter: checked.filter,
        })
      : wordMatches;
  const found = matches.flatMap((match) =>
    ownersOf(scope, match.storedIn, match.seq).map((segment) => ({
      match,
      ownerId: segment.ownerId,
      rank: segment.rank,
    })),
  );
  found.sort((left, right) =>
    checked.order === "relevance"
      ? right.match.score - left.match.score || left.rank - right.rank || right.match.seq - left.match.seq
      : left.rank - right.rank || right.match.seq - left.match.seq,
  );
  const perSession = new Map<string, number>();
  const kept = found.filter((entry) => {
    const count = (perSession.get(entry.ownerId) ?? 0) + 1;
    perSession.set(entry.ownerId, count);
    return count <= checked.hitsPerSession;
  });
  const page = kept.slice(checked.offset, checked.offset + checked.limit);
  const loaded = await loadHits(
    raw,
    page.map((entry) => entry.match),
  );
  const hits: CrossSearchHit[] = [];
  for (const entry of page) {
    const hit = loaded.get(entry.match);
    if (hit !== undefined)
      hits.push({ sessionId: entry.ownerId, row: { ...hit.row, sessionId: entry.ownerId }, windowId: hit.windowId });
  }
  const moreInSession = [...new Set(page.map((entry) => entry.ownerId))].filter(
    (ownerId) => (perSession.get(ownerId) ?? 0) > checked.hitsPerSession,
  );
  const hasMore = kept.length > checked.offset + checked.limit;
  return {
    hits,
    moreInSession,
    hasMore,
    ...(hasMore ? { nextOffset: checked.offset + checked.limit } : {}),
    ...(partial ? { partial } : {}),
    sessionsSearched: scope.owners,
  };
}

/**
 * Scopes by the sessions rows they were made from: a backend that can tell its sessions table has
 * not changed since the last call (SQLite) hands the same array again, and the scope is not rebuilt.
 */
const scopes = new WeakMap<readonly ScopeSession[], Map<string, SearchScope>>();

function cachedScope(sessions: readonly ScopeSession[], sessionIds: readonly string[] | undefined): SearchScope {
  const key = sessionIds === undefined ? "" : JSON.stringify(sessionIds);
  let byIds = scopes.get(sessions);
  if (byIds === undefined) scopes.set(sessions, (byIds = new Map()));
  let scope = byIds.get(key);
  if (scope === undefined) {
    // A few filters per sessions table are kept; an unfiltered scope is the common one.
    if (byIds.size >= 8) byIds.clear();
    byIds.set(key, (scope = searchScope({ summaries: sessions, sessionIds })));
  }
  return scope;
}
