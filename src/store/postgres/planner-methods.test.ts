import { describe, expect, it } from "vitest";
import { indexReach, walkLimit } from "./planner-methods.js";

const statistics = (share: number, tableRows = 100_000) => ({ shares: new Map([["word", share]]), tableRows });

describe("planner methods", () => {
  it("walks the newest rows for a word in most rows, and asks the word index otherwise", () => {
    expect(walkLimit(["word"], 501, statistics(0.48))).toBe(4175);
    // A quarter of the rows: ~1,900 rows walked cost less than 26,000 index entries (ADR 0103).
    expect(walkLimit(["word"], 501, statistics(0.26))).toBe(7708);
    // 15%: ~3,300 rows walked against 15,000 entries, at 5 entries a row, the index.
    expect(walkLimit(["word"], 501, statistics(0.15))).toBeUndefined();
    expect(walkLimit(["other"], 501, statistics(0.48))).toBeUndefined();
  });

  it("asks the word index about the newest span only when it is smaller than the table's matches", () => {
    // A quarter of the rows: 26,000 matches to visit against a span of 3,854 keys.
    expect(indexReach(["word"], 501, statistics(0.26))).toBe(3854);
    // 3% of the rows: 2,700 matches against a span of 37,112 keys; the whole list reads less.
    expect(indexReach(["word"], 501, statistics(0.027))).toBeUndefined();
    expect(indexReach(["word"], 501, statistics(0.027, 10_000_000))).toBe(37112);
    expect(indexReach(["other"], 501, statistics(0.26))).toBeUndefined();
  });
});
