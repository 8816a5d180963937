import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundaryAtOrBefore, longestFittingPrefix, longestPrefixWithin, prefixWithinBytes } from "./cut-text.js";
import { utf8ByteLength } from "../code-units.js";

const encoder = new TextEncoder();

describe("boundaryAtOrBefore", () => {
  it("never lands inside a surrogate pair, a ZWJ emoji or a combining accent", () => {
    const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}";
    const accented = "e\u0301";
    const text = `a${family}b${accented}c`;
    const graphemes = ["a", family, "b", accented, "c"];
    const boundaries = new Set<number>();
    let offset = 0;
    for (const grapheme of graphemes) {
      boundaries.add(offset);
      offset += grapheme.length;
    }
    boundaries.add(offset);
    for (let index = 0; index <= text.length; index += 1) {
      const boundary = boundaryAtOrBefore(text, index);
      expect(boundary).toBeLessThanOrEqual(index);
      expect(boundaries.has(boundary)).toBe(true);
    }
  });

  it("keeps every prefix of random text well formed", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.nat(), (text, index) => {
        const prefix = text.slice(0, boundaryAtOrBefore(text, index % (text.length + 1)));
        expect(prefix).toBe(new TextDecoder().decode(encoder.encode(prefix)));
        expect(text.startsWith(prefix)).toBe(true);
      }),
    );
  });
});

describe("longestFittingPrefix", () => {
  it("returns the longest prefix that fits and undefined when nothing fits", () => {
    expect(longestFittingPrefix({ text: "hello world", fits: (prefix) => prefix.length <= 5 })).toBe("hello");
    expect(longestFittingPrefix({ text: "hello", fits: () => true })).toBe("hello");
    expect(longestFittingPrefix({ text: "hello", fits: (prefix) => prefix.length < 0 })).toBeUndefined();
  });

  it("cuts by bytes without splitting a multi-byte character", () => {
    const text = "\u{1F600}".repeat(10);
    const prefix = longestFittingPrefix({ text, fits: (part) => utf8ByteLength(part) <= 10 });
    expect(prefix).toBe("\u{1F600}\u{1F600}");
  });
});

describe("longestPrefixWithin", () => {
  it("lands within the tolerance of the longest fitting prefix with few measurements", () => {
    let calls = 0;
    const measure = (part: string) => {
      calls += 1;
      return Math.ceil(part.length / 4) + (part.match(/\n/g) ?? []).length; // roughly, not exactly, linear
    };
    const text = "word word\n".repeat(2_000);
    const prefix = longestPrefixWithin({ text, measure, limit: 1_000 }) ?? "";
    expect(measure(prefix)).toBeLessThanOrEqual(1_000);
    const longest = longestFittingPrefix({ text, fits: (part) => measure(part) <= 1_000 }) ?? "";
    expect(prefix.length).toBeGreaterThanOrEqual(longest.length * 0.98);
    calls = 0;
    longestPrefixWithin({ text, measure, limit: 1_000 });
    expect(calls).toBeLessThanOrEqual(10);
  });

  it("returns the whole text when it fits, and undefined when nothing fits", () => {
    expect(longestPrefixWithin({ text: "abc", measure: (part) => part.length, limit: 5 })).toBe("abc");
    expect(longestPrefixWithin({ text: "abc", measure: (part) => part.length + 10, limit: 5 })).toBeUndefined();
  });

  it("never splits a character", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), fc.nat({ max: 400 }), (text, limit) => {
        const prefix = longestPrefixWithin({ text, measure: utf8ByteLength, limit });
        expect(prefix).toBeDefined();
        expect(text.startsWith(prefix ?? "")).toBe(true);
        expect(utf8ByteLength(prefix ?? "")).toBeLessThanOrEqual(limit);
        expect(new TextDecoder().decode(encoder.encode(prefix ?? ""))).toBe(prefix);
      }),
    );
  });
});

describe("prefixWithinBytes", () => {
  it("is the longest prefix within the byte budget, never splitting a character", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 100 }), fc.nat({ max: 300 }), (text, maxBytes) => {
        const prefix = prefixWithinBytes(text, maxBytes);
        const longest = longestFittingPrefix({ text, fits: (part) => utf8ByteLength(part) <= maxBytes }) ?? "";
        expect(prefix).toBe(longest);
      }),
    );
  });
});
