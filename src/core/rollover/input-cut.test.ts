import { describe, expect, it } from "vitest";
import { validateRowInputs, type RowPart } from "../row.js";
import { cutPartsToBytes, cutRowToBytes, jsonPrefixLength } from "./input-cut.js";
import { rejectedInputRow } from "./notice-rows.js";

const utf8 = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe("jsonPrefixLength", () => {
  const samples = [
    "plain ascii text",
    'quotes " and \\ backslashes\n\ttabs',
    "€uro and 日本語",
    "emoji 😀😀 pairs",
    "control \u0001\u001f chars",
    "lone \ud800 surrogate",
  ];
  it("finds the longest beginning whose JSON string content fits, never splitting a surrogate pair", () => {
    for (const text of samples) {
      for (let maxBytes = 0; maxBytes <= utf8(text); maxBytes += 1) {
        const length = jsonPrefixLength(text, maxBytes);
        expect(utf8(text.slice(0, length)) - 2).toBeLessThanOrEqual(maxBytes);
        if (length < text.length) {
          const next = /[\ud800-\udbff][\udc00-\udfff]/.test(text.slice(length, length + 2)) ? length + 2 : length + 1;
          expect(utf8(text.slice(0, next)) - 2).toBeGreaterThan(maxBytes);
        }
      }
    }
  });
});

describe("cutRowToBytes", () => {
  it("keeps the longest beginning of the text that fits the limit and records the cut", () => {
    const text = "word ".repeat(40_000);
    const row = rejectedInputRow({
      parts: [{ type: "text", text }],
      reason: "too large",
      estimatedTokens: 60_000,
      hardCeiling: 15_000,
    });
    const cut = cutRowToBytes(row, 50_000);
    const [kept] = validateRowInputs([cut], { maxRowBytes: 50_000 });
    const keptText = (kept!.parts[0] as { text: string }).text;
    expect(text.startsWith(keptText)).toBe(true);
    expect(keptText.length).toBeGreaterThan(49_000);
    expect(cut.meta).toMatchObject({
      type: "rejected-input",
      reason: "too large",
      cut: { totalChars: text.length, keptChars: keptText.length, droppedFiles: 0, maxRowBytes: 50_000 },
    });
  });

  it("replaces a file part that cannot fit by a line naming it; a small file stays", () => {
    const parts: RowPart[] = [
      { type: "text", text: "look at these" },
      {
        type: "file",
        mediaType: "image/png",
        filename: "huge.png",
        url: `data:image/png;base64,${"A".repeat(80_000)}`,
      },
      { type: "file", mediaType: "text/plain", filename: "small.txt", url: "data:text/plain;base64,aGk=" },
    ];
    const { parts: kept, droppedFiles } = cutPartsToBytes(parts, 10_000);
    expect(droppedFiles).toBe(1);
    expect(kept).toEqual([
      parts[0],
      { type: "text", text: "[file huge.png, image/png: not kept, too large to store]" },
      parts[2],
    ]);
    expect(utf8(kept)).toBeLessThanOrEqual(10_000);
  });
});
