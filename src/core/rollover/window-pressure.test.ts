import { describe, expect, it } from "vitest";
import type { RowInput } from "../row.js";
import { continueRow, leadInRow, rolloverBoundaryRow } from "./rollover-rows.js";
import { budgetWarningRow, rejectedInputRow } from "./notice-rows.js";
import { stepMetadata } from "./step-usage.js";
import { deriveWindowPressure, hasBudgetWarning, isWindowFresh, type PressureRow } from "./window-pressure.js";

interface TestRow extends PressureRow {
  tokens: number;
}

let seq = 0;
function row(fields: Partial<TestRow> & { role: string }): TestRow {
  seq += 1;
  return { seq, tokens: 0, ...fields };
}
const user = (tokens: number) => row({ role: "user", tokens });
const assistant = (tokens: number, inputTokens?: number) =>
  row({
    role: "assistant",
    tokens,
    ...(inputTokens === undefined
      ? {}
      : { metadata: stepMetadata({ usage: { inputTokens, outputTokens: 5 }, model: "m" }) }),
  });
const rowTokens = (candidate: TestRow) => candidate.tokens;

describe("deriveWindowPressure", () => {
  it("without reported usage, estimates the whole window plus the request overhead", () => {
    const pressure = deriveWindowPressure({ rows: [user(100), assistant(50)], rowTokens, overheadTokens: 1_000 });
    expect(pressure).toEqual({ contextTokens: 1_150, anchorSeq: undefined, tailTokens: 150 });
  });

  it("anchors on the last reported input tokens and adds the step's own row and every later row", () => {
    const anchor = assistant(300, 5_000);
    const rows = [user(100), assistant(50, 2_000), anchor, user(40)];
    const pressure = deriveWindowPressure({ rows, rowTokens, overheadTokens: 1_000 });
    expect(pressure.anchorSeq).toBe(anchor.seq);
    expect(pressure.contextTokens).toBe(5_000 + 300 + 40);
  });

  it("counts the trailing tool results of the last step (they live in its row) after a restart", () => {
    // The step row holds the tool call and its 4,000-token result; the provider only reported the request before it.
    const rows = [user(10), assistant(4_020, 900)];
    expect(deriveWindowPressure({ rows, rowTokens, overheadTokens: 0 }).contextTokens).toBe(900 + 4_020);
  });

  it("leaves out rows that are never sent", () => {
    const rejected = {
      ...row({ role: "user", tokens: 9_999 }),
      ...rejectedInputRow({ parts: [], reason: "x", estimatedTokens: 1, hardCeiling: 1 }),
    };
    const pressure = deriveWindowPressure({ rows: [assistant(10, 500), rejected], rowTokens, overheadTokens: 0 });
    expect(pressure.contextTokens).toBe(510);
  });
});

describe("isWindowFresh and hasBudgetWarning", () => {
  const boundary = rolloverBoundaryRow({
    rolloverId: "r",
    reason: "on-send",
    previousWindowId: "w:0",
    flushOpportunity: true,
    contextTokens: 1,
    maxTokens: 2,
  });
  const leadIn = leadInRow({
    rolloverId: "r",
    windowId: "w:5",
    previousWindowId: "w:0",
    reason: "on-send",
    flushOpportunity: true,
  });
  const warning = budgetWarningRow({ text: "w", windowId: "w:5", contextTokens: 1, maxTokens: 2 });

  it("a window of boundary, lead-in, continue and warning rows is fresh", () => {
    expect(isWindowFresh([boundary, leadIn, continueRow({ rolloverId: "r" }), warning])).toBe(true);
    expect(isWindowFresh([])).toBe(true);
  });

  it("one user or assistant row makes it not fresh", () => {
    const userRow: RowInput = { role: "user", parts: [] };
    const assistantRow: RowInput = { role: "assistant", parts: [] };
    expect(isWindowFresh([boundary, leadIn, userRow])).toBe(false);
    expect(isWindowFresh([boundary, leadIn, assistantRow])).toBe(false);
  });

  it("finds a warning in the window", () => {
    expect(hasBudgetWarning([leadIn, warning])).toBe(true);
    expect(hasBudgetWarning([leadIn])).toBe(false);
  });
});

describe("deriveWindowPressure with a calibration factor", () => {
  it("scales our own estimates but never the provider's reported figure", () => {
    const anchored = deriveWindowPressure({
      rows: [user(100), assistant(200, 5_000)],
      rowTokens,
      overheadTokens: 1_000,
      calibrationFactor: 1.5,
    });
    expect(anchored.contextTokens).toBe(5_000 + 300);
    const estimated = deriveWindowPressure({
      rows: [user(100)],
      rowTokens,
      overheadTokens: 1_000,
      calibrationFactor: 1.5,
    });
    expect(estimated.contextTokens).toBe(1_500 + 150);
  });
});
