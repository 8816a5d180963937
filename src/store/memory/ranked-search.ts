/**
 * Ranked search on the memory backend, under the same bound as the SQLite backend (ADR 0016):
 * the words `selectRankedWords` keeps, and BM25 over the newest `RANKED_CANDIDATE_LIMIT` rows
 * that match any of them.
 */
import { RANKED_CANDIDATE_LIMIT, selectRankedWords } from "../../core/ranked-search-plan.js";
import { rankedQueryWords, tokenizeWords } from "../../core/search-query.js";
import { bm25Rank } from "./bm25.js";

export interface RankRowsOptions<T> {
  /** The searchable rows of the searched range, oldest first. */
  candidates: readonly T[];
  /** Rows of any kind in the searched range. */
  rangeRows: number;
  query: string;
  textOf: (row: T) => string;
  /** The words of every searchable row of the session, for the words' weights. */
  corpus: string[][];
}

/**
 * @example rankRows({ candidates, rangeRows: rows.length, query: "ledger migration", textOf: (row) => row.searchText, corpus })
 */
export function rankRows<T>({ candidates, rangeRows, query, textOf, corpus }: RankRowsOptions<T>): T[] {
  const documents = candidates.map((row) => {
    const words = tokenizeWords(textOf(row));
    return { key: row, words, distinct: new Set(words) };
  });
  const words = selectRankedWords({
    words: rankedQueryWords(query),
    rangeRows,
    countRows: (word) => documents.filter((document) => document.distinct.has(word)).length,
  });
  const newest = documents.filter((document) => words.some((word) => document.distinct.has(word))).slice(-RANKED_CANDIDATE_LIMIT);
  return bm25Rank(newest, words, corpus);
}
