import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CtxwinError, RowValidationError } from "./errors.js";
import {
  InvalidQueryError,
  MAX_QUERY_CHARS,
  MAX_RANKED_WORDS,
  assertSearchableQuery,
  containsLiteral,
  foldCase,
  rankedQueryWords,
  tokenizeWords,
  type SearchMode,
} from "./search-query.js";

/** Runs `action` and returns the `InvalidQueryError` it throws; fails the test if it does not. */
function queryRefusalOf(action: () => unknown): InvalidQueryError {
  try {
    action();
  } catch (error) {
    if (InvalidQueryError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an InvalidQueryError, but the call succeeded");
}

const emptyMessage = "The search query is empty; pass the text to look for.";
const noWordsMessage = "A ranked search needs at least one word of letters or digits; use literal mode for punctuation.";
const tooLongMessage = (length: number) => `The search query is ${length} characters long; the limit is 1000. Search for a shorter, distinctive phrase.`;

describe("assertSearchableQuery", () => {
  it("has the documented limits", () => {
    expect([MAX_QUERY_CHARS, MAX_RANKED_WORDS]).toEqual([1_000, 32]);
  });

  it.each<[string, unknown, SearchMode, string]>([
    ["an empty literal query", "", "literal", emptyMessage],
    ["an empty ranked query", "", "ranked", emptyMessage],
    ["a whitespace-only query", " \t\n\u00a0 ", "literal", emptyMessage],
    ["a number", 42, "literal", emptyMessage],
    ["null", null, "ranked", emptyMessage],
    ["undefined", undefined, "literal", emptyMessage],
    ["a query one character too long (literal)", "a".repeat(1_001), "literal", tooLongMessage(1_001)],
    ["a query one character too long (ranked)", "word ".repeat(200) + "x", "ranked", tooLongMessage(1_001)],
    ["a ranked query of punctuation only", "!!! --- ...", "ranked", noWordsMessage],
    ["a ranked query of symbols and marks only", "→ © \u0301 _", "ranked", noWordsMessage],
  ])("refuses %s", (_label, query, mode, message) => {
    const error = queryRefusalOf(() => assertSearchableQuery(query, mode));
    expect([error.name, error.message]).toEqual(["CtxwinInvalidQueryError", message]);
  });

  it.each<[string, SearchMode]>([
    ["  Needle in a haystack  ", "literal"],
    ["  Needle in a haystack  ", "ranked"],
    ["!!! ---", "literal"],
    ["a".repeat(1_000), "literal"],
    ["a".repeat(1_000), "ranked"],
    ["42", "ranked"],
  ])("returns %j unchanged in %s mode", (query, mode) => {
    expect(assertSearchableQuery(query, mode)).toBe(query);
  });
});

describe("InvalidQueryError", () => {
  it("is a CtxwinError with a stable name, distinguishable from other ctxwin errors", () => {
    const error = new InvalidQueryError("bad");
    expect(error).toBeInstanceOf(Error);
    expect([CtxwinError.isInstance(error), InvalidQueryError.isInstance(error), RowValidationError.isInstance(error)]).toEqual([true, true, false]);
    expect(InvalidQueryError.isInstance(new RowValidationError([]))).toBe(false);
  });

  it.each<[string, unknown, boolean]>([
    ["a plain Error with the same name", Object.assign(new Error("bad"), { name: "CtxwinInvalidQueryError" }), false],
    ["an object from a duplicate package copy", { [Symbol.for("ctxwin.error")]: true, name: "CtxwinInvalidQueryError", message: "bad" }, true],
    ["a marked object with another name", { [Symbol.for("ctxwin.error")]: true, name: "CtxwinRowValidationError" }, false],
  ])("isInstance on %s → %s", (_label, value, expected) => {
    expect(InvalidQueryError.isInstance(value)).toBe(expected);
  });
});

describe("literal matching", () => {
  it("folds case", () => {
    expect(foldCase("Hello ÀÉÎ WORLD")).toBe("hello àéî world");
  });

  it.each<[string, string, boolean]>([
    ["Hello World", "o w", true],
    ["Hello World", "O W", true],
    ["HELLO", "hello", true],
    ["École", "ÉCOLE", true],
    ["abc", "abd", false],
    ["naïve", "naive", false],
    ["a+b=c", "+b=", true],
    ["a+b=c", ".+", false],
    ["line one\nline two", "one\nline", true],
    ["😀 emoji", "😀 E", true],
  ])("containsLiteral(%j, %j) → %s", (text, query, expected) => {
    expect(containsLiteral(text, query)).toBe(expected);
  });
});

describe("tokenizeWords", () => {
  it.each<[string, string[]]>([
    ["Café au-lait 42", ["cafe", "au", "lait", "42"]],
    ["ÉCOLE naïve Ünïcödé", ["ecole", "naive", "unicode"]],
    ["e\u0301te\u0301", ["ete"]],
    ["v2.0.1-beta", ["v2", "0", "1", "beta"]],
    ["snake_case and camelCase", ["snake", "case", "and", "camelcase"]],
    ["x² ① 3.14", ["x²", "①", "3", "14"]],
    ["日本語のテキスト", ["日本語のテキスト"]],
    ["Straße", ["straße"]],
    ["", []],
    [" ,.;!? ", []],
  ])("%j → %j", (text, words) => {
    expect(tokenizeWords(text)).toEqual(words);
  });

  it("produces lowercase words of letters and digits without marks, stable when tokenized again", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (text) => {
        const words = tokenizeWords(text);
        for (const word of words) {
          expect(word).toMatch(/^[\p{L}\p{N}]+$/u);
          expect(word).toBe(word.toLowerCase());
        }
        expect(tokenizeWords(words.join(" "))).toEqual(words);
      }),
    );
  });
});

describe("rankedQueryWords", () => {
  it("dedupes after folding case and diacritics, keeping first occurrences in order", () => {
    expect(rankedQueryWords("Error error ERROR érror disk Disk")).toEqual(["error", "disk"]);
  });

  it(`caps at ${MAX_RANKED_WORDS} distinct words`, () => {
    const words = Array.from({ length: 40 }, (_unused, index) => `word${index}`);
    expect(rankedQueryWords(words.join(" "))).toEqual(words.slice(0, 32));
  });

  it("does not count repeated words against the cap", () => {
    expect(rankedQueryWords(`${"same ".repeat(50)}other`)).toEqual(["same", "other"]);
  });

  it("returns no words for punctuation", () => {
    expect(rankedQueryWords("--- !!!")).toEqual([]);
  });
});
