/**
 * BM25 relevance exactly as SQLite FTS5's `bm25()` computes it over ctxwin's two-field word index
 * (a row's own terms, and its context: `ranked-context.ts`), so that the backends that score in
 * JavaScript (memory, PostgreSQL) rank as the SQLite backend does (ADR 0052):
 * - a word's weight is log((N − n + 0.5) / (n + 0.5)), at least 1e-6, for N indexed rows of which
 *   n hold the word (in either field): a word in more than half the rows weighs almost nothing;
 * - its frequency in a row is its own occurrences plus `CONTEXT_WEIGHT` × its context ones;
 * - the row's length is all its terms, own and context, against the corpus average:
 *   weight × f × (k1 + 1) / (f + k1 × (1 − b + b × length / average)), summed over the words.
 */
import { CONTEXT_WEIGHT } from "./ranked-context.js";

/** FTS5's fixed BM25 constants. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Occurrences of a word in a row: in its own text and in its context. */
export interface TermCounts {
  own: number;
  context: number;
}

export interface RankedRowTerms {
  /** Occurrences of (at least) the query's words; a word not listed does not occur. */
  counts: ReadonlyMap<string, TermCounts>;
  /** All terms of the row's index entry, own and context. */
  length: number;
}

export interface Bm25CorpusOptions {
  /** The words scored (`selectRankedWords`). */
  words: readonly string[];
  /** Indexed rows the weights come from. */
  rows: number;
  /** Terms of those rows, own and context together. */
  terms: number;
  /** How many of those rows hold each word, in either field. */
  wordRows: (word: string) => number;
}

/**
 * FTS5's weight of a word held by `wordRows` of `rows` rows.
 *
 * @example wordWeight({ rows: 1_000, wordRows: 1 }) // ≈ 6.5
 * @example wordWeight({ rows: 1_000, wordRows: 700 }) // 1e-6
 */
export function wordWeight({ rows, wordRows }: { rows: number; wordRows: number }): number {
  const weight = Math.log((rows - wordRows + 0.5) / (wordRows + 0.5));
  return weight > 0 ? weight : 1e-6;
}

/**
 * A scorer of rows for the query's words over a corpus: BM25 as FTS5 computes it (0 for a row
 * without any of the words).
 *
 * @example
 * const score = bm25Scorer({ words: ["sunris"], rows: 3, terms: 12, wordRows: () => 1 });
 * score({ counts: new Map([["sunris", { own: 1, context: 0 }]]), length: 4 }) // > 0
 */
export function bm25Scorer({ words, rows, terms, wordRows }: Bm25CorpusOptions): (row: RankedRowTerms) => number {
  const averageLength = rows > 0 ? terms / rows : 0;
  const weights = words.map((word) => ({ word, weight: wordWeight({ rows, wordRows: wordRows(word) }) }));
  return ({ counts, length }) => {
    const norm = BM25_K1 * (1 - BM25_B + (averageLength > 0 ? (BM25_B * length) / averageLength : BM25_B));
    let score = 0;
    for (const { word, weight } of weights) {
      const count = counts.get(word);
      if (count === undefined) continue;
      const frequency = count.own + CONTEXT_WEIGHT * count.context;
      if (frequency > 0) score += (weight * frequency * (BM25_K1 + 1)) / (frequency + norm);
    }
    return score;
  };
}

/**
 * The occurrences of each term in a row's index entry.
 *
 * @example termCounts({ own: ["a", "b", "a"], context: ["b"] }).get("b") // { own: 1, context: 1 }
 */
export function termCounts({
  own,
  context,
}: {
  own: readonly string[];
  context: readonly string[];
}): Map<string, TermCounts> {
  const counts = new Map<string, TermCounts>();
  for (const term of own) {
    const count = counts.get(term);
    if (count === undefined) counts.set(term, { own: 1, context: 0 });
    else count.own += 1;
  }
  for (const term of context) {
    const count = counts.get(term);
    if (count === undefined) counts.set(term, { own: 0, context: 1 });
    else count.context += 1;
  }
  return counts;
}
