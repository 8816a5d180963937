import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { containsLiteral, tokenizeWords } from "../search-query.js";
import { excerptAround, findLiteralMatch, findWordMatch, oneLinePreview } from "./text-excerpt.js";

const splitsPair = (text: string, index: number) => {
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
};

describe("oneLinePreview", () => {
  it("collapses whitespace and control characters into single spaces", () => {
    expect(oneLinePreview({ text: "a\n\n\t b\u0000c ", maxChars: 10 })).toBe("a b c");
  });

  it("cuts long text with an ellipsis, never inside a surrogate pair", () => {
    expect(oneLinePreview({ text: "abcdefghij", maxChars: 5 })).toBe("abcd…");
    expect(oneLinePreview({ text: "abc😀def", maxChars: 5 })).toBe("abc…");
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(fc.constant("😀"), fc.string({ unit: "binary", minLength: 1, maxLength: 1 })),
          maxLength: 300,
        }),
        fc.integer({ min: 2, max: 50 }),
        (text, maxChars) => {
          const preview = oneLinePreview({ text, maxChars });
          expect(preview.length).toBeLessThanOrEqual(maxChars);
          expect(
            /[\ud800-\udbff](?![\udc00-\udfff])/.test(preview.replace(/[\ud800-\udbff][\udc00-\udfff]/g, "")),
          ).toBe(false);
        },
      ),
    );
  });
});

describe("excerptAround", () => {
  it("places the match about a third of the way in and reports where the excerpt starts", () => {
    const text = "x".repeat(1000) + "NEEDLE" + "y".repeat(1000);
    const excerpt = excerptAround({ text, match: { start: 1000, length: 6 }, maxChars: 500 });
    expect(excerpt.text.length).toBe(500);
    expect(text.slice(excerpt.offsetChars, excerpt.offsetChars + 500)).toBe(excerpt.text);
    expect(excerpt.text.indexOf("NEEDLE")).toBe(Math.floor((500 - 6) / 3));
  });

  it("is a verbatim slice within the limit that never cuts a pair", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(fc.constant("😀"), fc.string({ unit: "binary", minLength: 1, maxLength: 1 })),
          maxLength: 400,
        }),
        fc.nat(),
        fc.nat(20),
        fc.integer({ min: 2, max: 100 }),
        (text, rawStart, length, maxChars) => {
          const start = text.length === 0 ? 0 : rawStart % text.length;
          const excerpt = excerptAround({
            text,
            match: { start, length: Math.min(length, text.length - start) },
            maxChars,
          });
          expect(excerpt.text.length).toBeLessThanOrEqual(maxChars);
          expect(text.slice(excerpt.offsetChars, excerpt.offsetChars + excerpt.text.length)).toBe(excerpt.text);
          if (excerpt.text.length > 0) {
            expect(splitsPair(text, excerpt.offsetChars)).toBe(false);
            expect(splitsPair(text, excerpt.offsetChars + excerpt.text.length)).toBe(false);
          }
        },
      ),
    );
  });
});

describe("findLiteralMatch", () => {
  it("finds the query case-insensitively", () => {
    expect(findLiteralMatch({ text: "Hello World", query: "WORLD" })).toEqual({ start: 6, length: 5 });
    expect(findLiteralMatch({ text: "Hello", query: "bye" })).toBeUndefined();
  });

  it("maps back to the original text when lower-casing changes lengths", () => {
    const text = "İİİ then Target";
    const match = findLiteralMatch({ text, query: "target" });
    expect(match).toBeDefined();
    expect(text.slice(match!.start, match!.start + match!.length)).toBe("Target");
  });

  it("finds a match wherever literal search would", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom("İ", "ß", "Σ", "😀"),
            fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
          ),
          maxLength: 60,
        }),
        fc.nat(),
        fc.integer({ min: 1, max: 5 }),
        (text, rawStart, length) => {
          fc.pre(text.length > 0);
          const start = rawStart % text.length;
          const query = text.slice(start, start + length);
          fc.pre(query.trim().length > 0);
          const match = findLiteralMatch({ text, query });
          expect(match !== undefined).toBe(containsLiteral(text, query));
          if (match !== undefined)
            expect(containsLiteral(text.slice(match.start, match.start + match.length), query)).toBe(true);
        },
      ),
    );
  });
});

describe("findWordMatch", () => {
  it("finds whole words only, case-insensitively", () => {
    expect(findWordMatch({ text: "Another other OTHER", words: ["other"] })).toEqual({ start: 8, length: 5 });
  });

  it("folds diacritics like the ranked index", () => {
    expect(findWordMatch({ text: "A café here", words: tokenizeWords("cafe") })).toEqual({ start: 2, length: 4 });
  });

  it("gives undefined when no word matches", () => {
    expect(findWordMatch({ text: "nothing to see", words: ["absent"] })).toBeUndefined();
  });

  it("finds a word after a run of five million letters in a text that is not Latin-1", () => {
    const text = `Ünïcödé → ${"x".repeat(5_000_000)} café`;
    expect(findWordMatch({ text, words: tokenizeWords("cafe") })).toEqual({ start: 5_000_011, length: 4 });
  });
});
