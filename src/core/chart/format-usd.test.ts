import { describe, expect, it } from "vitest";
import { formatUsd } from "./format-usd.js";

describe("formatUsd", () => {
  it("formats dollars for people: two decimals from $0.10, three significant digits below", () => {
    expect([formatUsd(0), formatUsd(1.234), formatUsd(0.01234), formatUsd(0.000123)]).toEqual([
      "$0.00",
      "$1.23",
      "$0.0123",
      "$0.000123",
    ]);
  });
});
