/**
 * Ranked search's order on the PostgreSQL backend, under the rules every backend shares:
 * `selectRankedWords` keeps the rarest words when the range holds more than
 * `RANKED_CANDIDATE_LIMIT` rows (ADR 0016), only the newest `RANKED_CANDIDATE_LIMIT` rows holding
 * any of them are scored, with BM25 exactly as SQLite's FTS5 computes it (`core/bm25.ts`: each
 * kept word's own and context occurrences and the row's term count come from the row, ADR 0052),
 * and `orderRankedCandidates` orders them (ADR 0031). Word weights come from the session: its
 * indexed rows and terms (counted by every append), and the rows holding each word, counted
 * exactly up to `RANKED_CANDIDATE_LIMIT` and estimated above from how far back the newest
 * `RANKED_CANDIDATE_LIMIT` of them reach (such a word weighs little either way).
 */
import type pg from "pg";
import { bm25Scorer, type TermCounts } from "../../core/bm25.js";
import { RANKED_CANDIDATE_LIMIT, selectRankedWords } from "../../core/ranked-search-plan.js";
import { orderRankedCandidates } from "../../core/ranked-score.js";
import { rankedQueryWords } from "../../core/search-query.js";
import type { CheckedSearch } from "../options.js";
import { USE_WORD_INDEX, WALK_ROWS, indexReach, walkLimit, withPlan, type PlannerMethod } from "./planner-methods.js";
import type { TableNames } from "./schema.js";
import { anyWordQuery, CONTEXT_LABEL, KEPT_LABEL, positionCounts } from "./word-vector.js";
import type { WordShares, WordStatistics } from "./word-shares.js";

export interface RankedOrderContext {
  client: pg.PoolClient;
  tables: TableNames;
  sessionKey: number;
  lastSeq: number;
  /** Exclusive seq bounds of the searched range (floor, window, before-item applied). */
  lowSeq: number;
  highSeq: number;
  wordShares: WordShares;
  /** The session's rows in the ranked index and their terms (own and context). */
  indexedRows: number;
  indexedTerms: number;
}

/** How many of the newest rows hold a word (at most a cap), and with an ordered read, the seq of the oldest of them. */
interface Newest {
  matches: number;
  oldest?: number;
}

interface Candidate {
  seq: number;
  length: number;
  counts: Map<string, TermCounts>;
}

/** Seqs of the scored rows (at most `RANKED_CANDIDATE_LIMIT`), in result order. */
export async function rankedOrder(context: RankedOrderContext, checked: CheckedSearch): Promise<number[]> {
  const { client, tables, sessionKey, lastSeq, lowSeq, highSeq } = context;
  // Seqs are gap-free from 1 to lastSeq, so the range's row count needs no query.
  const top = Math.min(highSeq, lastSeq + 1);
  const rangeRows = Math.max(0, top - 1 - lowSeq);
  /** The lower seq bound of a walk over the newest `rows` rows below `high`. */
  const walkFloor = (rows: number, low = lowSeq, high = top) => Math.max(low, high - 1 - rows);
  let statistics: Promise<WordStatistics> | undefined;
  const shares = () => (statistics ??= context.wordShares(client));
  // The planner settings are local to the search's transaction: a statement planned like the one
  // before it needs no new settings (one round trip less each).
  let planned: readonly PlannerMethod[] | undefined;
  const planAs = <T>(plan: readonly PlannerMethod[], work: () => Promise<T>): Promise<T> => {
    if (plan.length === 0 || plan === planned) return work();
    planned = plan;
    return withPlan(client, plan, work);
  };
  /**
   * For each of `words`, in one statement: how many rows in (low, high) hold it, at most `cap`,
   * and with `oldest`, the seq of the oldest of those (the newest `cap`).
   */
  const newestOfEach = async (
    words: readonly string[],
    cap: number,
    low: number,
    high: number,
    plan: PlannerMethod[],
    oldest = false,
  ) => {
    const found = new Map<string, Newest>();
    if (words.length === 0) return found;
    const newest = oldest
      ? `SELECT count(*)::int AS matches, min(seq) AS oldest FROM (SELECT seq FROM ${tables.rows}
         WHERE session_key = $1 AND seq > $2 AND seq < $3 AND words @@ w.query ORDER BY seq DESC LIMIT $6) newest`
      : `SELECT count(*)::int AS matches, NULL::bigint AS oldest FROM (SELECT 1 FROM ${tables.rows}
         WHERE session_key = $1 AND seq > $2 AND seq < $3 AND words @@ w.query LIMIT $6) newest`;
    const result = await planAs(plan, () =>
      client.query<{ word: string; matches: number; oldest: number | null }>(
        `SELECT w.word, m.matches, m.oldest FROM unnest($4::text[], $5::tsquery[]) AS w(word, query) CROSS JOIN LATERAL (${newest}) m`,
        [sessionKey, low, high, words, words.map((word) => anyWordQuery([word])), cap],
      ),
    );
    for (const row of result.rows)
      found.set(row.word, { matches: row.matches, ...(oldest && { oldest: Number(row.oldest ?? low) }) });
    return found;
  };
  /**
   * Where to look first for the newest `wanted` rows in (low, high) holding any of `words`, and
   * how: walking the newest rows, testing each (`walkLimit`: enough of them hold a word), or, for
   * an `ordered` read, the word index's matches among the newest rows the share calls for
   * (`indexReach`); undefined when the whole range is read at once. A first look that finds fewer
   * than `wanted` proves nothing about the older rows: the caller reads the whole range then.
   */
  const firstSpan = async (words: readonly string[], wanted: number, low: number, high: number, ordered: boolean) => {
    if (high - 1 - low <= RANKED_CANDIDATE_LIMIT) return undefined;
    const statistics = await shares();
    const walk = walkLimit(words, wanted, statistics);
    if (walk !== undefined) return { low: walkFloor(walk, low, high), plan: WALK_ROWS };
    const reach = ordered ? indexReach(words, wanted, statistics) : undefined;
    return reach !== undefined && 2 * reach <= high - 1 - low
      ? { low: walkFloor(reach, low, high), plan: USE_WORD_INDEX }
      : undefined;
  };
  // Testing a row's words on a walk costs a few µs (they are kept in the row, ADR 0103): a common
  // word reaches the cap within a few thousand rows, a rarer one is counted
  // from the word index (walkLimit; docs/benchmarks.md, store, PostgreSQL), all such words in one
  // statement. A walk that ends short of the cap proves nothing about the older rows: the index
  // counts the whole range then. A walk reads the newest rows first, so with `walksOrdered` it
  // also says, at no extra cost, how far back its `cap` matches reach (`oldest`).
  const newestRows = async (
    words: readonly string[],
    cap: number,
    low: number,
    high: number,
    oldest = false,
    walksOrdered = oldest,
  ) => {
    const found = new Map<string, Newest>();
    // Rows above the last do not exist: a walk down from an open bound would find none.
    const end = Math.min(high, lastSeq + 1);
    for (const word of words) {
      // A plain count stops at the cap wherever the matches are; an ordered one (`oldest`) is asked about the newest rows first.
      const first = await firstSpan([word], cap, low, end, oldest);
      if (first === undefined) continue;
      const ordered = oldest || (walksOrdered && first.plan === WALK_ROWS);
      const walked = (await newestOfEach([word], cap, first.low, end, first.plan, ordered)).get(word);
      if (walked !== undefined && walked.matches >= cap) found.set(word, walked);
    }
    const rest = await newestOfEach(
      words.filter((word) => !found.has(word)),
      cap,
      low,
      end,
      USE_WORD_INDEX,
      oldest,
    );
    return new Map([...found, ...rest]);
  };
  /** How many rows hold each of `words` in (low, high), counting at most `cap`. */
  const countRows = async (words: readonly string[], cap: number, low: number, high: number) =>
    new Map([...(await newestRows(words, cap, low, high))].map(([word, { matches }]) => [word, matches]));
  /** Rows of the session holding a word whose newest `matches` rows reach back to `oldest` (at most `cap` of them). */
  const estimate = ({ matches, oldest = 0 }: Newest) =>
    Math.round((matches * lastSeq) / Math.max(1, lastSeq - oldest + 1));
  /** Rows of the session holding each word whose count reached the cap: estimated from how far back its newest `cap` reach. */
  const estimateRows = async (words: readonly string[], cap: number) =>
    new Map(
      [...(await newestRows(words, cap, 0, lastSeq + 1, true))].map(([word, newest]) => [word, estimate(newest)]),
    );

  const cap = RANKED_CANDIDATE_LIMIT + 1;
  const words = rankedQueryWords(checked.query);
  const wholeSession = lowSeq <= 0 && top > lastSeq;
  const rangeCounts = new Map<string, number>();
  /** Words of the whole session whose newest `cap` rows a walk read: their estimate needs no second read. */
  const walkedToCap = new Map<string, Newest>();
  // selectRankedWords asks for counts synchronously, and only in this case: count first.
  if (words.length > 1 && rangeRows > RANKED_CANDIDATE_LIMIT) {
    for (const [word, newest] of await newestRows(words, cap, lowSeq, highSeq, false, wholeSession)) {
      rangeCounts.set(word, newest.matches);
      if (wholeSession && newest.oldest !== undefined) walkedToCap.set(word, newest);
    }
  }
  const kept = selectRankedWords({ words, rangeRows, countRows: (word) => rangeCounts.get(word) ?? 0 });
  const keptRows = kept.reduce((sum, word) => sum + (rangeCounts.get(word) ?? 0), 0);

  // The newest matching rows (at most RANKED_CANDIDATE_LIMIT), with the kept words' counts. When
  // the words were counted, how they are read follows the counts, not the planner's statistics,
  // whose guesses flipped the plan between runs (docs/benchmarks.md): few matches come from the
  // word index (walking the rows newest first would read the whole range), many from the rows
  // newest first (the word index would list every match in the table before sorting). A single
  // word, not counted, walks a bounded number of rows by its share and turns to the index if they
  // hold too few.
  const read = (low: number, plan: PlannerMethod[]) => planAs(plan, () => candidateTerms(context, kept, low));
  let candidates: Candidate[];
  if (rangeCounts.size > 0 && keptRows <= RANKED_CANDIDATE_LIMIT) candidates = await read(lowSeq, USE_WORD_INDEX);
  else if (rangeCounts.size === 0 && (kept.length !== 1 || rangeRows <= RANKED_CANDIDATE_LIMIT))
    candidates = await read(lowSeq, []);
  else {
    const first = await firstSpan(kept, RANKED_CANDIDATE_LIMIT, lowSeq, top, true);
    const walked = first === undefined ? [] : await read(first.low, first.plan);
    const walkedEnough = walked.length >= RANKED_CANDIDATE_LIMIT || first?.low === lowSeq;
    candidates = walkedEnough ? walked : await read(lowSeq, USE_WORD_INDEX);
  }
  // The read lists one row more than it scores: with a single kept word and the whole session
  // searched, that row is the oldest of the word's newest `cap`, all its estimate needs (ADR 0103).
  if (candidates.length > RANKED_CANDIDATE_LIMIT) {
    candidates.sort((first, second) => second.seq - first.seq);
    const oldest = candidates.pop() as Candidate;
    const [word] = kept;
    if (wholeSession && kept.length === 1 && word !== undefined)
      walkedToCap.set(word, { matches: cap, oldest: oldest.seq });
  }

  // Rows holding each kept word in the whole session: the range's count serves when the range is
  // the whole session and the count is exact, or its walk already says how far back the cap reaches.
  const wordRows = new Map<string, number>(
    wholeSession
      ? kept.flatMap((word) => (rangeCounts.has(word) ? [[word, rangeCounts.get(word) ?? 0] as const] : []))
      : [],
  );
  for (const [word, rows] of await countRows(
    kept.filter((word) => !wordRows.has(word) && !walkedToCap.has(word)),
    cap,
    0,
    lastSeq + 1,
  ))
    wordRows.set(word, rows);
  for (const [word, newest] of walkedToCap) if (kept.includes(word)) wordRows.set(word, estimate(newest));
  for (const [word, rows] of await estimateRows(
    kept.filter((word) => (wordRows.get(word) ?? 0) >= cap && !walkedToCap.has(word)),
    cap,
  ))
    wordRows.set(word, rows);
  const score = bm25Scorer({
    words: kept,
    rows: context.indexedRows,
    terms: context.indexedTerms,
    wordRows: (word) => wordRows.get(word) ?? 0,
  });
  return orderRankedCandidates(
    candidates.map((candidate) => ({ key: candidate.seq, position: candidate.seq, score: score(candidate) })),
    { order: checked.order },
  );
}

/**
 * The newest `RANKED_CANDIDATE_LIMIT` + 1 rows above `low` holding any of `words` (the caller
 * scores the newest `RANKED_CANDIDATE_LIMIT`), each with its term count and each word's own
 * (label A) and context (label B) occurrences.
 */
async function candidateTerms(
  { client, tables, sessionKey, highSeq }: RankedOrderContext,
  words: readonly string[],
  low: number,
): Promise<Candidate[]> {
  // A row's vector holds ~200 lexemes with context (ADR 0052): the kept words are picked out by
  // relabelling them `KEPT_LABEL` and keeping that label (two passes over the vector), once with
  // every occurrence and once among the context's (label B) only, and sent as two small vectors
  // whose positions are counted here. Cutting away every other lexeme (`ts_delete` of the row's
  // own lexeme list) and listing the rest row by row cost 2–4× as much (ADR 0095).
  const kept = (vector: string) =>
    `ts_filter(setweight(${vector}, '${KEPT_LABEL}', $6::text[]), '{${KEPT_LABEL}}')::text`;
  const result = await client.query<{ seq: number; word_count: number; every: string; context: string }>(
    `SELECT seq, word_count, ${kept("words")} AS every, ${kept(`ts_filter(words, '{${CONTEXT_LABEL}}')`)} AS context
     FROM ${tables.rows}
     WHERE session_key = $1 AND seq = ANY (ARRAY(SELECT seq FROM ${tables.rows}
       WHERE session_key = $1 AND seq > $2 AND seq < $3 AND words @@ $4::tsquery
       ORDER BY seq DESC LIMIT $5))`,
    [sessionKey, low, highSeq, anyWordQuery(words), RANKED_CANDIDATE_LIMIT + 1, words],
  );
  return result.rows.map((row) => {
    const context = positionCounts(row.context);
    const counts = new Map<string, TermCounts>();
    // The row's own occurrences are every occurrence less the context's.
    for (const [lexeme, every] of positionCounts(row.every)) {
      const inContext = context.get(lexeme) ?? 0;
      counts.set(lexeme, { own: every - inContext, context: inContext });
    }
    return { seq: Number(row.seq), length: row.word_count, counts };
  });
}
