import { describe, expect, it } from "vitest";
import { addUsage, cachedShare, NO_USAGE, usageCost } from "./cost.js";
import { lookupModelPrices, modelPriceEntries } from "./model-prices.js";
import { defaultModelCatalog } from "./model-catalog.js";
import { summarizeSpend } from "./step-spend.js";

const sonnet = lookupModelPrices({ model: "anthropic:claude-sonnet-4-5" })!;

describe("usageCost", () => {
  it("prices cache reads at the read price, writes at the write price and the rest at the input price", () => {
    const usage = { inputTokens: 10_000, outputTokens: 500, cacheReadTokens: 8_000, cacheWriteTokens: 1_000 };
    const cost = usageCost({ usage, prices: sonnet });
    expect(cost.usd).toBeCloseTo((1_000 * 3 + 8_000 * 0.3 + 1_000 * 3.75 + 500 * 15) / 1e6, 12);
    expect(cost.uncachedUsd).toBeCloseTo((10_000 * 3 + 500 * 15) / 1e6, 12);
    expect(usageCost({ usage, prices: sonnet, ttl: "1h" }).usd).toBeCloseTo(
      (1_000 * 3 + 8_000 * 0.3 + 1_000 * 6 + 500 * 15) / 1e6,
      12,
    );
  });

  it("never prices more cached tokens than the input holds", () => {
    const cost = usageCost({
      usage: { inputTokens: 100, outputTokens: 0, cacheReadTokens: 500, cacheWriteTokens: 0 },
      prices: sonnet,
    });
    expect(cost.usd).toBeCloseTo((100 * 0.3) / 1e6, 12);
    expect(cachedShare({ inputTokens: 100, cacheReadTokens: 500 })).toBe(1);
    expect(cachedShare({ inputTokens: 0, cacheReadTokens: 0 })).toBe(0);
  });

  it("adds usages figure by figure, from NO_USAGE", () => {
    const usage = { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4 };
    expect(addUsage(NO_USAGE, usage)).toEqual(usage);
    const twice = addUsage(usage, usage);
    expect(twice).toEqual({ inputTokens: 2, outputTokens: 4, cacheReadTokens: 6, cacheWriteTokens: 8 });
  });
});

describe("lookupModelPrices", () => {
  it("finds a priced model by any reference the catalog reads, and by the provider ids the AI SDK gives", () => {
    for (const reference of [
      "anthropic:claude-sonnet-4-5",
      "claude-sonnet-4-5-20250929",
      "anthropic.messages:claude-sonnet-4-5",
      "vertex.anthropic.messages:claude-sonnet-4-5@20250929",
    ]) {
      expect(lookupModelPrices({ model: reference })?.key).toBe("anthropic:claude-sonnet-4-5");
    }
    expect(lookupModelPrices({ model: "openai.responses:gpt-4.1" })?.key).toBe("openai:gpt-4.1");
  });

  it("has no price for a model nobody published one for (tokens only, never a guess)", () => {
    for (const reference of ["ollama:qwen3:32b", "mock:scripted", "google:gemini-2.5-flash", ""])
      expect(lookupModelPrices({ model: reference })).toBeUndefined();
  });

  it("prices only models the catalog knows, each with a source, a date and sane figures", () => {
    for (const entry of modelPriceEntries()) {
      expect(defaultModelCatalog.lookup(entry.key).status, entry.key).toBe("found");
      expect(entry.source).toMatch(/^https:\/\//);
      expect(entry.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(entry.cacheRead).toBeLessThan(entry.input);
      expect(entry.cacheWrite).toBeGreaterThanOrEqual(entry.input);
      expect(entry.output).toBeGreaterThan(entry.input);
    }
  });
});

describe("summarizeSpend", () => {
  const step = (model: string, inputTokens: number | undefined, cacheReadTokens?: number) => ({
    model,
    usage: { inputTokens, outputTokens: 10, ...(cacheReadTokens === undefined ? {} : { cacheReadTokens }) },
  });

  it("sums the requests that reported usage and prices them", () => {
    const spend = summarizeSpend([
      step("anthropic:claude-sonnet-4-5", 1_000),
      step("anthropic:claude-sonnet-4-5", 1_100, 1_000),
      step("anthropic:claude-sonnet-4-5", undefined),
    ]);
    expect(spend).toMatchObject({
      requests: 2,
      inputTokens: 2_100,
      cacheReadTokens: 1_000,
      cacheWriteTokens: 0,
      outputTokens: 20,
      cachedShare: 1_000 / 2_100,
    });
    expect(spend.costUsd).toBeCloseTo((1_100 * 3 + 1_000 * 0.3 + 20 * 15) / 1e6, 12);
    expect(spend.uncachedCostUsd).toBeCloseTo((2_100 * 3 + 20 * 15) / 1e6, 12);
  });

  it("gives no cost when any request's model has no known price", () => {
    expect(summarizeSpend([step("anthropic:claude-sonnet-4-5", 1_000), step("ollama:qwen3:32b", 1_000)])).toMatchObject(
      { requests: 2, inputTokens: 2_000, costUsd: null, uncachedCostUsd: null },
    );
  });
});
