import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyBoundary } from "./boundary.js";
import {
  FIRST_WINDOW_ID,
  bucketWindows,
  itemIdFor,
  parseItemId,
  parseWindowId,
  privacyFloorSeq,
  providerSlice,
  windowIdFor,
  windowSeqFor,
  type SequencedRow,
} from "./windows.js";

interface TestRow extends SequencedRow {
  label: string;
}

const rolloverMeta = (rolloverId: string) => ({
  type: "rollover",
  rolloverId,
  reason: "on-send",
  previousWindowId: "w:0",
  flushOpportunity: true,
  contextTokens: 150_000,
  maxTokens: 200_000,
});

const builders = {
  user: (seq: number): TestRow => ({ seq, label: "user" }),
  assistant: (seq: number): TestRow => ({ seq, label: "assistant" }),
  rollover: (seq: number): TestRow => ({
    seq,
    label: "rollover",
    boundary: { kind: "rollover" },
    meta: rolloverMeta(`roll-${seq}`),
  }),
  reset: (seq: number): TestRow => ({ seq, label: "reset", boundary: { kind: "reset" } }),
  compaction: (seq: number): TestRow => ({
    seq,
    label: "compaction",
    boundary: { kind: "compaction" },
    meta: { type: "compaction-summary" },
  }),
  malformed: (seq: number): TestRow => ({
    seq,
    label: "malformed",
    boundary: { kind: "rollover" },
    meta: { type: "rollover" },
  }),
  leadIn: (seq: number): TestRow => ({
    seq,
    label: "leadIn",
    synthetic: true,
    uiVisible: false,
    meta: { type: "lead-in", rolloverId: "r" },
  }),
  continueRow: (seq: number): TestRow => ({
    seq,
    label: "continueRow",
    synthetic: true,
    uiVisible: false,
    meta: { type: "continue", rolloverId: "r" },
  }),
  budgetWarning: (seq: number): TestRow => ({
    seq,
    label: "budgetWarning",
    synthetic: true,
    uiVisible: true,
    meta: { type: "budget-warning" },
  }),
  rejected: (seq: number): TestRow => ({ seq, label: "rejected", meta: { type: "rejected-input" } }),
  unknown: (seq: number): TestRow => ({ seq, label: "unknown", synthetic: true, meta: { type: "future-kind" } }),
};
type Label = keyof typeof builders;

/** Rows with seq 1..n from labels. */
const history = (...labels: Label[]): TestRow[] => labels.map((label, index) => builders[label](index + 1));

/** Windows reduced to what a test compares: id, kind and the seqs of their rows. */
const summarize = (rows: readonly TestRow[]) =>
  bucketWindows(rows).map((window) => ({
    windowId: window.windowId,
    boundarySeq: window.boundarySeq,
    kind: window.kind,
    seqs: window.rows.map((row) => row.seq),
  }));

describe("bucketWindows", () => {
  const mixed = history(
    "user",
    "assistant",
    "user",
    "rollover",
    "leadIn",
    "user",
    "compaction",
    "assistant",
    "reset",
    "user",
    "malformed",
    "user",
  );
  const mixedWindows = [
    { windowId: "w:0", boundarySeq: 0, kind: "start", seqs: [1, 2, 3] },
    { windowId: "w:4", boundarySeq: 4, kind: "rollover", seqs: [4, 5, 6] },
    { windowId: "w:7", boundarySeq: 7, kind: "compaction", seqs: [7, 8] },
    { windowId: "w:9", boundarySeq: 9, kind: "reset", seqs: [9, 10] },
    { windowId: "w:11", boundarySeq: 11, kind: "reset", seqs: [11, 12] },
  ];

  it("splits a history mixing every boundary kind, a malformed boundary opening a reset window", () => {
    expect(summarize(mixed)).toEqual(mixedWindows);
  });

  it("sorts unsorted input by seq and leaves the input array alone", () => {
    const shuffled = [
      mixed[7],
      mixed[0],
      mixed[11],
      mixed[3],
      mixed[9],
      mixed[1],
      mixed[6],
      mixed[10],
      mixed[2],
      mixed[5],
      mixed[8],
      mixed[4],
    ] as TestRow[];
    const before = shuffled.map((row) => row.seq);
    expect(summarize(shuffled)).toEqual(mixedWindows);
    expect(shuffled.map((row) => row.seq)).toEqual(before);
  });

  it("has no w:0 when the session starts with a boundary", () => {
    expect(summarize(history("reset", "user", "assistant"))).toEqual([
      { windowId: "w:1", boundarySeq: 1, kind: "reset", seqs: [1, 2, 3] },
    ]);
  });

  it("gives consecutive boundaries each a window holding only its boundary row", () => {
    expect(summarize(history("user", "rollover", "reset", "compaction", "malformed"))).toEqual([
      { windowId: "w:0", boundarySeq: 0, kind: "start", seqs: [1] },
      { windowId: "w:2", boundarySeq: 2, kind: "rollover", seqs: [2] },
      { windowId: "w:3", boundarySeq: 3, kind: "reset", seqs: [3] },
      { windowId: "w:4", boundarySeq: 4, kind: "compaction", seqs: [4] },
      { windowId: "w:5", boundarySeq: 5, kind: "reset", seqs: [5] },
    ]);
  });

  it.each<[string, unknown]>([
    ["an unknown kind", { kind: "wipe" }],
    ["an array", []],
    ["a string", "rollover"],
  ])("opens a reset window at a boundary that is %s", (_label, boundary) => {
    const rows: TestRow[] = [builders.user(1), { seq: 2, label: "odd", boundary }, builders.user(3)];
    expect(summarize(rows)).toEqual([
      { windowId: "w:0", boundarySeq: 0, kind: "start", seqs: [1] },
      { windowId: "w:2", boundarySeq: 2, kind: "reset", seqs: [2, 3] },
    ]);
  });

  it("keeps sparse seqs and returns the caller's row objects", () => {
    const rows = [builders.user(10), builders.rollover(40), builders.user(41)];
    const windows = bucketWindows(rows);
    expect(windows.map((window) => window.windowId)).toEqual(["w:0", "w:40"]);
    expect(windows[1]?.rows[1]).toBe(rows[2]);
  });

  it("returns no windows for no rows", () => {
    expect(bucketWindows([])).toEqual([]);
  });

  const labels = fc.constantFrom<Label>(...(Object.keys(builders) as Label[]));
  const randomHistory = fc
    .uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 60 })
    .chain((seqs) => fc.tuple(...seqs.map((seq) => labels.map((label) => builders[label](seq)))))
    .map((rows) => rows as TestRow[]);

  it("puts every row in exactly one window, in seq order, consistent with windowSeqFor, parseWindowId and privacyFloorSeq", () => {
    fc.assert(
      fc.property(randomHistory, (rows) => {
        const windows = bucketWindows(rows);
        const sortedSeqs = rows.map((row) => row.seq).sort((left, right) => left - right);
        expect(windows.flatMap((window) => window.rows.map((row) => row.seq))).toEqual(sortedSeqs);
        const boundarySeqs = rows
          .filter((row) => classifyBoundary(row) !== undefined)
          .map((row) => row.seq)
          .sort((left, right) => left - right);
        expect(windows.filter((window) => window.kind !== "start").map((window) => window.boundarySeq)).toEqual(
          boundarySeqs,
        );
        for (const window of windows) {
          expect(parseWindowId(window.windowId)).toBe(window.boundarySeq);
          if (window.kind !== "start") expect(window.rows[0]?.seq).toBe(window.boundarySeq);
          for (const row of window.rows) expect(windowSeqFor(row.seq, boundarySeqs)).toBe(window.boundarySeq);
        }
        const resetSeqs = windows.filter((window) => window.kind === "reset").map((window) => window.boundarySeq);
        expect(privacyFloorSeq(rows)).toBe(Math.max(0, ...resetSeqs));
      }),
    );
  });
});

describe("providerSlice", () => {
  const sliceLabels = (rows: TestRow[]) => providerSlice(rows).map((row) => `${row.seq}:${row.label}`);

  it.each<[string, Label[], string[]]>([
    [
      "after a rollover (exclusive)",
      ["rollover", "leadIn", "continueRow", "user", "assistant"],
      ["2:leadIn", "3:continueRow", "4:user", "5:assistant"],
    ],
    ["after a reset (exclusive)", ["reset", "user"], ["2:user"]],
    ["after a malformed boundary (exclusive, as a reset)", ["malformed", "user"], ["2:user"]],
    ["after a compaction (inclusive)", ["compaction", "user"], ["1:compaction", "2:user"]],
    [
      "with rejected input and unknown rows",
      ["rollover", "leadIn", "user", "rejected", "unknown", "budgetWarning", "assistant"],
      ["2:leadIn", "3:user", "6:budgetWarning", "7:assistant"],
    ],
    ["of the first window", ["user", "assistant", "rejected"], ["1:user", "2:assistant"]],
  ])("%s", (_label, labels, expected) => {
    expect(sliceLabels(history(...labels))).toEqual(expected);
  });

  it("never holds a row from before the active window's boundary (invariant 2)", () => {
    const rows = history(
      "user",
      "assistant",
      "rollover",
      "leadIn",
      "user",
      "compaction",
      "user",
      "reset",
      "user",
      "assistant",
    );
    const active = bucketWindows(rows).at(-1);
    expect(active?.windowId).toBe("w:8");
    expect(providerSlice(active?.rows ?? []).map((row) => row.seq)).toEqual([9, 10]);
  });
});

describe("windowSeqFor", () => {
  it.each<[number, number[], number]>([
    [5, [], 0],
    [3, [4, 9], 0],
    [4, [4, 9], 4],
    [8, [4, 9], 4],
    [9, [4, 9], 9],
    [1_000, [4, 9], 9],
  ])("seq %d with boundaries %j → %d", (seq, boundarySeqs, expected) => {
    expect(windowSeqFor(seq, boundarySeqs)).toBe(expected);
  });
});

describe("privacyFloorSeq", () => {
  it.each<[string, TestRow[], number]>([
    ["no boundaries", history("user", "assistant"), 0],
    ["no rows", [], 0],
    ["one reset", history("user", "reset", "user"), 2],
    ["the newest of several resets", history("reset", "user", "reset", "user", "rollover", "compaction"), 3],
    ["resets given out of order", [builders.reset(30), builders.user(31), builders.reset(7), builders.reset(12)], 30],
    ["a malformed boundary after a reset", history("reset", "user", "malformed", "user"), 3],
    ["rollovers and compactions only", history("user", "rollover", "user", "compaction", "user"), 0],
    ["a rollover after a reset", history("user", "reset", "user", "rollover", "user"), 2],
  ])("%s", (_label, rows, floor) => {
    expect(privacyFloorSeq(rows)).toBe(floor);
  });
});

describe("window and item ids", () => {
  it("formats ids", () => {
    expect([FIRST_WINDOW_ID, windowIdFor(0), windowIdFor(42), itemIdFor(7)]).toEqual(["w:0", "w:0", "w:42", "7"]);
  });

  it.each<[string, number]>([
    ["w:0", 0],
    ["w:1", 1],
    ["w:1234567", 1_234_567],
    ["w:9007199254740991", Number.MAX_SAFE_INTEGER],
  ])("parses window id %s", (windowId, seq) => {
    expect(parseWindowId(windowId)).toBe(seq);
  });

  it.each<unknown>([
    "w:-1",
    "w:01",
    "w:00",
    "w:1.5",
    "w:",
    "w",
    "",
    "W:1",
    "w:+1",
    "w:1e3",
    " w:1",
    "w:1 ",
    "w:1\n",
    "w: 1",
    "w:9007199254740992",
    "w:99999999999999999",
    "7",
    0,
    1,
    null,
    undefined,
    { windowId: "w:1" },
  ])("refuses window id %j", (windowId) => {
    expect(parseWindowId(windowId)).toBeUndefined();
  });

  it.each<[unknown, number]>([
    ["1", 1],
    ["42", 42],
    [42, 42],
    ["9007199254740991", Number.MAX_SAFE_INTEGER],
  ])("parses item id %j", (itemId, seq) => {
    expect(parseItemId(itemId)).toBe(seq);
  });

  it.each<unknown>([
    "0",
    0,
    "01",
    " 1",
    "1 ",
    "-1",
    -1,
    "1.5",
    1.5,
    "+1",
    "1e3",
    "0x10",
    "",
    "w:1",
    "9007199254740992",
    2 ** 53,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    null,
    undefined,
    ["1"],
  ])("refuses item id %j", (itemId) => {
    expect(parseItemId(itemId)).toBeUndefined();
  });

  it("round-trips every safe seq through window and item ids", () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (seq) => {
        expect(parseWindowId(windowIdFor(seq))).toBe(seq);
        if (seq > 0) expect(parseItemId(itemIdFor(seq))).toBe(seq);
      }),
    );
  });
});
