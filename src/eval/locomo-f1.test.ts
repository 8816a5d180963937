import { describe, expect, it } from "vitest";
import { locomoAnswerF1, multiAnswerF1, normalizeAnswer, tokenF1 } from "./locomo-f1.js";

describe("LoCoMo answer F1", () => {
  it("normalises like the official script: commas, case, punctuation, a/an/the/and, spaces", () => {
    expect(normalizeAnswer("The Sunrise, and a lake!")).toBe("sunrise lake");
    expect(normalizeAnswer("  7 May,  2023. ")).toBe("7 may 2023");
    expect(normalizeAnswer("Anderson's band")).toBe("andersons band");
    expect(normalizeAnswer("")).toBe("");
  });

  it("pins token F1 to hand-computed values", () => {
    expect(tokenF1("7 May 2023", "7 May 2023")).toBe(1);
    expect(tokenF1("she painted a sunrise", "a sunrise")).toBeCloseTo(0.5, 10); // P 1/3, R 1
    expect(tokenF1("May 2023", "7 May 2023")).toBeCloseTo(0.8, 10); // P 1, R 2/3
    expect(tokenF1("nothing in common", "7 May 2023")).toBe(0);
    expect(tokenF1("", "7 May 2023")).toBe(0);
    // Repeated tokens count once per occurrence in the gold answer (a multiset overlap).
    expect(tokenF1("paint paint paint", "paint")).toBeCloseTo(0.5, 10); // P 1/3, R 1
  });

  it("stems tokens, so inflections match (Porter, as the official script)", () => {
    expect(tokenF1("running", "runs")).toBe(1);
    expect(tokenF1("She went to adoption agencies", "adoption agency")).toBeCloseTo(4 / 7, 10); // P 2/5, R 1
  });

  it("averages the best match per gold part for multi-hop questions (category 1)", () => {
    expect(multiAnswerF1("counseling, psychology", "Psychology, counseling certification")).toBeCloseTo(
      (1 + 2 / 3) / 2,
      10,
    );
    expect(
      locomoAnswerF1({
        prediction: "counseling, psychology",
        goldAnswer: "Psychology, counseling certification",
        category: 1,
      }),
    ).toBeCloseTo(5 / 6, 10);
    // Other categories score the whole text: "psychology counseling" against "psychology counseling certification".
    expect(
      locomoAnswerF1({
        prediction: "counseling, psychology",
        goldAnswer: "Psychology, counseling certification",
        category: 4,
      }),
    ).toBeCloseTo(0.8, 10);
  });

  it("scores only the gold answer before ';' for category 3", () => {
    expect(
      locomoAnswerF1({ prediction: "likely yes", goldAnswer: "Likely yes; she wants to be a counselor", category: 3 }),
    ).toBe(1);
    expect(
      locomoAnswerF1({ prediction: "likely yes", goldAnswer: "Likely yes; she wants to be a counselor", category: 2 }),
    ).toBeLessThan(0.5);
  });
});
