import { describe, expect, it } from "vitest";
import { estimateCost, priceOf } from "./cost.js";

describe("eval cost", () => {
  it("prices a catalogued model from the shipped list prices", () => {
    const price = priceOf({ modelKey: "anthropic:claude-sonnet-4-5" });
    expect(price).toEqual({ inputPerMillion: 3, outputPerMillion: 15 });
    expect(estimateCost({ inputTokens: 1_000_000, outputTokens: 100_000, price })).toBeCloseTo(4.5);
  });

  it("has no price for a model without a public one, and no cost then", () => {
    const price = priceOf({ modelKey: "ollama:qwen3:32b" });
    expect(price).toBeUndefined();
    expect(estimateCost({ inputTokens: 1_000, outputTokens: 1_000, price })).toBeUndefined();
  });
});
