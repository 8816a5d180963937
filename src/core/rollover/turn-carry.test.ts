import { describe, expect, it } from "vitest";
import { carriedContinueText, carryBounds, deriveTurnCarry, readCarry, type CarryRow } from "./turn-carry.js";

const countTokens = (text: string) => Math.ceil(text.length / 4);
const user = (seq: number, text: string): CarryRow => ({ seq, role: "user", parts: [{ type: "text", text }] });
const step = (seq: number, ...calls: Array<[string, unknown, string?]>): CarryRow => ({
  seq,
  role: "assistant",
  parts: calls.map(([name, input, state = "output-available"]) => ({
    type: `tool-${name}`,
    toolCallId: `c${seq}`,
    state,
    input,
    output: "RESULT-TEXT",
  })),
});
const warning = (seq: number): CarryRow => ({
  seq,
  role: "user",
  parts: [{ type: "text", text: "warning" }],
  synthetic: true,
  uiVisible: true,
  meta: { type: "budget-warning" },
});

describe("carryBounds", () => {
  it("is min(2,000 tokens, 10% of the limit) for the input and min(1,000, 5%) for the ledger", () => {
    expect(carryBounds(200_000)).toEqual({ inputTokens: 2_000, ledgerTokens: 1_000 });
    expect(carryBounds(8_000)).toEqual({ inputTokens: 800, ledgerTokens: 400 });
  });
});

describe("deriveTurnCarry", () => {
  it("takes the last real user input and every call after it with its outcome, across a warning, never results", () => {
    const rows = [
      user(1, "old question"),
      step(2, ["read", { path: "x" }]),
      user(3, "the task"),
      step(4, ["read", { path: "a" }]),
      warning(5),
      step(6, ["read", { path: "b" }, "output-error"], ["read", { path: "c" }, "input-available"]),
    ];
    const carry = deriveTurnCarry({ rows, windowId: "w:0", bounds: carryBounds(100_000), countTokens });
    expect(carry).toEqual({
      input: { itemId: "3", windowId: "w:0", text: "the task", totalChars: 8, truncated: false },
      ledger: [
        { itemId: "4", toolName: "read", input: '{"path":"a"}', outcome: "finished" },
        { itemId: "6", toolName: "read", input: '{"path":"b"}', outcome: "failed" },
        { itemId: "6", toolName: "read", input: '{"path":"c"}', outcome: "not-run", detail: "it has no result" },
      ],
      omittedCalls: 0,
    });
    expect(carriedContinueText({ instruction: "Continue.", carry: carry! })).not.toContain("RESULT-TEXT");
  });

  it("carries a long input as its beginning, with the item id and offset to read the rest", () => {
    const long = "word ".repeat(4_000);
    const carry = deriveTurnCarry({
      rows: [user(7, long)],
      windowId: "w:3",
      bounds: { inputTokens: 100, ledgerTokens: 100 },
      countTokens,
    });
    expect(carry?.input).toMatchObject({ itemId: "7", truncated: true, totalChars: long.length });
    expect(countTokens(carry!.input!.text)).toBeLessThanOrEqual(100);
    expect(carry!.input!.text.length).toBe(400);
    const text = carriedContinueText({ instruction: "Continue.", carry: carry! });
    expect(text).toContain('truncated="true"');
    expect(text).toContain('read the rest with session_history read_item (item_id "7", offset_chars 400)');
  });

  it("takes over the carry of a continued turn and keeps the newest calls under the ledger bound", () => {
    const first = deriveTurnCarry({
      rows: [user(1, "task"), step(2, ["read", { path: "a" }])],
      windowId: "w:0",
      bounds: carryBounds(100_000),
      countTokens,
    })!;
    const continued: CarryRow = {
      seq: 5,
      role: "user",
      parts: [{ type: "text", text: "…" }],
      synthetic: true,
      uiVisible: false,
      meta: { type: "continue", carry: first },
    };
    const rows = [
      continued,
      ...Array.from({ length: 30 }, (_, index) => step(6 + index, ["read", { path: `file-${index}` }])),
    ];
    const carry = deriveTurnCarry({
      rows,
      windowId: "w:4",
      bounds: { inputTokens: 500, ledgerTokens: 120 },
      countTokens,
    })!;
    expect(carry.input).toEqual(first.input);
    expect(carry.ledger.at(-1)).toEqual({
      itemId: "35",
      toolName: "read",
      input: '{"path":"file-29"}',
      outcome: "finished",
    });
    expect(carry.omittedCalls + carry.ledger.length).toBe(31);
    expect(carry.omittedCalls).toBeGreaterThan(0);
    expect(carriedContinueText({ instruction: "Continue.", carry })).toContain(
      `(${carry.omittedCalls} earlier calls of the turn left out)`,
    );
  });

  it("cuts long arguments and defuses the carried block's own tags", () => {
    const rows = [user(1, "x </carried_user_input> y"), step(2, ["write", { text: "z".repeat(1_000) }])];
    const carry = deriveTurnCarry({ rows, windowId: "w:0", bounds: carryBounds(100_000), countTokens })!;
    expect(carry.ledger[0]!.input.length).toBe(201);
    const text = carriedContinueText({ instruction: "Continue.", carry });
    expect(text.match(/<\/carried_user_input>/g)).toHaveLength(1);
  });

  it("has nothing to carry for a window without input or calls", () => {
    expect(
      deriveTurnCarry({ rows: [warning(1)], windowId: "w:0", bounds: carryBounds(100_000), countTokens }),
    ).toBeUndefined();
  });

  it("reads stored carries leniently, entries of older builds as finished or failed", () => {
    const stored = {
      ledger: [
        { itemId: "1" },
        { itemId: "2", toolName: "t", input: "{}" },
        { itemId: "3", toolName: "t", input: "{}", failed: true },
      ],
      omittedCalls: -1,
    };
    expect(readCarry(stored)).toEqual({
      ledger: [
        { itemId: "2", toolName: "t", input: "{}", outcome: "finished" },
        { itemId: "3", toolName: "t", input: "{}", outcome: "failed" },
      ],
      omittedCalls: 0,
    });
    expect(readCarry("nonsense")).toBeUndefined();
  });
});
