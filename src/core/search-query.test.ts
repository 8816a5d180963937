import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CtxwinError, RowValidationError } from "./errors.js";
import {
  InvalidQueryError,
  MAX_QUERY_CHARS,
  MAX_RANKED_WORDS,
  MAX_STEMMED_WORD_CHARS,
  assertSearchableQuery,
  containsLiteral,
  foldCase,
  literalWordPhrase,
  rankedQueryWords,
  rankedTerms,
  stemWord,
  tokenizeWords,
  type SearchMode,
} from "./search-query.js";
import { thrownBy } from "./test-support/thrown-error.js";

const emptyMessage = "The search query is empty; pass the text to look for.";
const noWordsMessage =
  "A ranked search needs at least one word of letters or digits; use literal mode for punctuation.";
const stopWordsMessage = (words: string) =>
  `Every word of this ranked query is a common English word (${words}) that nearly every item holds, so ranked search cannot rank by it. ` +
  "Add a word that names what you look for (a name, a file, an error, a topic), or use literal mode for this exact phrase.";
const tooLongMessage = (length: number) =>
  `The search query is ${length} characters long; the limit is 1000. Search for a shorter, distinctive phrase.`;

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
    ["a ranked query of stop words only", "What did we do?", "ranked", stopWordsMessage("'what', 'did', 'we', 'do'")],
    [
      "a ranked query of stop words only, repeated",
      "to be or not to be, to be",
      "ranked",
      stopWordsMessage("'to', 'be', 'or', 'not'"),
    ],
    [
      "a ranked query of many stop words",
      "the a an of in on at by",
      "ranked",
      stopWordsMessage("'the', 'a', 'an', 'of', 'in', 'on', …"),
    ],
  ])("refuses %s", (_label, query, mode, message) => {
    const error = thrownBy(InvalidQueryError, () => assertSearchableQuery(query, mode));
    expect([error.name, error.message]).toEqual(["CtxwinInvalidQueryError", message]);
  });

  it.each<[string, SearchMode]>([
    ["  Needle in a haystack  ", "literal"],
    ["  Needle in a haystack  ", "ranked"],
    ["!!! ---", "literal"],
    ["a".repeat(1_000), "literal"],
    ["a".repeat(1_000), "ranked"],
    ["42", "ranked"],
    ["What did we do?", "literal"],
    ["what did we do about the ledger", "ranked"],
    ["~~", "literal"],
  ])("returns %j unchanged in %s mode", (query, mode) => {
    expect(assertSearchableQuery(query, mode)).toBe(query);
  });
});

describe("InvalidQueryError", () => {
  it("is a CtxwinError with a stable name, distinguishable from other ctxwin errors", () => {
    const error = new InvalidQueryError("bad");
    expect(error).toBeInstanceOf(Error);
    expect([
      CtxwinError.isInstance(error),
      InvalidQueryError.isInstance(error),
      RowValidationError.isInstance(error),
    ]).toEqual([true, true, false]);
    expect(InvalidQueryError.isInstance(new RowValidationError([]))).toBe(false);
  });

  it.each<[string, unknown, boolean]>([
    ["a plain Error with the same name", Object.assign(new Error("bad"), { name: "CtxwinInvalidQueryError" }), false],
    [
      "an object from a duplicate package copy",
      { [Symbol.for("ctxwin.error")]: true, name: "CtxwinInvalidQueryError", message: "bad" },
      true,
    ],
    [
      "a marked object with another name",
      { [Symbol.for("ctxwin.error")]: true, name: "CtxwinRowValidationError" },
      false,
    ],
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

  it("takes a word of five million letters in a text that is not Latin-1, and five million marks", () => {
    expect(tokenizeWords(`write_file(→ ${"X".repeat(5_000_000)}) ok`).map((word) => word.length)).toEqual([
      5, 4, 5_000_000, 2,
    ]);
    expect(tokenizeWords(`→ e${"\u0301".repeat(5_000_000)}te`)).toEqual(["ete"]);
  });
});

describe("stemWord", () => {
  it(`stems words up to ${MAX_STEMMED_WORD_CHARS} characters and leaves longer ones as they are`, () => {
    const word = (length: number) => `${"ab".repeat((length - 3) / 2)}ing`;
    // Sliced from a text that is not Latin-1, as words of a rendered tool part are.
    const inTwoByteText = (value: string) => `→${value}`.slice(1);
    expect(stemWord(inTwoByteText(word(MAX_STEMMED_WORD_CHARS - 1)))).toBe(
      "ab".repeat((MAX_STEMMED_WORD_CHARS - 4) / 2),
    );
    const long = inTwoByteText(word(5_000_001));
    expect(stemWord(long)).toBe(long);
    expect(rankedTerms(`→ ${long}`)).toEqual([long]);
    expect(MAX_STEMMED_WORD_CHARS).toBeGreaterThan(MAX_QUERY_CHARS + 64);
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

  it("stems English words like the index does, and leaves other words alone", () => {
    expect(rankedQueryWords("painted painting paints")).toEqual(["paint"]);
    expect(rankedTerms("Painted the x86 sunrises, café")).toEqual(["paint", "the", "x86", "sunris", "cafe"]);
    expect(stemWord("привет")).toBe("привет");
  });

  it("drops English stop words, and keeps them when the query has nothing else", () => {
    expect(rankedQueryWords("When did Melanie paint a sunrise?")).toEqual(["melani", "paint", "sunris"]);
    expect(rankedQueryWords("What is it?")).toEqual(["what", "is", "it"]);
  });
});

describe("literalWordPhrase (a safe word pre-filter for literal search)", () => {
  it.each<[string, { words: string[]; lastIsPrefix: boolean } | undefined]>([
    [
      "we should have bought the lighthouse",
      { words: ["should", "have", "bought", "the", "lighthouse"], lastIsPrefix: true },
    ],
    [" alpha beta ", { words: ["alpha", "beta"], lastIsPrefix: false }],
    ["quokka-ledger-7781", { words: ["ledger", "7781"], lastIsPrefix: true }],
    ["Deploy Key IS", { words: ["key", "is"], lastIsPrefix: true }],
    ["(x) y", { words: ["x", "y"], lastIsPrefix: true }],
    ["single", undefined],
    ["two words", undefined],
    ["café au lait", { words: ["au", "lait"], lastIsPrefix: true }],
    ["le café noir", undefined],
    ["a b_c d", { words: ["b", "c", "d"], lastIsPrefix: true }],
    ["", undefined],
  ])("%j → %j", (query, expected) => {
    expect(literalWordPhrase(query)).toEqual(expected);
  });

  it("never claims words a matching text could lack (property)", () => {
    const alphabet = fc.constantFrom("a", "b", "Z", "1", " ", "-", ",", "é", "_", "😀");
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 30 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 30 }),
        (characters, start, length) => {
          const text = characters.join("");
          const query = [...text].slice(start, start + length).join("");
          const phrase = literalWordPhrase(query);
          if (phrase === undefined) return;
          const tokens = tokenizeWords(text);
          const expected = phrase.words;
          const found = tokens.some((_, index) =>
            expected.every((word, offset) => {
              const token = tokens[index + offset];
              if (token === undefined) return false;
              return offset === expected.length - 1 && phrase.lastIsPrefix ? token.startsWith(word) : token === word;
            }),
          );
          expect(found).toBe(true);
        },
      ),
    );
  });
});
