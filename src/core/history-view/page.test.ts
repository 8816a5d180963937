import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pageText } from "./page.js";

const encoder = new TextEncoder();

function readAll(text: string, limitChars: number, maxBytes: number): string[] {
  const pages: string[] = [];
  let offset = 0;
  for (;;) {
    const page = pageText({ text, offsetChars: offset, limitChars, maxBytes });
    pages.push(page.text);
    expect(page.offsetChars).toBe(offset);
    if (!page.hasMore) return pages;
    expect(page.endChars).toBeGreaterThan(offset);
    offset = page.endChars;
  }
}

describe("pageText", () => {
  it("pages by characters and says where the next page starts", () => {
    expect(pageText({ text: "abcdef", offsetChars: 2, limitChars: 3, maxBytes: 100 })).toEqual({
      text: "cde",
      offsetChars: 2,
      endChars: 5,
      totalChars: 6,
      hasMore: true,
    });
    expect(pageText({ text: "abcdef", offsetChars: 6, limitChars: 3, maxBytes: 100 })).toMatchObject({
      text: "",
      hasMore: false,
    });
  });

  it("moves an offset that splits a surrogate pair back to the start of the pair", () => {
    expect(pageText({ text: "a😀b", offsetChars: 2, limitChars: 5, maxBytes: 100 })).toMatchObject({
      text: "😀b",
      offsetChars: 1,
    });
  });

  it("takes one whole character when the limit falls inside it, so paging advances", () => {
    expect(pageText({ text: "😀😀", offsetChars: 0, limitChars: 1, maxBytes: 100 })).toMatchObject({
      text: "😀",
      endChars: 2,
      hasMore: true,
    });
  });

  it("cuts the page at the byte budget", () => {
    const page = pageText({ text: "字字字字", offsetChars: 0, limitChars: 100, maxBytes: 7 });
    expect(page.text).toBe("字字");
  });

  it("reconstructs any text exactly from its pages, each within its bounds", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom("😀", "字", "\n", '"', "\u0001", "\ud800"),
            fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
          ),
          maxLength: 200,
        }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 6, max: 120 }),
        (text, limitChars, maxBytes) => {
          const pages = readAll(text, limitChars, maxBytes);
          expect(pages.join("")).toBe(text);
          for (const page of pages)
            expect(encoder.encode(JSON.stringify(page)).length - 2).toBeLessThanOrEqual(maxBytes);
        },
      ),
    );
  });
});
