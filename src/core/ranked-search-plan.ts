/**
 * The bound on a ranked search's cost, shared by every store backend so that they answer alike
 * (ADR 0016). A ranked search scores at most `RANKED_CANDIDATE_LIMIT` rows, whatever the size of
 * the history:
 * - A searched range (session after the privacy floor, window, before-seq) of at most that many
 *   rows is ranked over all the query's words, as it always was.
 * - In a larger range the query keeps its rarest words (fewest matching rows in the range first)
 *   for as long as together they match at most that many rows, and drops the others: a word found
 *   in very many rows adds little to BM25 but costs a score for each row it is in.
 * - When even the rarest word matches more rows than that, every word is kept and only the newest
 *   `RANKED_CANDIDATE_LIMIT` rows that match any of them are ranked.
 */

/** Most rows one ranked search scores; also how deep its results page. */
export const RANKED_CANDIDATE_LIMIT = 500;

export interface RankedWordCount {
  word: string;
  /**
   * Rows in the searched range that contain the word. A backend may stop counting at
   * `limit + 1`: any count above `limit` means "common".
   */
  rows: number;
}

export interface SelectRankedWordsOptions {
  /** The query's distinct words (`rankedQueryWords`), in query order. */
  words: readonly string[];
  /** Rows of any kind in the searched range: an upper bound of any word's count. */
  rangeRows: number;
  /** Rows in the searched range containing `word`; only called when the counts can matter. */
  countRows: (word: string, cap: number) => number;
  limit?: number;
}

/**
 * The words a ranked search matches and ranks with, in query order.
 *
 * @example
 * selectRankedWords({ words: ["the", "ledger"], rangeRows: 100_000, countRows: (word) => (word === "the" ? 99_500 : 5) }) // ["ledger"]
 * selectRankedWords({ words: ["investors"], rangeRows: 100_000, countRows }) // ["investors"] (its newest 500 rows are ranked)
 */
export function selectRankedWords({
  words,
  rangeRows,
  countRows,
  limit = RANKED_CANDIDATE_LIMIT,
}: SelectRankedWordsOptions): string[] {
  if (words.length <= 1 || rangeRows <= limit) return [...words];
  return keepRarestWords({ counts: words.map((word) => ({ word, rows: countRows(word, limit + 1) })), limit });
}

/**
 * The rarest words that together match at most `limit` rows, in query order; all of them when
 * even the rarest matching word matches more.
 *
 * @example keepRarestWords({ counts: [{ word: "the", rows: 99_500 }, { word: "ledger", rows: 5 }], limit: 500 }) // ["ledger"]
 */
export function keepRarestWords({ counts, limit }: { counts: readonly RankedWordCount[]; limit: number }): string[] {
  const rarestFirst = counts
    .map((count, index) => ({ ...count, index }))
    .sort((left, right) => left.rows - right.rows || left.index - right.index);
  const kept = new Set<number>();
  let total = 0;
  for (const count of rarestFirst) {
    if (total + count.rows > limit) break;
    total += count.rows;
    kept.add(count.index);
  }
  // Nothing kept matches anything: the words are all common (or all absent), so all of them stay.
  if (total === 0) return counts.map((count) => count.word);
  return counts.filter((_count, index) => kept.has(index)).map((count) => count.word);
}
