/**
 * Cross-session search on the PostgreSQL backend (ADR 0089, 0094): the scope (the visible sessions'
 * floors and lineage, from the sessions table, read again only when it changed: `scope-sessions.ts`),
 * then the rows of its segments that match, each kept only when the scope shows its stored row.
 * - Literal: `literal_text LIKE` the folded query, exactly `containsLiteral`. The sessions are
 *   walked in the page's order (`scope-walk.ts`): newest activity first, each one's newest matches
 *   (and one more) from its primary key, until the page's sessions have their hits. When the walk
 *   shows the matches too sparse to fill the page within `walkLimit` rows, pg_trgm's
 *   index lists the rest at once (at most `scanLimit` of them, else the page is `partial`).
 * - Ranked: `cross-ranked.ts`.
 * Hidden rows are never matches (`visible`). A role or tool filter (ADR 0093) is part of each
 * statement's condition: a row must hold the filter's terms (`holdsFilterTerms`), so the walk's early
 * stop counts only rows that pass it.
 */
import type pg from "pg";
import type { SearchFilter } from "../../core/search-filter.js";
import { foldCase } from "../../core/search-query.js";
import { windowIdFor } from "../../core/windows.js";
import type { ScopeMatch, ScopeSearchRequest, ScopeSearchResult } from "../cross-search/cross-search.js";
import { ownersOf, type SearchScope } from "../cross-search/search-scope.js";
import type { StoredRow } from "../port.js";
import { rankedScopeMatches } from "./cross-ranked.js";
import { holdsFilterTerms } from "./filter-terms.js";
import { withPageHits } from "./page-hits.js";
import { USE_TEXT_INDEX, WALK_ROWS } from "./planner-methods.js";
import type { ScopeSessions } from "./scope-sessions.js";
import type { WordShares } from "./word-shares.js";
import {
  batchEnd,
  batchSize,
  transactionPlanner,
  walkOrder,
  walkLimit,
  walkSegments,
  type PlanAs,
  type WalkSegment,
} from "./scope-walk.js";
import type { TableNames } from "./schema.js";
import { containsPattern, type EncodedRow } from "./search.js";

export interface CrossSearchContext {
  client: pg.PoolClient;
  tables: TableNames;
  /** The schema has pg_trgm's index on `literal_text`. */
  trigramIndex: boolean;
  scopeSessions: (client: pg.PoolClient, alongside?: string) => Promise<ScopeSessions>;
  /** The server's statistics of the word index: which words are common (cost only, never a result). */
  wordShares: WordShares;
  decode: (sessionId: string, row: EncodedRow) => StoredRow | undefined;
}

/** A search's context with its transaction's planner settings. */
export type CrossSearchRun = CrossSearchContext & { planAs: PlanAs };

/** The scope's matches, found as a page asks (`ScopeSearchRequest`); runs inside the caller's read transaction. */
export async function searchScopeRows(
  context: CrossSearchContext,
  request: ScopeSearchRequest,
): Promise<ScopeSearchResult> {
  const run: CrossSearchRun = { ...context, planAs: transactionPlanner(context.client) };
  // The walk's planner settings go with the sessions table's fingerprint (one round trip less).
  const stored = await context.scopeSessions(context.client, run.planAs.alongside(WALK_ROWS));
  const scope = request.scopeOf(stored.sessions);
  const order = walkOrder(scope, stored.stored);
  if (order.length === 0) return { scope, matches: [], partial: false };
  const walk = { scope, order, stored };
  const found =
    request.mode === "literal"
      ? await literalScopeMatches(run, request, walk)
      : await rankedScopeMatches(run, request, walk);
  return { scope, matches: await withPageHits(run, request, walk, found), partial: found.partial };
}

/** A backend's matches; `encoded`: the stored rows of some of them, read with them. */
export interface FoundMatches {
  matches: ScopeMatch[];
  partial: boolean;
  encoded?: ReadonlyMap<ScopeMatch, EncodedRow>;
}

export interface ScopeWalk {
  scope: SearchScope;
  order: readonly WalkSegment[];
  stored: ScopeSessions;
}

async function literalScopeMatches(
  context: CrossSearchRun,
  { query, hitsPerSession, scanLimit, wantedSessions, filter }: ScopeSearchRequest,
  walk: ScopeWalk,
): Promise<FoundMatches> {
  const { order } = walk;
  const pattern = containsPattern(query);
  // A role or tool filter: its terms after the walk's own parameters ($5 the pattern).
  const holds = holdsFilterTerms(context.tables, filter, 6);
  let indexServes = context.trigramIndex && /[\p{L}\p{N}]{3}/u.test(query);
  const found = new Map<string, ScopeMatch>();
  const done = () => ({ matches: [...found.values()], partial: false });
  let start = 0;
  let end = batchEnd(order, 0, { owners: wantedSessions });
  let walkedRows = 0;
  let ownersHit = 0;
  const limit = walkLimit(walk.stored.storeRows);
  for (;;) {
    const rows = await walkSegments(context, {
      order,
      start,
      end,
      condition: `r.visible AND r.literal_text LIKE $5${holds.sql}`,
      parameters: [pattern, ...holds.parameters],
      perSegment: hitsPerSession + 1,
      bodies: true,
    });
    const hitOwners = new Set<string>();
    for (const { segment, seq, encoded } of rows) {
      const { storedIn, ownerId } = order[segment] as WalkSegment;
      hitOwners.add(ownerId);
      const row = encoded === undefined ? undefined : context.decode(storedIn, { seq, ...encoded });
      const key = `${storedIn}\u0000${seq}`;
      if (row !== undefined && !found.has(key))
        found.set(key, { storedIn, seq, score: 0, hit: { row, windowId: windowIdFor(encoded?.window_seq ?? 0) } });
    }
    ownersHit += hitOwners.size;
    walkedRows += batchSize(order, start, end).rows;
    start = end;
    if (ownersHit >= wantedSessions || start >= order.length) return done();
    // The rows still to walk for the page's sessions, at the rate of hits seen so far.
    const projected =
      ownersHit === 0 ? Number.POSITIVE_INFINITY : ((wantedSessions - ownersHit) * walkedRows) / ownersHit;
    const left = limit - walkedRows;
    const rest = batchSize(order, start, order.length).rows;
    if (projected > left && rest > left) {
      // The index lists every row holding the query's trigrams, each tested: affordable when they are
      // no more than a walk tests, or than one call reads anyway (`scanLimit`).
      const affordable = Math.max(limit, scanLimit);
      if (indexServes && (await indexRowsEstimate(context, query, walk, start, walkedRows)) <= affordable)
        return indexedLiteralMatches(context, { pattern, scanLimit, filter }, walk, found);
      indexServes = false;
      if (left <= 0) return { matches: [...found.values()], partial: true };
    }
    end = batchEnd(order, start, { rows: Math.min(left, Math.max(1, Math.ceil(1.25 * projected))), owners: 1 });
  }
}

/**
 * How many rows pg_trgm's index would list for `query` (rows holding its trigrams, each then
 * tested), estimated from the walked rows (`order[0, end)`) holding each of its words: a query of
 * common words ("we should have") makes it list a large part of the store.
 */
async function indexRowsEstimate(
  { client, tables, planAs }: CrossSearchRun,
  query: string,
  { order, stored }: ScopeWalk,
  end: number,
  walkedRows: number,
): Promise<number> {
  const words = foldCase(query).match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  const walked = order.slice(0, end);
  const result = await client.query<{ holding: number }>(
    // The index's settings go with it: the index is read next when the estimate allows.
    `SELECT ${planAs.alongside(USE_TEXT_INDEX)}, count(*)::int AS holding
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS k(session_key, low, high)
     JOIN ${tables.rows} r ON r.session_key = k.session_key AND r.seq > k.low AND r.seq <= k.high
     WHERE r.visible AND r.literal_text LIKE ALL ($4::text[])`,
    [
      walked.map((segment) => segment.sessionKey),
      walked.map((segment) => segment.low),
      walked.map((segment) => segment.high),
      words.map(containsPattern),
    ],
  );
  return ((result.rows[0]?.holding ?? 0) * stored.storeRows) / Math.max(1, walkedRows);
}

/**
 * Every matching row of the scope's sessions that passes `filter` from pg_trgm's index (at most
 * `scanLimit`), added to those walked.
 */
async function indexedLiteralMatches(
  { client, tables, planAs }: CrossSearchRun,
  { pattern, scanLimit, filter }: { pattern: string; scanLimit: number; filter: SearchFilter },
  { scope, stored }: ScopeWalk,
  found: Map<string, ScopeMatch>,
): Promise<FoundMatches> {
  // Read with the matches (few, when the index is asked): the page's need no statement of their own.
  const encoded = new Map<ScopeMatch, EncodedRow>();
  const byKey = new Map<number, string>();
  for (const storedIn of scope.segments.keys()) {
    const session = stored.stored.get(storedIn);
    if (session !== undefined) byKey.set(session.sessionKey, storedIn);
  }
  // The sessions out of scope are left out in the query only when there are any.
  const everySession = byKey.size === stored.stored.size;
  const holds = holdsFilterTerms(tables, filter, 5);
  const result = await planAs(USE_TEXT_INDEX, () =>
    client.query<{ session_key: string; seq: string; window_seq: string; body: string }>(
      `SELECT r.session_key, r.seq, r.window_seq, r.body FROM ${tables.rows} r
       WHERE r.visible AND r.literal_text LIKE $1 AND ($3 OR r.session_key = ANY($4::bigint[]))${holds.sql} LIMIT $2`,
      [pattern, scanLimit + 1, everySession, everySession ? [] : [...byKey.keys()], ...holds.parameters],
    ),
  );
  for (const entry of result.rows.slice(0, scanLimit)) {
    const storedIn = byKey.get(Number(entry.session_key));
    const seq = Number(entry.seq);
    const key = `${storedIn}\u0000${seq}`;
    if (storedIn === undefined || found.has(key) || ownersOf(scope, storedIn, seq).length === 0) continue;
    const match = { storedIn, seq, score: 0 };
    found.set(key, match);
    encoded.set(match, { seq, window_seq: Number(entry.window_seq), body: entry.body });
  }
  return { matches: [...found.values()], partial: result.rows.length > scanLimit, encoded };
}
