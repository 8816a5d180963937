import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitJsonPrefix, jsonByteLength } from "./json-size.js";

const encoder = new TextEncoder();
/** JSON string content of `text`, without the quotes, as UTF-8 bytes. */
const escapedBytes = (text: string) => encoder.encode(JSON.stringify(text)).length - 2;

describe("jsonByteLength", () => {
  it("measures serialized JSON, where lone surrogates are escaped", () => {
    const value = { text: 'a\ud800b\n\u0001"😀' };
    expect(jsonByteLength(value)).toBe(encoder.encode(JSON.stringify(value)).length);
  });
});

describe("fitJsonPrefix", () => {
  it("stops before the character that would pass the byte budget, counting escapes", () => {
    expect(fitJsonPrefix({ text: 'a"b', start: 0, maxChars: 10, maxBytes: 3 })).toBe(2);
    expect(fitJsonPrefix({ text: "ab\u0001c", start: 0, maxChars: 10, maxBytes: 7 })).toBe(2);
    expect(fitJsonPrefix({ text: "ab\u0001c", start: 0, maxChars: 10, maxBytes: 8 })).toBe(3);
  });

  it("never ends inside a surrogate pair", () => {
    expect(fitJsonPrefix({ text: "a😀b", start: 0, maxChars: 2, maxBytes: 100 })).toBe(1);
    expect(fitJsonPrefix({ text: "a😀b", start: 0, maxChars: 3, maxBytes: 100 })).toBe(3);
    expect(fitJsonPrefix({ text: "a😀b", start: 0, maxChars: 10, maxBytes: 4 })).toBe(1);
  });

  it("returns the longest prefix within both bounds, for any text", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom("\ud83d", "\ude00", '"', "\\", "\n", "\u0000"),
            fc.constantFrom("😀", "é", "字"),
            fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
          ),
          maxLength: 60,
        }),
        fc.nat(80),
        fc.nat(200),
        (text, maxChars, maxBytes) => {
          const end = fitJsonPrefix({ text, start: 0, maxChars, maxBytes });
          const prefix = text.slice(0, end);
          expect(end).toBeLessThanOrEqual(maxChars);
          expect(escapedBytes(prefix)).toBeLessThanOrEqual(maxBytes);
          // Not splitting a pair:
          const last = text.charCodeAt(end - 1);
          const next = text.charCodeAt(end);
          expect(last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff).toBe(false);
          // Maximal: one more character (or pair) would break a bound.
          if (end < text.length) {
            const width = text.codePointAt(end)! > 0xffff ? 2 : 1;
            const longer = text.slice(0, end + width);
            expect(end + width > maxChars || escapedBytes(longer) > maxBytes).toBe(true);
          }
        },
      ),
    );
  });
});
