/**
 * What a row's ranked-search entry carries of the row before it (ADR 0052). A reply is often
 * found by the words of what it answers: "How often do you work out with your family?" →
 * "Three times a week; it keeps us on track." So each indexed row also holds, in a second field,
 * the last `CONTEXT_TERM_LIMIT` ranked terms of the row right before it in its session (seq − 1),
 * when that row is indexed too. BM25 counts a context term as `CONTEXT_WEIGHT` of an occurrence
 * of the row's own (FTS5's column weights; every backend scores the same way, `core/bm25.ts`).
 *
 * Only the row right before counts: a row after a reset boundary, a lead-in or any other row the
 * index leaves out carries no context, so no context ever crosses the privacy floor or a
 * rollover. Literal search never sees the context; it matches a row's own text only.
 */

/** Most terms of the previous row that a row's index entry carries (its last ones, nearest the reply). */
export const CONTEXT_TERM_LIMIT = 64;

/** How much a context term counts, as a share of one occurrence in the row's own text (measured: ADR 0052). */
export const CONTEXT_WEIGHT = 0.2;

/**
 * The context a row's index entry carries: the last `CONTEXT_TERM_LIMIT` terms of the row before
 * it (`rankedTerms` of its search text; empty when that row is not indexed).
 *
 * @example contextTerms(["how", "often", "do", "you", "work", "out"]) // the same six terms
 */
export function contextTerms(previousTerms: readonly string[]): string[] {
  return previousTerms.slice(-CONTEXT_TERM_LIMIT);
}
