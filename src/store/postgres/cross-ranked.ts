/**
 * Ranked cross-session search on the PostgreSQL backend (ADR 0089, 0094): one BM25 over all
 * sessions, under the bound every backend shares (ADR 0016).
 * - Each query word's rows in the store are counted from the word index up to
 *   `RANKED_CANDIDATE_LIMIT` + 1 (one statement), and `selectRankedWords` keeps the rarest.
 * - The candidates: when the kept words match at most `RANKED_CANDIDATE_LIMIT` rows, every one of
 *   them, from the word index; else the newest `RANKED_CANDIDATE_LIMIT` of the scope, walked in the
 *   page's order (`scope-walk.ts`), and when the walk shows them too sparse to be found within
 *   `walkLimit` rows, as many as the word index lists first.
 * - The scores: BM25 as FTS5 computes it, with the whole store's weights (every session's indexed
 *   rows and terms); a word in more rows than were counted weighs by its share of the rows walked
 *   (estimated like a session's common word, `ranked-order.ts`).
 * A role or tool filter (ADR 0093) is part of the candidates' conditions (`holdsFilterTerms`); the
 * words are still counted, and the rows weighed, over the whole store.
 */
import { bm25Scorer, type TermCounts } from "../../core/bm25.js";
import { selectRankedWords } from "../../core/ranked-search-plan.js";
import { rankedQueryWords } from "../../core/search-query.js";
import { filterTermsRequired, type SearchFilter } from "../../core/search-filter.js";
import type { ScopeMatch, ScopeSearchRequest } from "../cross-search/cross-search.js";
import { ownersOf } from "../cross-search/search-scope.js";
import type { CrossSearchRun, FoundMatches, ScopeWalk } from "./cross-search.js";
import { holdsFilterTerms } from "./filter-terms.js";
import type { EncodedRow } from "./search.js";
import { USE_WORD_INDEX, WALK_ROWS, walkLimit as statisticsWalkLimit, type PlannerMethod } from "./planner-methods.js";
import type { ScopeSessions } from "./scope-sessions.js";
import { batchEnd, batchSize, walkLimit, walkSegments, type WalkSegment } from "./scope-walk.js";
import { anyWordQuery, keptTermCounts, keptWordsColumns } from "./word-vector.js";

/** Candidates per session of the page up to which their rows are read with their terms. */
const FEW_CANDIDATES = 4;

interface Candidate {
  storedIn: string;
  sessionKey: number;
  seq: number;
}

export async function rankedScopeMatches(
  context: CrossSearchRun,
  { query, scanLimit, wantedSessions, filter }: ScopeSearchRequest,
  walk: ScopeWalk,
): Promise<FoundMatches> {
  const { stored } = walk;
  const words = rankedQueryWords(query);
  const cap = scanLimit + 1;
  const counted = await countWordRows(context, words, cap, stored);
  const kept = selectRankedWords({
    words,
    rangeRows: stored.indexedRows,
    countRows: (word) => counted.get(word) ?? 0,
  });
  const keptRows = kept.reduce((sum, word) => sum + (counted.get(word) ?? 0), 0);
  const wanted = { wordQuery: anyWordQuery(kept), filter };
  const read =
    keptRows < cap
      ? { candidates: await indexedCandidates(context, wanted, cap, walk), walkedRows: undefined }
      : await walkedCandidates(context, wanted, cap, walk);
  const candidates = read.candidates.slice(0, scanLimit);
  // Few candidates come with their rows: the page's need no statement of their own.
  const terms = await candidateTerms(context, candidates, kept, candidates.length <= FEW_CANDIDATES * wantedSessions);
  // A word counted to the cap weighs by its share of the rows walked (at least the cap). With a filter,
  // the candidates are no sample of the rows walked: the word weighs as counted.
  const wordRows = new Map(kept.map((word) => [word, counted.get(word) ?? 0]));
  const sampled = filterTermsRequired(filter).length === 0;
  for (const word of kept) {
    if ((wordRows.get(word) ?? 0) < cap || read.walkedRows === undefined || !sampled) continue;
    const holding = terms.filter((candidate) => candidate.counts.has(word)).length;
    wordRows.set(word, Math.max(cap, Math.round((holding * stored.indexedRows) / Math.max(1, read.walkedRows))));
  }
  const score = bm25Scorer({
    words: kept,
    rows: stored.indexedRows,
    terms: stored.indexedTerms,
    wordRows: (word) => wordRows.get(word) ?? 0,
  });
  const encoded = new Map<ScopeMatch, EncodedRow>();
  const matches = terms.map((candidate): ScopeMatch => {
    const match = { storedIn: candidate.storedIn, seq: candidate.seq, score: score(candidate) };
    if (candidate.encoded !== undefined) encoded.set(match, candidate.encoded);
    return match;
  });
  return { matches, partial: read.candidates.length > scanLimit, encoded };
}

/**
 * The store's rows holding each of `words`, counted up to `cap`. A word the server's statistics
 * call common (`walkLimit` of `planner-methods.ts`) is counted among the rows of the newest
 * sessions, which reach the cap within a few thousand rows; a rarer one, or a common one they hold
 * fewer times, from the word index (listing a common word there took 0.5 s at 1,000,000 rows). The
 * counts are exact either way: statistics cost time, never change a result.
 */
async function countWordRows(
  { client, tables, planAs, wordShares }: CrossSearchRun,
  words: readonly string[],
  cap: number,
  stored: ScopeSessions,
): Promise<Map<string, number>> {
  const counted = new Map<string, number>();
  if (words.length === 0) return counted;
  // Each word's query is a parameter of the statement's own rows for the planner (from a join, it walked the table).
  const count = (list: readonly string[], plan: readonly PlannerMethod[], fromKey: number) =>
    planAs(plan, () =>
      client.query<{ word: string; matches: number }>(
        `SELECT w.word, (SELECT count(*)::int FROM (SELECT 1 FROM ${tables.rows}
           WHERE ${fromKey > 0 ? "session_key >= $4 AND " : ""}words @@ w.query LIMIT $3) holding) AS matches
         FROM unnest($1::text[], $2::tsquery[]) AS w(word, query)`,
        [list, list.map((word) => anyWordQuery([word])), cap, ...(fromKey > 0 ? [fromKey] : [])],
      ),
    );
  const statistics = await wordShares(client);
  const common = words.filter((word) => statisticsWalkLimit([word], cap, statistics) !== undefined);
  if (common.length > 0) {
    const rows = Math.max(...common.map((word) => statisticsWalkLimit([word], cap, statistics) ?? 0));
    for (const row of (await count(common, WALK_ROWS, newestSessionsKey(stored, rows))).rows)
      if (row.matches >= cap) counted.set(row.word, row.matches);
  }
  const rest = words.filter((word) => !counted.has(word));
  if (rest.length > 0)
    for (const row of (await count(rest, USE_WORD_INDEX, 0)).rows) counted.set(row.word, row.matches);
  return counted;
}

const newestKeys = new WeakMap<ScopeSessions, { sessionKey: number; rows: number }[]>();

/** The lowest session key such that the sessions from it on (the newest created) hold at least `rows` rows (0: all). */
function newestSessionsKey(stored: ScopeSessions, rows: number): number {
  let list = newestKeys.get(stored);
  if (list === undefined) {
    list = [...stored.stored.values()]
      .map((session) => ({ sessionKey: session.sessionKey, rows: session.lastSeq }))
      .sort((left, right) => right.sessionKey - left.sessionKey);
    newestKeys.set(stored, list);
  }
  let total = 0;
  for (const session of list) {
    total += session.rows;
    if (total >= rows) return session.sessionKey;
  }
  return 0;
}

/** What a ranked search's candidates hold: a kept word (`wordQuery`), and `filter`'s terms. */
interface WantedRows {
  wordQuery: string;
  filter: SearchFilter;
}

/**
 * Every row of the scope holding a kept word (fewer than `cap` in the store) and passing the filter,
 * from the word index.
 */
async function indexedCandidates(
  { client, tables, planAs }: CrossSearchRun,
  { wordQuery, filter }: WantedRows,
  cap: number,
  { scope, stored }: ScopeWalk,
): Promise<Candidate[]> {
  const byKey = new Map<number, string>();
  for (const storedIn of scope.segments.keys()) {
    const session = stored.stored.get(storedIn);
    if (session !== undefined) byKey.set(session.sessionKey, storedIn);
  }
  const holds = holdsFilterTerms(tables, filter, 3);
  const result = await planAs(USE_WORD_INDEX, () =>
    client.query<{ session_key: string; seq: string }>(
      `SELECT r.session_key, r.seq FROM ${tables.rows} r WHERE r.words @@ $1::tsquery${holds.sql} LIMIT $2`,
      [wordQuery, cap, ...holds.parameters],
    ),
  );
  return result.rows.flatMap((entry) => {
    const sessionKey = Number(entry.session_key);
    const storedIn = byKey.get(sessionKey);
    const seq = Number(entry.seq);
    return storedIn !== undefined && ownersOf(scope, storedIn, seq).length > 0 ? [{ storedIn, sessionKey, seq }] : [];
  });
}

/**
 * The scope's newest `cap` rows holding a kept word, walked in the page's order, and how many rows
 * the walk passed; when they lie further than `walkLimit` rows, those walked and then the
 * word index's first ones, up to `cap`.
 */
async function walkedCandidates(
  context: CrossSearchRun,
  wanted: WantedRows,
  cap: number,
  walk: ScopeWalk,
): Promise<{ candidates: Candidate[]; walkedRows: number | undefined }> {
  const { order } = walk;
  // A role or tool filter: its terms after the walk's own parameters ($5 the words).
  const holds = holdsFilterTerms(context.tables, wanted.filter, 6);
  const found = new Map<string, Candidate>();
  let start = 0;
  let end = batchEnd(order, 0, { rows: 2 * cap });
  let walkedRows = 0;
  for (;;) {
    const rows = await walkSegments(context, {
      order,
      start,
      end,
      condition: `r.words @@ $5::tsquery${holds.sql}`,
      parameters: [wanted.wordQuery, ...holds.parameters],
      perSegment: cap,
      bodies: false,
    });
    for (const { segment, seq } of rows) {
      const { storedIn, sessionKey } = order[segment] as WalkSegment;
      found.set(`${storedIn}\u0000${seq}`, { storedIn, sessionKey, seq });
      if (found.size >= cap) {
        // The walk passed the segments before this one and this one's rows down to `seq`.
        const passed = batchSize(order, start, segment).rows + ((order[segment] as WalkSegment).high - seq + 1);
        return { candidates: [...found.values()], walkedRows: walkedRows + passed };
      }
    }
    walkedRows += batchSize(order, start, end).rows;
    start = end;
    if (start >= order.length) return { candidates: [...found.values()], walkedRows };
    const projected =
      found.size === 0 ? Number.POSITIVE_INFINITY : ((cap - found.size) * walkedRows) / Math.max(1, found.size);
    const left = walkLimit(walk.stored.storeRows) - walkedRows;
    if (projected > left && batchSize(order, start, order.length).rows > left) {
      for (const candidate of await indexedCandidates(context, wanted, cap, walk)) {
        if (found.size >= cap) break;
        found.set(`${candidate.storedIn}\u0000${candidate.seq}`, candidate);
      }
      return { candidates: [...found.values()], walkedRows: undefined };
    }
    end = batchEnd(order, start, { rows: Math.min(left, Math.max(1, Math.ceil(1.25 * projected))), owners: 1 });
  }
}

/**
 * Each candidate's term count and each kept word's own (label A) and context (label B) occurrences,
 * one result row per candidate (the kept words picked out by relabelling: `keptWordsColumns`).
 */
async function candidateTerms(
  { client, tables }: CrossSearchRun,
  candidates: readonly Candidate[],
  words: readonly string[],
  bodies: boolean,
): Promise<(Candidate & { length: number; counts: Map<string, TermCounts>; encoded?: EncodedRow })[]> {
  if (candidates.length === 0) return [];
  // By key: any planner setting serves it from the primary key.
  const result = await client.query<{
    session_key: string;
    seq: string;
    word_count: number;
    window_seq: string;
    body: string | null;
    every: string;
    context: string;
  }>(
    `SELECT r.session_key, r.seq, r.word_count, r.window_seq, ${bodies ? "r.body" : "NULL"} AS body,
         ${keptWordsColumns("r.words", "$3::text[]")}
       FROM unnest($1::bigint[], $2::bigint[]) AS k(session_key, seq)
       JOIN ${tables.rows} r ON r.session_key = k.session_key AND r.seq = k.seq`,
    [candidates.map((candidate) => candidate.sessionKey), candidates.map((candidate) => candidate.seq), words],
  );
  const byRow = new Map(result.rows.map((entry) => [`${entry.session_key}:${entry.seq}`, entry]));
  return candidates.flatMap((candidate) => {
    const entry = byRow.get(`${candidate.sessionKey}:${candidate.seq}`);
    if (entry === undefined) return [];
    const counts = keptTermCounts(entry.every, entry.context);
    if (counts.size === 0) return [];
    const encoded =
      entry.body === null ? undefined : { seq: candidate.seq, window_seq: Number(entry.window_seq), body: entry.body };
    return [{ ...candidate, length: entry.word_count, counts, ...(encoded === undefined ? {} : { encoded }) }];
  });
}
