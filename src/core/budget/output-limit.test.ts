import { describe, expect, it } from "vitest";
import { requestOutputLimit } from "./output-limit.js";

describe("requestOutputLimit", () => {
  it("asks for the budget's output reserve, not the model's own maximum", () => {
    // The Anthropic case of issue 15: 137,360 input tokens, SDK default max_tokens 64,000.
    expect(requestOutputLimit({ limit: 200_000, inputTokens: 137_360, modelMaxOutputTokens: 64_000 })).toBe(8192);
    expect(requestOutputLimit({ limit: 200_000, outputReserve: 16_000, inputTokens: 1_000 })).toBe(16_000);
  });

  it("never asks for more than the window has left after the input", () => {
    expect(requestOutputLimit({ limit: 16_000, inputTokens: 14_000 })).toBe(2000);
    expect(requestOutputLimit({ limit: 16_000, inputTokens: 15_999.2 })).toBe(1);
    expect(requestOutputLimit({ limit: 16_000, inputTokens: 20_000 })).toBe(1);
  });

  it("uses the reserve as capped by the hard ceiling (25% of the limit)", () => {
    expect(requestOutputLimit({ limit: 16_000, inputTokens: 100 })).toBe(4000);
  });

  it("never asks for more than the model can write", () => {
    expect(requestOutputLimit({ limit: 128_000, inputTokens: 100, modelMaxOutputTokens: 4096 })).toBe(4096);
    expect(requestOutputLimit({ limit: undefined, inputTokens: 100, modelMaxOutputTokens: 4096 })).toBe(4096);
  });

  it("without a known limit asks for the reserve", () => {
    expect(requestOutputLimit({ limit: undefined, inputTokens: 1_000_000 })).toBe(8192);
  });
});
