import { describe, expect, it } from "vitest";
import { fitEntries } from "./bounded-result.js";
import { jsonByteLength } from "./json-size.js";

describe("fitEntries", () => {
  const entries = Array.from({ length: 40 }, (_unused, index) => ({ id: index, text: "字".repeat(100 + index) }));
  const build = (kept: typeof entries) => ({ entries: kept, next: kept.at(-1)?.id ?? null });

  it("keeps every entry when the whole result fits", () => {
    const fitted = fitEntries({ entries: entries.slice(0, 3), build, maxBytes: 16_384 });
    expect(fitted?.kept).toBe(3);
  });

  it("keeps the longest prefix that fits, and the result names its last kept entry", () => {
    const fitted = fitEntries({ entries, build, maxBytes: 4_000 });
    expect(fitted).toBeDefined();
    const { result, kept } = fitted!;
    expect(jsonByteLength(result)).toBeLessThanOrEqual(4_000);
    expect(jsonByteLength(build(entries.slice(0, kept + 1)))).toBeGreaterThan(4_000);
    expect(result.next).toBe(kept - 1);
  });

  it("gives undefined when not even the empty result fits", () => {
    expect(fitEntries({ entries, build: () => ({ filler: "x".repeat(100) }), maxBytes: 50 })).toBeUndefined();
  });
});
