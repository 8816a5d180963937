/**
 * Ranked search on the memory backend, under the same rules as the SQLite backend: the words
 * `selectRankedWords` keeps (ADR 0016), BM25 over the newest `RANKED_CANDIDATE_LIMIT` rows that
 * match any of them, ordered by `orderRankedCandidates` (ADR 0031).
 */
import { RANKED_CANDIDATE_LIMIT, selectRankedWords } from "../../core/ranked-search-plan.js";
import { orderRankedCandidates } from "../../core/ranked-score.js";
import type { SearchOrder } from "../../core/search-filter.js";
import { rankedQueryWords } from "../../core/search-query.js";
import { bm25Scores } from "./bm25.js";

export interface RankRowsOptions<T> {
  /** The searchable rows of the searched range, oldest first. */
  candidates: readonly T[];
  /** Rows of any kind in the searched range. */
  rangeRows: number;
  query: string;
  /** The row's terms (`rankedTerms` of its search text). */
  termsOf: (row: T) => string[];
  seqOf: (row: T) => number;
  /** The terms (`rankedTerms`) of every searchable row of the session, for the terms' weights. */
  corpus: string[][];
  order?: SearchOrder;
}

/**
 * @example rankRows({ candidates, rangeRows: rows.length, query: "ledger migration", termsOf: (row) => rankedTerms(row.searchText), seqOf: (row) => row.seq, corpus })
 */
export function rankRows<T>({ candidates, rangeRows, query, termsOf, seqOf, corpus, order = "relevance" }: RankRowsOptions<T>): T[] {
  const documents = candidates.map((row) => {
    const words = termsOf(row);
    return { row, words, distinct: new Set(words) };
  });
  const words = selectRankedWords({
    words: rankedQueryWords(query),
    rangeRows,
    countRows: (word) => documents.filter((document) => document.distinct.has(word)).length,
  });
  const newest = documents.filter((document) => words.some((word) => document.distinct.has(word))).slice(-RANKED_CANDIDATE_LIMIT);
  const scores = bm25Scores(newest, words, corpus);
  return orderRankedCandidates(newest.map((document, index) => ({ key: document.row, position: seqOf(document.row), score: scores[index] ?? 0 })), { order });
}
