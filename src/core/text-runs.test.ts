import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RUN_PIECE_CHARS, runTexts, textRuns, withoutCharacters } from "./text-runs.js";

const WORD = "[\\p{L}\\p{N}]";
const LETTERS = "[\\p{L}\\p{M}]";
const SYMBOLS = "[^\\s\\p{L}\\p{N}]";

/** Texts of runs around the bound: letters (one astral), marks, digits, spaces, symbols. */
const runsAroundTheBound = fc
  .array(
    fc.tuple(
      fc.constantFrom("a", "é", "𝒜", "\u0301", "7", " ", "→", "!"),
      fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: RUN_PIECE_CHARS - 2, max: RUN_PIECE_CHARS + 300 })),
    ),
    { maxLength: 6 },
  )
  .map((runs) => runs.map(([character, count]) => character.repeat(count)).join(""));

/** What the unbounded pattern matches: fine on these lengths, a stack overflow on megabytes. */
function unboundedRuns(text: string, classes: string[], minimum: number) {
  const pattern = new RegExp(classes.map((source) => `(${source}{${minimum},})`).join("|"), "gu");
  return [...text.matchAll(pattern)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    classIndex: match.slice(1).findIndex((group) => group !== undefined),
  }));
}

describe("textRuns", () => {
  it("finds exactly the runs of the unbounded pattern, across the bound, for one class or two", () => {
    fc.assert(
      fc.property(runsAroundTheBound, (text) => {
        expect([...textRuns(text, { classes: [WORD] })]).toEqual(unboundedRuns(text, [WORD], 1));
        expect([...textRuns(text, { classes: [LETTERS, SYMBOLS], minimum: 256 })]).toEqual(
          unboundedRuns(text, [LETTERS, SYMBOLS], 256),
        );
        expect(runTexts(text, WORD)).toEqual(text.match(new RegExp(`${WORD}+`, "gu")) ?? []);
        expect(withoutCharacters(text, "\\p{M}")).toBe(text.replace(/\p{M}+/gu, ""));
      }),
      { numRuns: 200 },
    );
  });

  it("takes a run of five million letters in a string that is not Latin-1 (where `[…]+/u` overflows V8's stack)", () => {
    const text = `→ ${"x".repeat(5_000_000)} end`;
    expect([...textRuns(text, { classes: [WORD] })]).toEqual([
      { start: 2, end: 5_000_002, classIndex: 0 },
      { start: 5_000_003, end: 5_000_006, classIndex: 0 },
    ]);
    expect(runTexts(text, WORD).map((word) => word.length)).toEqual([5_000_000, 3]);
    expect(withoutCharacters(`a${"\u0301".repeat(5_000_000)}→`, "\\p{M}")).toBe("a→");
  });
});
