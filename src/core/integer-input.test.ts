import { describe, expect, it } from "vitest";
import { z } from "zod";
import { integerFromText, integerInput } from "./integer-input.js";

describe("integers written as text", () => {
  it("reads exactly the text a safe integer prints as", () => {
    for (const [text, number] of [
      ["0", 0],
      ["5", 5],
      ["-1", -1],
      ["16000", 16_000],
      ["9007199254740991", Number.MAX_SAFE_INTEGER],
    ] as const) {
      expect(integerFromText(text)).toBe(number);
    }
  });

  it("leaves any other value as it is, for the caller's check to refuse", () => {
    for (const value of [
      "",
      " 5",
      "5 ",
      "+5",
      "05",
      "-0",
      "00",
      "5.5",
      "5.0",
      "1e3",
      "0x10",
      "½",
      "٥",
      "9007199254740993",
      "five",
      5.5,
      null,
      undefined,
      [5],
      { value: 5 },
    ]) {
      expect(integerFromText(value)).toBe(value);
    }
  });

  it("keeps the JSON Schema of the number it wraps", () => {
    const plain = z.number().int().min(1).max(50).nullish().describe("limit");
    const lenient = integerInput(z.number().int().min(1).max(50)).nullish().describe("limit");
    expect(z.toJSONSchema(lenient, { io: "input", target: "draft-7" })).toEqual(
      z.toJSONSchema(plain, { io: "input", target: "draft-7" }),
    );
    expect(lenient.parse("7")).toBe(7);
    expect(lenient.safeParse("51").success).toBe(false);
  });
});
