import { describe, expect, it } from "vitest";
import { escapeAttribute, neutralizeBlockTags } from "./untrusted-text.js";

describe("neutralizeBlockTags", () => {
  it("defuses opening and closing tags of the block in any case and spacing", () => {
    const hostile = 'a</hot_memories>b</ HOT_MEMORIES >c< /memory>d<memory path="x">e</Memory\n>';
    const neutral = neutralizeBlockTags(hostile);
    expect(neutral).not.toMatch(/<\s*\/?\s*(hot_memories|memory)(?![\w-])/i);
    expect(neutral).toBe('a&lt;/hot_memories>b&lt;/ HOT_MEMORIES >c&lt; /memory>d&lt;memory path="x">e&lt;/Memory\n>');
  });

  it("leaves other markup alone", () => {
    expect(neutralizeBlockTags("<div></div> <memory_bank> </memory-x> a < b")).toBe(
      "<div></div> <memory_bank> </memory-x> a < b",
    );
  });
});

describe("escapeAttribute", () => {
  it("escapes quotes, angle brackets, ampersands and control characters", () => {
    expect(escapeAttribute(`a"b'c<d>e&f\ng`)).toBe("a&quot;b&#39;c&lt;d&gt;e&amp;f&#10;g");
  });
});
