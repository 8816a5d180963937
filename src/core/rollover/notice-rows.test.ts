import { describe, expect, it } from "vitest";
import { classifyBoundary } from "../boundary.js";
import { validateRowInputs, type Row } from "../row.js";
import { isHistoryVisible, isProviderEligible, isSubstantive } from "../visibility.js";
import { bucketWindows, privacyFloorSeq, providerSlice } from "../windows.js";
import { budgetWarningRow, compactionSummaryRow, rejectedInputRow, resetBoundaryRow } from "./notice-rows.js";

describe("notice rows", () => {
  it("a budget warning is visible, sent to the model, and not substantive", () => {
    const row = budgetWarningRow({ text: "save notes", windowId: "w:0", contextTokens: 6_300.6, maxTokens: 10_000 });
    expect(() => validateRowInputs([row])).not.toThrow();
    expect(row.uiVisible).toBe(true);
    expect(isProviderEligible(row)).toBe(true);
    expect(isSubstantive(row)).toBe(false);
    expect(row.meta).toEqual({ type: "budget-warning", windowId: "w:0", contextTokens: 6_301, maxTokens: 10_000 });
  });

  it("a rejected input keeps the user's parts, stays visible, and is never sent", () => {
    const parts = [{ type: "text" as const, text: "a very long paste" }];
    const row = rejectedInputRow({
      parts,
      reason: "too long for a fresh window",
      estimatedTokens: 50_000,
      hardCeiling: 12_000,
      model: "openai:gpt-4o",
    });
    expect(() => validateRowInputs([row])).not.toThrow();
    expect(row.parts).toEqual(parts);
    expect(row.synthetic).toBeUndefined();
    expect(isProviderEligible(row)).toBe(false);
    expect(isHistoryVisible(row)).toBe(false);
    expect(providerSlice([row])).toEqual([]);
  });

  it("a reset is a boundary and a privacy floor", () => {
    const rows: Pick<Row, "seq" | "role" | "parts" | "boundary">[] = [
      { seq: 1, role: "user", parts: [] },
      { seq: 2, ...resetBoundaryRow({}) },
    ];
    expect(() => validateRowInputs([resetBoundaryRow({})])).not.toThrow();
    expect(classifyBoundary(rows[1]!)).toBe("reset");
    expect(privacyFloorSeq(rows)).toBe(2);
  });

  it("a compaction summary opens a window and is itself sent", () => {
    const row = compactionSummaryRow({ summary: "Parser fixed; next: tests.", previousWindowId: "w:0" });
    expect(() => validateRowInputs([row])).not.toThrow();
    const rows: Pick<Row, "seq" | "role" | "parts" | "boundary" | "meta">[] = [
      { seq: 1, role: "user", parts: [] },
      { seq: 2, ...row },
    ];
    const windows = bucketWindows(rows);
    expect(windows.map((window) => window.kind)).toEqual(["start", "compaction"]);
    expect(providerSlice(windows[1]!.rows)).toHaveLength(1);
    expect((row.parts[0] as { text: string }).text).toContain("Parser fixed; next: tests.");
  });
});
