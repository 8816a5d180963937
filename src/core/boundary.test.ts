import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyBoundary, isExclusiveBoundary, rolloverMetaOf, type BoundaryFields } from "./boundary.js";
import { BOUNDARY_KINDS, RolloverMetaSchema, type BoundaryKind } from "./row.js";

const validRolloverMeta = {
  type: "rollover",
  rolloverId: "roll-1",
  reason: "mid-stream",
  previousWindowId: "w:12",
  flushOpportunity: false,
  contextTokens: 190_000,
  maxTokens: 200_000,
};

/** A row with a boundary and meta of any shape, as a damaged stored row may carry. */
const rowWith = (boundary: unknown, meta?: unknown): BoundaryFields => ({
  boundary,
  meta: meta as BoundaryFields["meta"],
});

describe("classifyBoundary", () => {
  it.each<[string, BoundaryFields]>([
    ["no boundary field", {}],
    ["boundary: undefined", rowWith(undefined)],
    ["boundary: null", rowWith(null)],
    ["meta only (lead-in)", { meta: { type: "lead-in" } }],
  ])("treats %s as an ordinary row", (_label, row) => {
    expect(classifyBoundary(row)).toBeUndefined();
  });

  it.each<[string, BoundaryFields, BoundaryKind]>([
    ["a reset", rowWith({ kind: "reset" }), "reset"],
    ["a compaction", rowWith({ kind: "compaction" }, { type: "compaction-summary" }), "compaction"],
    ["a compaction without meta", rowWith({ kind: "compaction" }), "compaction"],
    [
      "a compaction with a forward-compatible extra field",
      rowWith({ kind: "compaction", strategy: "llm" }),
      "compaction",
    ],
    ["a rollover with valid meta", rowWith({ kind: "rollover" }, validRolloverMeta), "rollover"],
    [
      "a rollover with valid meta plus extra meta fields",
      rowWith({ kind: "rollover" }, { ...validRolloverMeta, note: "x" }),
      "rollover",
    ],
  ])("classifies %s", (_label, row, kind) => {
    expect(classifyBoundary(row)).toBe(kind);
  });

  // Fail closed: anything that claims to be a boundary but cannot be read is a manual reset,
  // the strictest kind (a privacy floor), so damage never widens what the agent may see.
  it.each<[string, BoundaryFields]>([
    ["a rollover without meta", rowWith({ kind: "rollover" })],
    ["a rollover with meta of another type", rowWith({ kind: "rollover" }, { ...validRolloverMeta, type: "lead-in" })],
    [
      "a rollover whose meta lacks rolloverId",
      rowWith({ kind: "rollover" }, { ...validRolloverMeta, rolloverId: undefined }),
    ],
    ["a rollover with an unknown reason", rowWith({ kind: "rollover" }, { ...validRolloverMeta, reason: "bored" })],
    [
      "a rollover with a malformed previousWindowId",
      rowWith({ kind: "rollover" }, { ...validRolloverMeta, previousWindowId: "w:012" }),
    ],
    [
      "a rollover with negative contextTokens",
      rowWith({ kind: "rollover" }, { ...validRolloverMeta, contextTokens: -5 }),
    ],
    [
      "a rollover with a string flushOpportunity",
      rowWith({ kind: "rollover" }, { ...validRolloverMeta, flushOpportunity: "false" }),
    ],
    ["a rollover whose meta is a string", rowWith({ kind: "rollover" }, "rollover")],
    ["an unknown kind", rowWith({ kind: "clear" })],
    ["a kind in the wrong case", rowWith({ kind: "Compaction" })],
    ["a numeric kind", rowWith({ kind: 2 })],
    ["an empty object", rowWith({})],
    ["an empty array", rowWith([])],
    ["an array holding a compaction", rowWith([{ kind: "compaction" }])],
    ["an array carrying a compaction kind", rowWith(Object.assign([], { kind: "compaction" }))],
    ["a bare string kind", rowWith("compaction")],
    ["an empty string", rowWith("")],
    ["a number", rowWith(1)],
    ["zero", rowWith(0)],
    ["true", rowWith(true)],
    ["false", rowWith(false)],
  ])("treats %s as a reset (fail closed)", (_label, row) => {
    expect(classifyBoundary(row)).toBe("reset");
  });

  it("never throws, and answers undefined only for a null or absent boundary", () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (boundary, meta) => {
        const kind = classifyBoundary(rowWith(boundary, meta));
        if (boundary === undefined || boundary === null) return kind === undefined;
        return kind !== undefined && (BOUNDARY_KINDS as readonly string[]).includes(kind);
      }),
    );
  });

  it("answers rollover only for valid rollover metadata and compaction only for kind compaction", () => {
    const kinds = fc.constantFrom<unknown>("rollover", "reset", "compaction", "other", undefined, 1);
    const metas = fc.oneof(
      fc.constant<unknown>(validRolloverMeta),
      fc.record({
        ...Object.fromEntries(
          Object.entries(validRolloverMeta).map(([key, value]) => [key, fc.constantFrom(value, undefined, "x", -1)]),
        ),
      }),
      fc.anything(),
    );
    fc.assert(
      fc.property(kinds, metas, (kind, meta) => {
        const result = classifyBoundary(rowWith({ kind }, meta));
        if (result === "rollover") return kind === "rollover" && RolloverMetaSchema.safeParse(meta).success;
        if (result === "compaction") return kind === "compaction";
        return (
          result === "reset" &&
          kind !== "compaction" &&
          !(kind === "rollover" && RolloverMetaSchema.safeParse(meta).success)
        );
      }),
    );
  });
});

describe("rolloverMetaOf", () => {
  it("returns the metadata of a valid rollover boundary", () => {
    expect(rolloverMetaOf(rowWith({ kind: "rollover" }, validRolloverMeta))).toEqual(validRolloverMeta);
  });

  it.each<[string, BoundaryFields]>([
    ["an ordinary row carrying rollover meta", { meta: validRolloverMeta }],
    ["a reset carrying rollover meta", rowWith({ kind: "reset" }, validRolloverMeta)],
    ["a compaction carrying rollover meta", rowWith({ kind: "compaction" }, validRolloverMeta)],
    ["a malformed rollover", rowWith({ kind: "rollover" }, { ...validRolloverMeta, maxTokens: "lots" })],
  ])("returns undefined for %s", (_label, row) => {
    expect(rolloverMetaOf(row)).toBeUndefined();
  });
});

describe("isExclusiveBoundary", () => {
  it.each<[BoundaryKind | undefined, boolean]>([
    ["rollover", true],
    ["reset", true],
    ["compaction", false],
    [undefined, false],
  ])("%s → %s", (kind, exclusive) => {
    expect(isExclusiveBoundary(kind)).toBe(exclusive);
  });
});
