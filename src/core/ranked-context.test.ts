import { describe, expect, it } from "vitest";
import { CONTEXT_TERM_LIMIT, contextTerms } from "./ranked-context.js";

describe("contextTerms", () => {
  it("keeps the last CONTEXT_TERM_LIMIT terms of the row before, in order", () => {
    expect(contextTerms(["how", "often", "work", "out"])).toEqual(["how", "often", "work", "out"]);
    const long = Array.from({ length: 100 }, (_, index) => `w${index}`);
    expect(contextTerms(long)).toEqual(long.slice(100 - CONTEXT_TERM_LIMIT));
    expect(contextTerms([])).toEqual([]);
  });
});
