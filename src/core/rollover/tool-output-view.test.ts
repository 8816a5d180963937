import { describe, expect, it } from "vitest";
import { renderRowText } from "../row-text.js";
import { viewOversizedToolOutputs } from "./tool-output-view.js";

const countTokens = (text: string) => Math.ceil(text.length / 4);

function toolRow(seq: number, output: unknown) {
  return {
    seq,
    role: "assistant",
    parts: [
      { type: "text", text: "reading" },
      { type: "tool-read", toolCallId: `call-${seq}`, state: "output-available", input: { path: "big.txt" }, output },
    ],
  };
}

describe("viewOversizedToolOutputs", () => {
  it("replaces an oversized output in a copy and leaves the stored row untouched", () => {
    const huge = "x" + "😀".repeat(10) + "x".repeat(200_000);
    const stored = toolRow(42, huge);
    const snapshot = structuredClone(stored);
    const { rows, views } = viewOversizedToolOutputs({
      rows: [stored],
      maxOutputTokens: 1_000,
      headChars: 4,
      countTokens,
    });
    expect(stored).toEqual(snapshot);
    const viewedPart = rows[0]!.parts[1] as { output: string };
    expect(viewedPart.output).toBe(views.get("call-42"));
    expect(viewedPart.output.startsWith("x😀\n")).toBe(true); // 4 units would split the second pair: cut to 3
    expect(viewedPart.output).toContain('"item_id":"42"');
    expect(viewedPart.output).toContain("session_history");
    expect(viewedPart.output.length).toBeLessThan(1_000);
  });

  it("keeps small outputs and other parts as they are (same objects)", () => {
    const small = toolRow(1, { lines: ["a", "b"] });
    const { rows, views } = viewOversizedToolOutputs({
      rows: [small],
      maxOutputTokens: 1_000,
      headChars: 100,
      countTokens,
    });
    expect(rows[0]).toBe(small);
    expect(views.size).toBe(0);
  });

  it("measures JSON outputs by their serialized size", () => {
    const big = toolRow(3, { items: Array.from({ length: 5_000 }, (_, index) => `entry-${index}`) });
    const { views } = viewOversizedToolOutputs({ rows: [big], maxOutputTokens: 2_000, headChars: 50, countTokens });
    expect(views.get("call-3")).toMatch(/^\{"items":\["entry-0"/);
  });

  it("leaves a result that only looks long but counts few tokens", () => {
    const row = toolRow(4, "a".repeat(5_000));
    const { views } = viewOversizedToolOutputs({
      rows: [row],
      maxOutputTokens: 2_000,
      headChars: 50,
      countTokens: () => 10,
    });
    expect(views.size).toBe(0);
  });

  it("still renders for session_history from the stored row in full", () => {
    const stored = toolRow(5, "y".repeat(50_000));
    viewOversizedToolOutputs({ rows: [stored], maxOutputTokens: 100, headChars: 10, countTokens });
    expect(renderRowText(stored)).toContain("y".repeat(50_000));
  });
});
