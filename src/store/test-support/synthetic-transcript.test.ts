import { describe, expect, it } from "vitest";
import { validateRowInputs } from "../../core/row.js";
import { requestOf } from "../../core/timeline/row-marks.js";
import { createSeededRandom } from "./seeded-random.js";
import { chop, contentRow, plant, rolloverRows, splitSentences } from "./synthetic-transcript.js";

const sentences = splitSentences(
  "The first one.  A second, longer sentence here!\nIs this the third? Yes it is. And a fifth one closes.",
);

describe("synthetic transcripts", () => {
  it("split prose into sentences and chop it into rows near the wanted length", () => {
    expect(sentences).toEqual([
      "The first one.",
      "A second, longer sentence here!",
      "Is this the third?",
      "Yes it is.",
      "And a fifth one closes.",
    ]);
    const random = createSeededRandom(3);
    for (const length of [10, 40, 200]) {
      const text = chop(sentences, random, length);
      expect(text.length).toBeLessThanOrEqual(length);
      expect(text.length).toBeGreaterThan(length / 2);
    }
  });

  it("plant a phrase that a case-insensitive search finds, once", () => {
    const random = createSeededRandom(4);
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const text = plant(chop(sentences, random, 80), "bought the lighthouse", random);
      expect(text.toLowerCase().split("bought the lighthouse")).toHaveLength(2);
    }
  });

  it("produce rows the store accepts: text, tool calls, rollover boundary with lead-in", () => {
    const random = createSeededRandom(5);
    const rows = [
      ...Array.from({ length: 30 }, (_unused, seq) => contentRow(chop(sentences, random, 60), random, seq)),
      ...rolloverRows("r1", 0),
    ];
    expect(validateRowInputs(rows)).toHaveLength(32);
    expect(new Set(rows.map((row) => row.parts[0]?.type))).toEqual(new Set(["text", "dynamic-tool", undefined]));
  });

  it("with a window's running tokens, make assistant rows step rows the timeline draws as requests", () => {
    const random = createSeededRandom(6);
    const rows = Array.from({ length: 40 }, (_unused, seq) =>
      contentRow(chop(sentences, random, 60), random, seq, seq * 100),
    );
    expect(validateRowInputs(rows)).toHaveLength(40);
    const requests = rows.map((row, seq) => ({ row, request: requestOf({ ...row, seq, createdAt: "" }) }));
    for (const { row, request } of requests) {
      if (row.role === "assistant") expect(request).toMatchObject({ source: "reported", limit: 128_000 });
      else expect(request).toBeUndefined();
    }
    expect(requests.some(({ request }) => request !== undefined)).toBe(true);
  });
});
