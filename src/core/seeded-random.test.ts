import { describe, expect, it } from "vitest";
import { createSeededRandom, shuffled } from "./seeded-random.js";

describe("shuffled", () => {
  const items = Array.from({ length: 20 }, (_, index) => index);

  it("returns a new array holding each item once, and leaves the input as it was", () => {
    const order = shuffled(items, createSeededRandom(7));
    expect(order).not.toBe(items);
    expect([...order].sort((a, b) => a - b)).toEqual(items);
    expect(items).toEqual(Array.from({ length: 20 }, (_, index) => index));
  });

  it("draws the same order from the same seed, and another from another seed", () => {
    expect(shuffled(items, createSeededRandom(7))).toEqual(shuffled(items, createSeededRandom(7)));
    expect(shuffled(items, createSeededRandom(7))).not.toEqual(shuffled(items, createSeededRandom(8)));
  });
});
