import { describe, expect, it } from "vitest";
import { readStepMetadata, stepMetadata } from "./step-usage.js";

describe("step metadata", () => {
  it("round-trips the cache figures and the cache hints of a step", () => {
    const metadata = stepMetadata({
      usage: { inputTokens: 1_550, outputTokens: 10, cacheReadTokens: 1_500, cacheWriteTokens: 30 },
      model: "anthropic.messages:claude-sonnet-4-5",
      cache: {
        provider: "anthropic",
        breakpoints: 3,
        ttl: "1h",
        dropped: [{ reason: "breakpoint-limit", detail: "no room" }],
      },
    });
    expect(readStepMetadata({ metadata: JSON.parse(JSON.stringify(metadata)) })).toEqual(metadata.ctxwinStep);
  });

  it("reads the name importers used before (cachedInputTokens) as cache reads, and drops malformed cache hints", () => {
    const read = readStepMetadata({
      metadata: {
        ctxwinStep: {
          usage: { inputTokens: 9_205, outputTokens: 14, cachedInputTokens: 8_000 },
          model: "anthropic:claude-opus-4-8",
          cache: { provider: "elsewhere" },
        },
      },
    });
    expect(read?.usage).toEqual({ inputTokens: 9_205, outputTokens: 14, cacheReadTokens: 8_000 });
    expect(read?.cache).toBeUndefined();
    const drops = readStepMetadata({
      metadata: {
        ctxwinStep: {
          usage: {},
          model: "m",
          cache: { provider: "openai", dropped: [{ reason: "made-up" }, { reason: "rejected", detail: 4 }] },
        },
      },
    });
    expect(drops?.cache).toEqual({ provider: "openai", dropped: [{ reason: "rejected", detail: "" }] });
  });
});
