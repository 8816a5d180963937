import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INTERNAL_ROW_TYPES } from "./row.js";
import {
  hasUnknownType,
  internalTypeOf,
  isHidden,
  isHistoryVisible,
  isProviderEligible,
  isSessionVisible,
  isSubstantive,
  startedAfterFloor,
  type VisibilityFields,
} from "./visibility.js";

const rolloverMeta = {
  type: "rollover",
  rolloverId: "roll-1",
  reason: "on-send",
  previousWindowId: "w:0",
  flushOpportunity: true,
  contextTokens: 160_000,
  maxTokens: 200_000,
};

const rows = {
  userMessage: {},
  rolloverBoundary: { boundary: { kind: "rollover" }, meta: rolloverMeta },
  resetBoundary: { boundary: { kind: "reset" } },
  malformedBoundary: { boundary: { kind: "rollover" } },
  compactionSummary: { boundary: { kind: "compaction" }, meta: { type: "compaction-summary" } },
  leadIn: { synthetic: true, uiVisible: false, meta: { type: "lead-in", rolloverId: "roll-1" } },
  continueRow: { synthetic: true, uiVisible: false, meta: { type: "continue", rolloverId: "roll-1" } },
  budgetWarning: { synthetic: true, uiVisible: true, meta: { type: "budget-warning" } },
  rejectedInput: { meta: { type: "rejected-input" } },
  hiddenRejectedInput: { synthetic: true, uiVisible: false, meta: { type: "rejected-input" } },
  unknownType: { synthetic: true, meta: { type: "reflection-note", by: "a newer build" } },
  nonStringType: { meta: { type: 7 } },
  nullBoundary: { boundary: null },
} satisfies Record<string, VisibilityFields>;

type RowName = keyof typeof rows;

describe("row visibility", () => {
  // [row, sent to the provider, visible to session_history, substantive]
  it.each<[RowName, boolean, boolean, boolean]>([
    ["userMessage", true, true, true],
    ["nullBoundary", true, true, true],
    ["rolloverBoundary", false, false, false],
    ["resetBoundary", false, false, false],
    ["malformedBoundary", false, false, false],
    ["compactionSummary", true, true, false],
    ["leadIn", true, false, false],
    ["continueRow", true, false, false],
    ["budgetWarning", true, true, false],
    ["rejectedInput", false, false, false],
    ["hiddenRejectedInput", false, false, false],
    ["unknownType", false, true, false],
    ["nonStringType", false, true, false],
  ])("%s: provider %s, history %s, substantive %s", (name, provider, history, substantive) => {
    const row: VisibilityFields = rows[name];
    expect([isProviderEligible(row), isHistoryVisible(row), isSubstantive(row)]).toEqual([
      provider,
      history,
      substantive,
    ]);
  });
});

describe("internalTypeOf and hasUnknownType", () => {
  it.each(INTERNAL_ROW_TYPES)("knows the internal type %s", (type) => {
    expect([internalTypeOf({ meta: { type } }), hasUnknownType({ meta: { type } })]).toEqual([type, false]);
  });

  it.each<[string, VisibilityFields, boolean]>([
    ["no meta", {}, false],
    ["meta without type", { meta: {} }, false],
    ["an unknown string type", { meta: { type: "reflection-note" } }, true],
    ["a type in the wrong case", { meta: { type: "Lead-In" } }, true],
    ["a numeric type", { meta: { type: 7 } }, true],
    ["a null type", { meta: { type: null } }, true],
  ])("%s: no internal type, unknown = %s", (_label, row, unknown) => {
    expect([internalTypeOf(row), hasUnknownType(row)]).toEqual([undefined, unknown]);
  });
});

describe("isHidden", () => {
  it.each<[boolean | undefined, boolean | undefined, boolean]>([
    [true, false, true],
    [true, true, false],
    [true, undefined, false],
    [false, false, false],
    [undefined, false, false],
    [undefined, undefined, false],
  ])("synthetic %s, uiVisible %s → %s", (synthetic, uiVisible, hidden) => {
    expect(isHidden({ synthetic, uiVisible })).toBe(hidden);
  });
});

describe("isSubstantive: is a window already fresh?", () => {
  const hasSubstance = (windowRows: VisibilityFields[]) => windowRows.some(isSubstantive);

  it.each<[string, RowName[], boolean]>([
    [
      "a window that only has its boundary, lead-in and continue row",
      ["rolloverBoundary", "leadIn", "continueRow"],
      false,
    ],
    ["a fresh window that also received a budget warning", ["rolloverBoundary", "leadIn", "budgetWarning"], false],
    ["a window of a compaction summary alone", ["compactionSummary"], false],
    ["a window of rejected input and an unknown row", ["resetBoundary", "rejectedInput", "unknownType"], false],
    ["a window where the user has spoken", ["rolloverBoundary", "leadIn", "continueRow", "userMessage"], true],
  ])("%s → substantive %s", (_label, names, expected) => {
    expect(hasSubstance(names.map((name) => rows[name]))).toBe(expected);
  });
});

describe("visibility laws over arbitrary envelopes", () => {
  const envelope = fc.record(
    {
      synthetic: fc.option(fc.boolean(), { nil: undefined }),
      uiVisible: fc.option(fc.boolean(), { nil: undefined }),
      boundary: fc.constantFrom<unknown>(
        undefined,
        null,
        { kind: "rollover" },
        { kind: "reset" },
        { kind: "compaction" },
        { kind: "x" },
        [],
      ),
      meta: fc.option(
        fc
          .record({ type: fc.constantFrom<unknown>(...INTERNAL_ROW_TYPES, "future", 3, undefined) })
          .map((meta) => (meta.type === "rollover" ? { ...rolloverMeta } : meta)),
        { nil: undefined },
      ),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<VisibilityFields>;

  it("substantive rows are provider-eligible and never internal", () => {
    fc.assert(
      fc.property(
        envelope,
        (row) => !isSubstantive(row) || (isProviderEligible(row) && internalTypeOf(row) === undefined),
      ),
    );
  });

  it("hidden and rejected-input rows never reach session_history; rejected input never reaches the provider", () => {
    fc.assert(
      fc.property(envelope, (row) => {
        if (isHidden(row) && isHistoryVisible(row)) return false;
        if (row.meta?.type === "rejected-input") return !isHistoryVisible(row) && !isProviderEligible(row);
        return true;
      }),
    );
  });

  it("rows with an unknown meta.type never reach the provider", () => {
    fc.assert(fc.property(envelope, (row) => !hasUnknownType(row) || !isProviderEligible(row)));
  });
});

describe("a stray rollover marker (meta.type 'rollover' without a boundary, only by hand-editing)", () => {
  const stray: VisibilityFields = { meta: { type: "rollover", rolloverId: "r1" } };

  it("goes neither to the provider nor to session_history (fail closed)", () => {
    expect(isProviderEligible(stray)).toBe(false);
    expect(isHistoryVisible(stray)).toBe(false);
    expect(isSubstantive(stray)).toBe(false);
  });
});

describe("child sessions and the privacy floor (ADR 0073)", () => {
  const main = { floorSeq: 5 };
  const child = (itemId: string, floorSeq = 0) => ({ floorSeq, parent: { sessionId: "main", itemId } });

  it("a child is visible when its task call lies after its parent's floor", () => {
    expect(startedAfterFloor({ itemId: "6", floorSeq: 5 })).toBe(true);
    expect(startedAfterFloor({ itemId: "5", floorSeq: 5 })).toBe(false);
    expect(startedAfterFloor({ itemId: "3", floorSeq: 5 })).toBe(false);
    for (const itemId of ["", "abc", "6.5", "-7", "06", "99999999999999999999"])
      expect(startedAfterFloor({ itemId, floorSeq: 0 }), itemId).toBe(false);
  });

  it("applies up the whole tree, and fails closed on a missing ancestor or a short chain", () => {
    expect(isSessionVisible({ floorSeq: 9 }, [])).toBe(true);
    expect(isSessionVisible(child("6"), [main])).toBe(true);
    expect(isSessionVisible(child("3"), [main])).toBe(false);
    const grandchild = { floorSeq: 0, parent: { sessionId: "main/child", itemId: "2" } };
    expect(isSessionVisible(grandchild, [child("6"), main])).toBe(true);
    expect(isSessionVisible(grandchild, [child("3"), main])).toBe(false);
    expect(isSessionVisible(grandchild, [child("6", 2), main])).toBe(false);
    expect(isSessionVisible(grandchild, [undefined])).toBe(false);
    expect(isSessionVisible(grandchild, [child("6")])).toBe(false);
  });
});
