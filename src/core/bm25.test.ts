import { describe, expect, it } from "vitest";
import { bm25Scorer, termCounts, wordWeight } from "./bm25.js";
import { CONTEXT_WEIGHT } from "./ranked-context.js";

describe("bm25Scorer", () => {
  it("weighs a rare word more than a common one, and a word in over half the rows almost nothing", () => {
    expect(wordWeight({ rows: 1_000, wordRows: 1 })).toBeGreaterThan(wordWeight({ rows: 1_000, wordRows: 100 }));
    expect(wordWeight({ rows: 1_000, wordRows: 700 })).toBe(1e-6);
  });

  it("counts a context term as CONTEXT_WEIGHT of an own one, and scores a row without the words 0", () => {
    const score = bm25Scorer({ words: ["sunris"], rows: 10, terms: 40, wordRows: () => 2 });
    const own = score({ counts: termCounts({ own: ["paint", "sunris", "last", "year"], context: [] }), length: 4 });
    const context = score({
      counts: termCounts({ own: ["ye", "last", "year", "ago"], context: ["sunris"] }),
      length: 4,
    });
    const none = score({ counts: termCounts({ own: ["quiet", "line"], context: ["nothing"] }), length: 3 });
    expect(context).toBeGreaterThan(0);
    expect(context).toBeLessThan(own);
    // BM25 of a frequency f for the same row length: weight × f × 2.2 / (f + 1.2 × norm).
    const weight = wordWeight({ rows: 10, wordRows: 2 });
    const norm = 1.2 * (0.25 + (0.75 * 4) / 4);
    expect(own).toBeCloseTo((weight * 2.2) / (1 + norm), 12);
    expect(context).toBeCloseTo((weight * CONTEXT_WEIGHT * 2.2) / (CONTEXT_WEIGHT + norm), 12);
    expect(none).toBe(0);
  });

  it("scores a longer row lower for the same occurrences", () => {
    const score = bm25Scorer({ words: ["ledger"], rows: 10, terms: 100, wordRows: () => 1 });
    expect(score({ counts: termCounts({ own: ["ledger"], context: [] }), length: 5 })).toBeGreaterThan(
      score({ counts: termCounts({ own: ["ledger"], context: [] }), length: 50 }),
    );
  });
});
