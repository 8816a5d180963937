/**
 * Reciprocal-rank fusion (ADR 0063): each ranking gives a row `1 / (k + rank)` (rank from 1) and
 * the rows are ordered by the sum, so a row both rankings place high wins, and either ranking alone
 * can still bring a row in. Ties go to the newer row. `k = 60`, the value of the original paper.
 */
export const RRF_K = 60;

/**
 * @example fuseRankings([[12, 7], [7, 30]]) // [7, 12, 30]
 */
export function fuseRankings(rankings: readonly (readonly number[])[], k = RRF_K): number[] {
  const scores = new Map<number, number>();
  for (const ranking of rankings) {
    ranking.forEach((seq, position) => scores.set(seq, (scores.get(seq) ?? 0) + 1 / (k + position + 1)));
  }
  return [...scores.entries()].sort((left, right) => right[1] - left[1] || right[0] - left[0]).map(([seq]) => seq);
}
