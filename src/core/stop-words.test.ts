import { describe, expect, it } from "vitest";
import { isStopWord } from "./stop-words.js";
import { tokenizeWords } from "./search-query.js";

describe("isStopWord", () => {
  it("drops question words, auxiliaries and pronouns", () => {
    const words = tokenizeWords("When did Melanie paint a sunrise?");
    expect(words.filter((word) => !isStopWord(word))).toEqual(["melanie", "paint", "sunrise"]);
  });

  it("drops the pieces of contractions the way the index splits them", () => {
    const words = tokenizeWords("Why didn't she've gone? It's Caroline's");
    expect(words.filter((word) => !isStopWord(word))).toEqual(["gone", "caroline"]);
  });

  it("keeps content words", () => {
    for (const word of ["ledger", "painting", "adoption", "42"]) expect(isStopWord(word)).toBe(false);
  });
});
