/**
 * How ranked search orders the rows it scored, shared by every store backend (ADR 0031).
 * A backend scores each candidate row with BM25 (higher is better) over the words
 * `selectRankedWords` kept, at most `RANKED_CANDIDATE_LIMIT` rows; this module turns those scores
 * into the result order.
 *
 * A matching row also gets `PREVIOUS_ROW_WEIGHT` times the score of the row right before it, when
 * that row matched too: what a question asks about is often said in the reply to the turn that
 * named it ("Did you paint that sunrise?" → "Yes, last year"). Only rows that match some query
 * word are results; the previous row's score only reorders them.
 */
import type { SearchOrder } from "./search-filter.js";

/** Share of the previous row's score that a matching row adds to its own (measured: ADR 0031). */
export const PREVIOUS_ROW_WEIGHT = 0.3;

export interface ScoredCandidate<T> {
  key: T;
  /**
   * The row's place in its session, consecutive for consecutive rows (its seq, or any number
   * that grows by one from a row to the next).
   */
  position: number;
  /** BM25 relevance of the row alone: higher is more relevant, 0 or less is no match. */
  score: number;
}

/**
 * The candidates' keys, most relevant first, newest first among equal scores (a total order, so
 * pages by offset never overlap while the session is unchanged). With `order: "newest"`, the same
 * rows newest first (ADR 0033).
 *
 * @example
 * orderRankedCandidates([{ key: "a", position: 4, score: 2 }, { key: "b", position: 5, score: 1.5 }]) // ["b", "a"] (1.5 + 0.3 × 2)
 */
export function orderRankedCandidates<T>(
  candidates: readonly ScoredCandidate<T>[],
  { order = "relevance" }: { order?: SearchOrder } = {},
): T[] {
  if (order === "newest") {
    return candidates
      .filter((candidate) => candidate.score > 0)
      .sort((left, right) => right.position - left.position)
      .map((candidate) => candidate.key);
  }
  const scoreAt = new Map(candidates.map((candidate) => [candidate.position, candidate.score]));
  return candidates
    .filter((candidate) => candidate.score > 0)
    .map((candidate) => ({
      candidate,
      total: candidate.score + PREVIOUS_ROW_WEIGHT * Math.max(0, scoreAt.get(candidate.position - 1) ?? 0),
    }))
    .sort((left, right) => right.total - left.total || right.candidate.position - left.candidate.position)
    .map(({ candidate }) => candidate.key);
}
