import { describe, expect, it } from "vitest";
import { positionCounts, wordVector } from "./word-vector.js";

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
});
