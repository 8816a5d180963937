import { describe, expect, it } from "vitest";
import { matchFinder } from "./history-search.js";

const marked = (text: string, spans: Array<{ start: number; length: number }>) =>
  spans.map(({ start, length }) => text.slice(start, start + length));

describe("matchFinder", () => {
  it("marks every case-folded occurrence of a literal query", () => {
    const text = "Orders.Status is read; orders.status is written.";
    expect(marked(text, matchFinder({ query: "orders.status", mode: "literal" })(text))).toEqual([
      "Orders.Status",
      "orders.status",
    ]);
  });

  it("marks each word whose stem is a term of a ranked or hybrid query, not stop words", () => {
    const text = "When she painted the sunrises, painting was all she did.";
    for (const mode of ["ranked", "hybrid"] as const) {
      expect(marked(text, matchFinder({ query: "when did she paint a sunrise", mode })(text))).toEqual([
        "painted",
        "sunrises",
        "painting",
      ]);
    }
  });

  it("marks nothing for a search by meaning, or when the text does not hold the query", () => {
    expect(matchFinder({ query: "paint", mode: "semantic" })("painted")).toEqual([]);
    expect(matchFinder({ query: "zebra", mode: "literal" })("no such word")).toEqual([]);
  });
});
