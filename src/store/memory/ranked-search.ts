/**
 * Ranked search on the memory backend, under the same rules as the SQLite backend: the words
 * `selectRankedWords` keeps (ADR 0016), BM25 as FTS5 computes it over each row's terms and context
 * (`core/bm25.ts`, ADR 0052) for the newest `RANKED_CANDIDATE_LIMIT` rows that hold any of them,
 * ordered by `orderRankedCandidates` (ADR 0031). Word weights come from the session's indexed
 * rows (SQLite's from the whole file).
 */
import { bm25Scorer, type RankedRowTerms } from "../../core/bm25.js";
import { RANKED_CANDIDATE_LIMIT, selectRankedWords } from "../../core/ranked-search-plan.js";
import { orderRankedCandidates } from "../../core/ranked-score.js";
import type { SearchOrder } from "../../core/search-filter.js";
import { rankedQueryWords } from "../../core/search-query.js";

export interface RankedMemoryRow extends RankedRowTerms {
  seq: number;
}

export interface RankRowsOptions<T extends RankedMemoryRow> {
  /** The indexed rows of the searched range, oldest first. */
  candidates: readonly T[];
  /** Rows of any kind in the searched range. */
  rangeRows: number;
  query: string;
  /** Every indexed row of the session, for the words' weights and the average length. */
  corpus: readonly RankedRowTerms[];
  order?: SearchOrder;
}

/**
 * @example rankRows({ candidates, rangeRows: rows.length, query: "ledger migration", corpus })
 */
export function rankRows<T extends RankedMemoryRow>({
  candidates,
  rangeRows,
  query,
  corpus,
  order = "relevance",
}: RankRowsOptions<T>): T[] {
  const rowsWith = (rows: readonly RankedRowTerms[], word: string) =>
    rows.reduce((count, row) => count + (row.counts.has(word) ? 1 : 0), 0);
  const words = selectRankedWords({
    words: rankedQueryWords(query),
    rangeRows,
    countRows: (word) => rowsWith(candidates, word),
  });
  const newest = candidates.filter((row) => words.some((word) => row.counts.has(word))).slice(-RANKED_CANDIDATE_LIMIT);
  const score = bm25Scorer({
    words,
    rows: corpus.length,
    terms: corpus.reduce((sum, row) => sum + row.length, 0),
    wordRows: (word) => rowsWith(corpus, word),
  });
  return orderRankedCandidates(
    newest.map((row) => ({ key: row, position: row.seq, score: score(row) })),
    { order },
  );
}

/**
 * Cross-session ranked search (ADR 0089): the words `selectRankedWords` keeps over the whole store,
 * and BM25 with the weights of every indexed row of the store, as FTS5 computes them over the file.
 *
 * @example scoreAcross({ candidates, corpus, query: "ledger migration" })
 */
export function scoreAcross<T extends RankedRowTerms>({
  candidates,
  corpus,
  query,
}: {
  candidates: readonly T[];
  corpus: readonly RankedRowTerms[];
  query: string;
}): { row: T; score: number }[] {
  const rowsWith = (rows: readonly RankedRowTerms[], word: string) =>
    rows.reduce((count, row) => count + (row.counts.has(word) ? 1 : 0), 0);
  const words = selectRankedWords({
    words: rankedQueryWords(query),
    rangeRows: corpus.length,
    countRows: (word) => rowsWith(corpus, word),
  });
  const score = bm25Scorer({
    words,
    rows: corpus.length,
    terms: corpus.reduce((sum, row) => sum + row.length, 0),
    wordRows: (word) => rowsWith(corpus, word),
  });
  return candidates
    .filter((row) => words.some((word) => row.counts.has(word)))
    .map((row) => ({ row, score: score(row) }));
}
