import { describe, expect, it } from "vitest";
import { renderRowText } from "./row-text.js";
import { MAX_SEARCH_VALUE_CHARS, renderSearchText } from "./search-text.js";

type Part = { type: string; [key: string]: unknown };

describe("renderSearchText", () => {
  it("is the rendered text when no value is longer than MAX_SEARCH_VALUE_CHARS", () => {
    const parts: Part[] = [
      { type: "text", text: "a".repeat(MAX_SEARCH_VALUE_CHARS) },
      { type: "reasoning", text: "r".repeat(MAX_SEARCH_VALUE_CHARS * 2) },
      {
        type: "tool-read",
        toolCallId: "c",
        state: "output-available",
        input: "i".repeat(MAX_SEARCH_VALUE_CHARS),
        output: "o".repeat(MAX_SEARCH_VALUE_CHARS),
      },
    ];
    expect(renderSearchText({ parts }) === renderRowText({ parts })).toBe(true);
  });

  it("holds the first MAX_SEARCH_VALUE_CHARS characters of each text, tool input and tool output, without a marker", () => {
    const long = (letter: string) => `${letter.repeat(MAX_SEARCH_VALUE_CHARS)}LATE`;
    const parts: Part[] = [
      { type: "text", text: long("t") },
      { type: "tool-read", toolCallId: "c", state: "output-available", input: { path: long("i") }, output: long("o") },
      { type: "tool-fail", toolCallId: "d", state: "output-error", input: "x", errorText: long("e") },
      { type: "text", text: "next part" },
    ];
    const text = renderSearchText({ parts });
    const cut = (letter: string, prefix = "") => `${prefix}${letter.repeat(MAX_SEARCH_VALUE_CHARS - prefix.length)}`;
    expect(text.split("\n").map((line) => line.length)).toEqual([
      MAX_SEARCH_VALUE_CHARS,
      `read() → `.length + 2 * MAX_SEARCH_VALUE_CHARS,
      `fail(x) → `.length + MAX_SEARCH_VALUE_CHARS,
      "next part".length,
    ]);
    expect(
      text ===
        [
          cut("t"),
          `read(${cut("i", '{"path":"')}) → ${cut("o")}`,
          `fail(x) → ${cut("e", "error: ")}`,
          "next part",
        ].join("\n"),
    ).toBe(true);
    expect(text).not.toContain("LATE");
  });

  it("never splits a surrogate pair at the cut", () => {
    const text = renderSearchText({ parts: [{ type: "text", text: `${"a".repeat(MAX_SEARCH_VALUE_CHARS - 1)}😀` }] });
    expect(text).toBe("a".repeat(MAX_SEARCH_VALUE_CHARS - 1));
  });
});
