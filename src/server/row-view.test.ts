import { describe, expect, it } from "vitest";
import { continueRow } from "../core/rollover/rollover-rows.js";
import { stepMetadata } from "../core/rollover/step-usage.js";
import type { StoredRow } from "../store/port.js";
import { rowView } from "./row-view.js";

const stored = (seq: number, row: Omit<StoredRow, "sessionId" | "seq" | "id" | "createdAt">): StoredRow => ({ sessionId: "s", seq, id: `r${seq}`, createdAt: "2026-01-01T00:00:00.000Z", ...row });

describe("rowView", () => {
  it("shows a call the step refused with its raw arguments as not run, and a call that threw as failed", () => {
    const row = stored(4, {
      role: "assistant",
      parts: [
        { type: "tool-fetch_page", toolCallId: "c1", state: "output-error", input: undefined, rawInput: { url: "https://example.com/p2" }, errorText: "Model tried to call unavailable tool 'fetch_page'." },
        { type: "tool-boom", toolCallId: "c2", state: "output-error", input: { why: "x" }, errorText: "kaput" },
      ],
      metadata: stepMetadata({ usage: { inputTokens: 10, outputTokens: 2 }, model: "m:x", notRunToolCallIds: ["c1"] }),
    });
    expect(rowView({ row, window: undefined }).parts).toEqual([
      { type: "tool", toolName: "fetch_page", state: "output-error", outcome: "not-run", input: '{"url":"https://example.com/p2"}', output: "error: Model tried to call unavailable tool 'fetch_page'." },
      { type: "tool", toolName: "boom", state: "output-error", outcome: "failed", input: '{"why":"x"}', output: "error: kaput" },
    ]);
  });

  it("gives a continue row's carry as records: the input's item and each call with its outcome", () => {
    const carry = {
      input: { itemId: "1", windowId: "w:0", text: "do it", totalChars: 5, truncated: false },
      ledger: [
        { itemId: "2", toolName: "read", input: '{"path":"a"}', outcome: "finished" as const },
        { itemId: "4", toolName: "fetch_page", input: '{"url":"u"}', outcome: "not-run" as const, detail: "held back in the notes-flush step (only memory ran there)" },
      ],
      omittedCalls: 1,
    };
    const view = rowView({ row: stored(7, continueRow({ carry, rolloverId: "r1" }) as Omit<StoredRow, "sessionId" | "seq" | "id" | "createdAt">), window: undefined });
    expect(view).toMatchObject({ kind: "internal", hidden: true });
    expect(view.carry).toEqual({
      input: { itemId: "1", windowId: "w:0", truncated: false },
      calls: [
        { itemId: "2", toolName: "read", input: '{"path":"a"}', outcome: "finished" },
        { itemId: "4", toolName: "fetch_page", input: '{"url":"u"}', outcome: "not-run", detail: "held back in the notes-flush step (only memory ran there)" },
      ],
      omittedCalls: 1,
    });
    expect(view.text).toContain('- fetch_page {"url":"u"} → not run');
    expect(rowView({ row: stored(8, continueRow({})), window: undefined }).carry).toBeUndefined();
  });
});
