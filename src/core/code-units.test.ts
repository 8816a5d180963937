import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitsSurrogatePair, startsSurrogatePair, utf8ByteLength } from "./code-units.js";

const encoder = new TextEncoder();

describe("utf8ByteLength", () => {
  it("counts 1, 2, 3 and 4 byte characters like TextEncoder", () => {
    expect(utf8ByteLength("a")).toBe(1);
    expect(utf8ByteLength("é")).toBe(2);
    expect(utf8ByteLength("€")).toBe(3);
    expect(utf8ByteLength("😀")).toBe(4);
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => utf8ByteLength(text) === encoder.encode(text).length),
    );
  });

  it("agrees with TextEncoder on any string, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(utf8ByteLength(text)).toBe(encoder.encode(text).length);
      }),
    );
  });
});

describe("surrogate pairs", () => {
  it("finds where a pair starts and where a cut would tear one, lone halves and the ends excluded", () => {
    const text = "a😀\ud800b\udc00";
    const indexes = [...Array(text.length + 2).keys()].map((index) => index - 1);
    expect(indexes.map((index) => startsSurrogatePair(text, index))).toEqual([
      false, // -1
      false, // a
      true, // the pair's high half
      false, // its low half
      false, // a lone high half
      false, // b
      false, // a lone low half
      false, // the end
    ]);
    expect(indexes.map((index) => splitsSurrogatePair(text, index))).toEqual([
      false,
      false,
      false,
      true, // between the pair's halves
      false,
      false,
      false,
      false,
    ]);
  });
});
