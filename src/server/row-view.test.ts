import { describe, expect, it } from "vitest";
import { continueRow } from "../core/rollover/rollover-rows.js";
import { cutRowToBytes } from "../core/rollover/input-cut.js";
import { rejectedInputRow } from "../core/rollover/notice-rows.js";
import { stepMetadata } from "../core/rollover/step-usage.js";
import type { StoredRow } from "../store/port.js";
import { isInternalRow, rowView } from "./row-view.js";

const stored = (seq: number, row: Omit<StoredRow, "sessionId" | "seq" | "id" | "createdAt">): StoredRow => ({
  sessionId: "s",
  seq,
  id: `r${seq}`,
  createdAt: "2026-01-01T00:00:00.000Z",
  ...row,
});

type Stored = Omit<StoredRow, "sessionId" | "seq" | "id" | "createdAt">;

describe("rowView", () => {
  it("says why a rejected input was not sent, and how much of it a cut row keeps (ADR 0069)", () => {
    const whole = rejectedInputRow({
      parts: [{ type: "text", text: "x".repeat(5_000) }],
      reason: "too large to store",
      estimatedTokens: 1_300,
      hardCeiling: 1_000,
    });
    expect(rowView({ row: stored(3, whole as Stored), window: undefined })).toMatchObject({
      kind: "rejected-input",
      rejected: { reason: "too large to store", estimatedTokens: 1_300, hardCeiling: 1_000 },
    });
    expect(rowView({ row: stored(3, whole as Stored), window: undefined }).rejected?.cut).toBeUndefined();
    const cut = rowView({ row: stored(4, cutRowToBytes(whole, 2_000) as Stored), window: undefined });
    expect(cut.rejected?.cut).toMatchObject({ totalChars: 5_000, droppedFiles: 0 });
    expect(cut.rejected?.cut?.keptChars).toBeGreaterThan(0);
    expect(cut.rejected?.cut?.keptChars).toBeLessThan(5_000);
  });

  it("ignores a tampered cut record and gives no rejected view to other rows", () => {
    const tampered = {
      ...rejectedInputRow({ parts: [{ type: "text", text: "hi" }], reason: "r", estimatedTokens: 1, hardCeiling: 1 }),
    };
    tampered.meta = {
      type: "rejected-input",
      reason: "r",
      hardCeiling: 1,
      cut: { totalChars: "lots", keptChars: -1 },
      estimatedTokens: Number.NaN,
    };
    expect(rowView({ row: stored(5, tampered as Stored), window: undefined }).rejected).toEqual({
      reason: "r",
      hardCeiling: 1,
    });
    expect(
      rowView({ row: stored(6, { role: "user", parts: [{ type: "text", text: "hi" }] }), window: undefined }).rejected,
    ).toBeUndefined();
  });

  it("shows a call the step refused with its raw arguments as not run, and a call that threw as failed", () => {
    const row = stored(4, {
      role: "assistant",
      parts: [
        {
          type: "tool-fetch_page",
          toolCallId: "c1",
          state: "output-error",
          input: undefined,
          rawInput: { url: "https://example.com/p2" },
          errorText: "Model tried to call unavailable tool 'fetch_page'.",
        },
        { type: "tool-boom", toolCallId: "c2", state: "output-error", input: { why: "x" }, errorText: "kaput" },
      ],
      metadata: stepMetadata({ usage: { inputTokens: 10, outputTokens: 2 }, model: "m:x", notRunToolCallIds: ["c1"] }),
    });
    expect(rowView({ row, window: undefined }).parts).toEqual([
      {
        type: "tool",
        toolName: "fetch_page",
        state: "output-error",
        outcome: "not-run",
        input: '{"url":"https://example.com/p2"}',
        output: "error: Model tried to call unavailable tool 'fetch_page'.",
      },
      {
        type: "tool",
        toolName: "boom",
        state: "output-error",
        outcome: "failed",
        input: '{"why":"x"}',
        output: "error: kaput",
      },
    ]);
  });

  it("gives a continue row's carry as records: the input's item and each call with its outcome", () => {
    const carry = {
      input: { itemId: "1", windowId: "w:0", text: "do it", totalChars: 5, truncated: false },
      ledger: [
        { itemId: "2", toolName: "read", input: '{"path":"a"}', outcome: "finished" as const },
        {
          itemId: "4",
          toolName: "fetch_page",
          input: '{"url":"u"}',
          outcome: "not-run" as const,
          detail: "held back in the notes-flush step (only memory ran there)",
        },
      ],
      omittedCalls: 1,
    };
    const view = rowView({
      row: stored(
        7,
        continueRow({ carry, rolloverId: "r1" }) as Omit<StoredRow, "sessionId" | "seq" | "id" | "createdAt">,
      ),
      window: undefined,
    });
    expect(view).toMatchObject({ kind: "internal", hidden: true });
    expect(view.carry).toEqual({
      input: { itemId: "1", windowId: "w:0", truncated: false },
      calls: [
        { itemId: "2", toolName: "read", input: '{"path":"a"}', outcome: "finished" },
        {
          itemId: "4",
          toolName: "fetch_page",
          input: '{"url":"u"}',
          outcome: "not-run",
          detail: "held back in the notes-flush step (only memory ran there)",
        },
      ],
      omittedCalls: 1,
    });
    expect(view.text).toContain('- fetch_page {"url":"u"} → not run');
    expect(rowView({ row: stored(8, continueRow({})), window: undefined }).carry).toBeUndefined();
  });

  it("shows text without terminal escape codes (an imported CLI session's dim and colour codes)", () => {
    const row = stored(9, {
      role: "user",
      parts: [
        { type: "text", text: "\u001b[2mCompacted (ctrl+o to see full summary)\u001b[22m" },
        {
          type: "tool-bash",
          toolCallId: "c1",
          state: "output-available",
          input: { command: "ls" },
          output: "\u001b[31mred\u001b[0m file",
        },
      ],
    });
    const view = rowView({ row, window: undefined });
    expect(view.text).toBe('Compacted (ctrl+o to see full summary)\nbash({"command":"ls"}) → red file');
    expect(view.parts).toMatchObject([
      { type: "text", text: "Compacted (ctrl+o to see full summary)" },
      { type: "tool", output: "red file" },
    ]);
    expect(JSON.stringify(view)).not.toMatch(/\\u001b|\u001b/);
  });

  it("counts hidden rows and rows shown only as internal ones as internal, and nothing else", () => {
    expect(
      isInternalRow(
        stored(1, { role: "system", parts: [{ type: "text", text: "lead-in" }], synthetic: true, uiVisible: false }),
      ),
    ).toBe(true);
    expect(
      isInternalRow(
        stored(2, {
          role: "system",
          parts: [{ type: "text", text: "raw" }],
          synthetic: true,
          uiVisible: true,
          meta: { type: "imported-raw-line" },
        }),
      ),
    ).toBe(true);
    expect(isInternalRow(stored(3, { role: "user", parts: [{ type: "text", text: "hi" }] }))).toBe(false);
    const warning = rejectedInputRow({
      parts: [{ type: "text", text: "x" }],
      reason: "r",
      estimatedTokens: 1,
      hardCeiling: 1,
    });
    expect(isInternalRow(stored(4, warning as Stored))).toBe(false);
  });
});
