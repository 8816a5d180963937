import { describe, expect, it } from "vitest";
import { keptTermCounts, positionCounts, wordVector } from "./word-vector.js";

describe("word vectors", () => {
  it("counts each lexeme's positions in a vector's text form, whatever their labels", () => {
    expect(positionCounts("'cafe':1A,4A 'lait':3A,5B")).toEqual(
      new Map([
        ["cafe", 2],
        ["lait", 2],
      ]),
    );
    expect(positionCounts(wordVector({ terms: ["ledger", "ledger", "kestrel"], context: ["ledger"] }) ?? "")).toEqual(
      new Map([
        ["ledger", 3],
        ["kestrel", 1],
      ]),
    );
  });

  it("reads quoted lexemes and lexemes without positions", () => {
    expect(positionCounts("'it''s':2C 'back\\\\slash':7C 'bare'")).toEqual(
      new Map([
        ["it's", 1],
        ["back\\slash", 1],
        ["bare", 0],
      ]),
    );
    expect(positionCounts("")).toEqual(new Map());
  });

  it("counts a kept word's own occurrences as every occurrence less the context's", () => {
    expect(keptTermCounts("'cafe':1C,4C 'lait':3C,5C", "'lait':5C")).toEqual(
      new Map([
        ["cafe", { own: 2, context: 0 }],
        ["lait", { own: 1, context: 1 }],
      ]),
    );
    expect(keptTermCounts("", "")).toEqual(new Map());
  });
});
