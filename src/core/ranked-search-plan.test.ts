import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  RANKED_CANDIDATE_LIMIT,
  keepRarestWords,
  selectRankedWords,
  type RankedWordCount,
} from "./ranked-search-plan.js";

const counts = (entries: Record<string, number>): RankedWordCount[] =>
  Object.entries(entries).map(([word, rows]) => ({ word, rows }));
/** The figures below are easier to read against a limit of 1,000. */
const select = (entries: Record<string, number>, limit = 1_000) => keepRarestWords({ counts: counts(entries), limit });

describe("keepRarestWords", () => {
  it("keeps every word when together they match at most the limit", () => {
    expect(select({ lighthouse: 5, review: 373, budget: 600 })).toEqual(["lighthouse", "review", "budget"]);
    expect(select({ a: 500, b: 500 })).toEqual(["a", "b"]);
  });

  it("drops the commonest words once the rarer ones fill the limit, and keeps query order", () => {
    expect(select({ budget: 1_325, lighthouse: 5, review: 373 })).toEqual(["lighthouse", "review"]);
    expect(select({ the: 99_500, ledger: 5 })).toEqual(["ledger"]);
    expect(select({ a: 400, b: 400, c: 400 })).toEqual(["a", "b"]);
  });

  it("keeps all words when even the rarest one matches more rows than the limit", () => {
    expect(select({ startup: 1_001, investors: 1_001, funding: 1_001 })).toEqual(["startup", "investors", "funding"]);
    expect(select({ investors: 11_619 })).toEqual(["investors"]);
  });

  it("keeps words that match nothing, which cost nothing", () => {
    expect(select({ typo: 0, ledger: 5, the: 5_000 })).toEqual(["typo", "ledger"]);
    expect(select({ typo: 0, the: 5_000 })).toEqual(["typo", "the"]);
    expect(select({ nothing: 0, here: 0 })).toEqual(["nothing", "here"]);
  });

  it("breaks equal counts by query order", () => {
    expect(select({ first: 600, second: 600 })).toEqual(["first"]);
    expect(select({ first: 10, second: 10 }, 15)).toEqual(["first"]);
  });

  it("never keeps words matching more rows in total than the limit, unless none can be kept", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 32 }),
        fc.integer({ min: 1, max: 2_000 }),
        (rows, limit) => {
          const input = rows.map((count, index) => ({ word: `w${index}`, rows: count }));
          const words = keepRarestWords({ counts: input, limit });
          const total = input.filter((count) => words.includes(count.word)).reduce((sum, count) => sum + count.rows, 0);
          const rarest = Math.min(...rows.filter((count) => count > 0));
          if (rarest > limit || rows.every((count) => count === 0)) {
            expect(words).toEqual(input.map((count) => count.word));
          } else {
            expect(total).toBeLessThanOrEqual(limit);
            // Every dropped word is at least as common as every kept one.
            const keptMax = Math.max(...input.filter((count) => words.includes(count.word)).map((count) => count.rows));
            for (const count of input.filter((entry) => !words.includes(entry.word)))
              expect(count.rows).toBeGreaterThanOrEqual(keptMax);
          }
          // Query order is kept.
          expect(words).toEqual(input.map((count) => count.word).filter((word) => words.includes(word)));
        },
      ),
    );
  });
});

describe("selectRankedWords", () => {
  const frequencies: Record<string, number> = { the: 99_500, startup: 33_082, ledger: 5, review: 373 };
  const counted: string[] = [];
  const countRows = (word: string, cap: number) => {
    counted.push(word);
    return Math.min(frequencies[word] ?? 0, cap);
  };

  it("drops common words only in a range of more than RANKED_CANDIDATE_LIMIT rows", () => {
    expect(selectRankedWords({ words: ["the", "ledger"], rangeRows: 100_000, countRows })).toEqual(["ledger"]);
    expect(selectRankedWords({ words: ["the", "ledger"], rangeRows: RANKED_CANDIDATE_LIMIT + 1, countRows })).toEqual([
      "ledger",
    ]);
    counted.length = 0;
    expect(selectRankedWords({ words: ["the", "ledger"], rangeRows: RANKED_CANDIDATE_LIMIT, countRows })).toEqual([
      "the",
      "ledger",
    ]);
    expect(counted).toEqual([]);
  });

  it("counts each word at most to the limit plus one, and never a lone word", () => {
    counted.length = 0;
    const caps: number[] = [];
    const words = selectRankedWords({
      words: ["startup", "review", "ledger"],
      rangeRows: 100_000,
      countRows: (word, cap) => (caps.push(cap), countRows(word, cap)),
    });
    expect(words).toEqual(["review", "ledger"]);
    expect(caps).toEqual([RANKED_CANDIDATE_LIMIT + 1, RANKED_CANDIDATE_LIMIT + 1, RANKED_CANDIDATE_LIMIT + 1]);
    counted.length = 0;
    expect(selectRankedWords({ words: ["the"], rangeRows: 100_000, countRows })).toEqual(["the"]);
    expect(counted).toEqual([]);
  });

  it("keeps every word when all of them are common", () => {
    expect(selectRankedWords({ words: ["the", "startup"], rangeRows: 100_000, countRows })).toEqual(["the", "startup"]);
  });
});
