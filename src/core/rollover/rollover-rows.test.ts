import { describe, expect, it } from "vitest";
import { classifyBoundary, rolloverMetaOf } from "../boundary.js";
import { validateRowInputs, type RowInput } from "../row.js";
import { isHidden, isProviderEligible, isSubstantive } from "../visibility.js";
import { providerSlice } from "../windows.js";
import {
  continueRow,
  leadInRow,
  rolloverBoundaryRow,
  rolloverTransactionRows,
  stampRolloverId,
  userInputRow,
} from "./rollover-rows.js";

const boundaryOptions = {
  rolloverId: "roll-7",
  reason: "mid-stream",
  previousWindowId: "w:0",
  flushOpportunity: true,
  contextTokens: 7_100.4,
  maxTokens: 10_000,
} as const;

function rolloverIdOf(row: RowInput): unknown {
  return row.meta?.["rolloverId"] ?? (row.metadata as Record<string, unknown> | undefined)?.["rolloverId"];
}

describe("rollover transaction rows", () => {
  it("are boundary, hidden lead-in and trigger, all with the same rolloverId, and pass the row schema", () => {
    const rows = rolloverTransactionRows({ ...boundaryOptions, windowId: "w:12", trigger: continueRow({}) });
    expect(() => validateRowInputs(rows)).not.toThrow();
    expect(rows.map((row) => row.meta?.type)).toEqual(["rollover", "lead-in", "continue"]);
    expect(rows.map(rolloverIdOf)).toEqual(["roll-7", "roll-7", "roll-7"]);
    const [boundary, leadIn, trigger] = rows;
    expect(classifyBoundary(boundary!)).toBe("rollover");
    expect(rolloverMetaOf(boundary!)).toEqual({ type: "rollover", ...boundaryOptions, contextTokens: 7_100 });
    expect(isHidden(leadIn!)).toBe(true);
    expect(isHidden(trigger!)).toBe(true);
  });

  it("send the lead-in and the trigger but never the boundary", () => {
    const rows = rolloverTransactionRows({
      ...boundaryOptions,
      windowId: "w:12",
      trigger: userInputRow({ parts: [{ type: "text", text: "next question" }] }),
    });
    expect(providerSlice(rows).map((row) => row.role)).toEqual(["user", "user"]);
    expect(isProviderEligible(rows[0]!)).toBe(false);
  });

  it("leave the new window fresh until the agent's own rows arrive: only the user's trigger is substantive", () => {
    const withContinue = rolloverTransactionRows({ ...boundaryOptions, windowId: "w:12", trigger: continueRow({}) });
    expect(withContinue.some(isSubstantive)).toBe(false);
    const withUser = rolloverTransactionRows({
      ...boundaryOptions,
      windowId: "w:12",
      trigger: userInputRow({ parts: [{ type: "text", text: "hi" }] }),
    });
    expect(withUser.filter(isSubstantive)).toHaveLength(1);
  });

  it("keep a user's trigger a plain user row: the rolloverId goes to metadata, not meta", () => {
    const trigger = stampRolloverId(
      userInputRow({ parts: [{ type: "text", text: "hi" }], metadata: { source: "cli" } }),
      "roll-9",
    );
    expect(trigger.meta).toBeUndefined();
    expect(trigger.metadata).toEqual({ source: "cli", rolloverId: "roll-9" });
    expect(isProviderEligible(trigger)).toBe(true);
  });

  it("write the lead-in text for the window they open", () => {
    const leadIn = leadInRow({
      rolloverId: "r",
      windowId: "w:33",
      previousWindowId: "w:20",
      reason: "on-send",
      flushOpportunity: false,
    });
    const text = (leadIn.parts[0] as { text: string }).text;
    expect(text).toContain("w:33");
    expect(leadIn.meta).toEqual({ type: "lead-in", rolloverId: "r", windowId: "w:33" });
  });

  it("refuse nothing the store would refuse: a boundary with a bad window id fails the schema", () => {
    const boundary = rolloverBoundaryRow({ ...boundaryOptions, previousWindowId: "window zero" });
    expect(() => validateRowInputs([boundary])).toThrow(/previousWindowId/);
  });
});
