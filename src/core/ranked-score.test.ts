import { describe, expect, it } from "vitest";
import { orderRankedCandidates, PREVIOUS_ROW_WEIGHT } from "./ranked-score.js";

describe("orderRankedCandidates", () => {
  it("orders by score, newest first among equal scores", () => {
    const order = orderRankedCandidates([
      { key: "old", position: 1, score: 1 },
      { key: "best", position: 5, score: 3 },
      { key: "new", position: 9, score: 1 },
    ]);
    expect(order).toEqual(["best", "new", "old"]);
  });

  it("adds a share of the previous row's score when that row matched too", () => {
    const order = orderRankedCandidates([
      { key: "question", position: 4, score: 2 },
      { key: "answer", position: 5, score: 1.5 },
      { key: "alone", position: 9, score: 1.9 },
    ]);
    // answer: 1.5 + 0.3 × 2 = 2.1, then question (2) and alone (1.9).
    expect(PREVIOUS_ROW_WEIGHT).toBe(0.3);
    expect(order).toEqual(["answer", "question", "alone"]);
  });

  it("never returns a row that scored nothing, whatever its neighbours", () => {
    expect(
      orderRankedCandidates([
        { key: "match", position: 1, score: 4 },
        { key: "none", position: 2, score: 0 },
      ]),
    ).toEqual(["match"]);
  });
});
