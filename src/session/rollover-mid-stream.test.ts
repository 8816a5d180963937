import { describe, expect, it } from "vitest";
import { rolloverMetaOf } from "../core/boundary.js";
import type { StoredRow } from "../store/port.js";
import { scriptedModel } from "./test-support/scripted-model.js";
import { memoryStore, readTool, rowText } from "./test-support/session-fixture.js";
import { recordingStore } from "./test-support/store-wrappers.js";
import {
  FORCE_AT,
  budgetSession,
  readBoth,
  readBothPastForceBand,
  systemOfTokens,
  twoFilesSession,
} from "./test-support/rollover-setup.js";

async function allRows(store: ReturnType<typeof memoryStore>): Promise<StoredRow[]> {
  return (await store.items("s", { limit: 500, includeCleared: true })).rows;
}

describe("rollover after a settled step", () => {
  it("stops at the step boundary with every tool call paired, then continues in a fresh window", async () => {
    const { store, appends } = recordingStore(memoryStore());
    // The step's request was just under the force band; its two tool results push the next one over it.
    const { calls, session } = twoFilesSession(readBothPastForceBand("finished"), { store });

    const result = await session.send("read both files");

    expect(result).toMatchObject({ status: "completed", text: "finished" });
    expect(result.rollovers).toEqual([
      expect.objectContaining({
        reason: "mid-stream",
        previousWindowId: "w:0",
        windowId: "w:3",
        flushOpportunity: false,
      }),
    ]);
    expect(calls).toHaveLength(2);

    // The stopped step is stored whole: both calls with their results, in one row.
    const rows = await allRows(store);
    const toolParts = rows[1]!.parts.filter((part) => part.type === "tool-read") as Array<{
      state: string;
      output: string;
    }>;
    expect(toolParts.map((part) => [part.state, part.output.length])).toEqual([
      ["output-available", 2_000],
      ["output-available", 2_000],
    ]);

    // The continuation: boundary + lead-in + continue in one append; the model gets only the new window.
    const rolloverAppend = appends.find((batch) => batch.some((row) => row.boundary !== undefined));
    expect(rolloverAppend?.map((row) => row.meta?.type)).toEqual(["rollover", "lead-in", "continue"]);
    expect(new Set(rolloverAppend?.map((row) => row.meta?.["rolloverId"])).size).toBe(1);
    const request = calls[1]!.text;
    expect(request).not.toContain("AAAA");
    expect(request).toMatch(/user: \[Context window w:3 begins\.\] Your previous turn was stopped at a step boundary/);
    // The continuation carries the turn's input and its finished calls, never their results (docs/adr/0023).
    expect(request).toContain("user: Continue the task you were working on.");
    expect(request).toContain('<carried_user_input item="1" window="w:0">\nread both files\n</carried_user_input>');
    expect(request.split("\n").slice(-2)).toEqual([
      '- item 2: read {"path":"a.txt"} → finished',
      '- item 2: read {"path":"b.txt"} → finished',
    ]);
    expect(rolloverMetaOf(rows[2]!)?.reason).toBe("mid-stream");
  });

  it("gives the rollover to real user input already waiting instead of queueing a continue", async () => {
    const { store, calls, session } = twoFilesSession(readBothPastForceBand("answer to B"));

    const [resultA, resultB] = await Promise.all([session.send("A: read both files"), session.send("B: what next?")]);

    expect(resultA.rollovers).toEqual([]);
    expect(resultB.rollovers).toEqual([expect.objectContaining({ reason: "mid-stream" })]);
    expect(resultB.text).toBe("answer to B");
    const rows = await allRows(store);
    expect(rows.some((row) => row.meta?.type === "continue")).toBe(false);
    expect(rows.slice(2).map((row) => row.meta?.type ?? rowText(row))).toEqual([
      "rollover",
      "lead-in",
      "B: what next?",
      "answer to B",
    ]);
    expect(calls[1]!.text).not.toContain("A: read both files");
    expect(calls[1]!.text.split("\n").at(-1)).toBe("user: B: what next?");
  });

  it("does not stop a step below the force band, even above the on-send threshold", async () => {
    // The request is about the 14,200 tokens reported: the system prompt leaves room for the tools
    // (read and session_history, about 1,700 tokens by the session's count), the message and framing.
    const { calls, session } = twoFilesSession(
      [
        { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }], inputTokens: 14_200 },
        { text: "done", inputTokens: 14_400 },
      ],
      { system: systemOfTokens(14_200 - 2_000), settings: { warningTurnTokens: 0 } },
    );
    const result = await session.send("read a");
    expect(result.rollovers).toEqual([]);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.text).toContain("result read");
    // The next send rolls over instead.
    const next = await session.send("next");
    expect(next.rollovers).toEqual([expect.objectContaining({ reason: "on-send" })]);
  });

  it("stops when a single step jumps past the hard ceiling; no warning is given first", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({
      script: [
        { ...readBoth, inputTokens: 10_000 },
        { text: "continuing", inputTokens: 500 },
      ],
    });
    const big = { "a.txt": "A".repeat(14_000), "b.txt": "B".repeat(14_000) };
    const session = budgetSession({ store, model, tools: { read: readTool(big) } });
    const result = await session.send("read both");
    expect(result.warnings).toEqual([]);
    expect(result.rollovers).toEqual([expect.objectContaining({ reason: "mid-stream", flushOpportunity: false })]);
    expect(calls).toHaveLength(2);
  });

  it("stops queueing continuations after maxTurnsPerSend; the latch waits for the next send", async () => {
    const { calls, session } = twoFilesSession(
      (call) => (call.index < 2 ? { ...readBoth, inputTokens: FORCE_AT + 10 } : { text: "resumed", inputTokens: 500 }),
      { maxTurnsPerSend: 2 },
    );
    const first = await session.send("keep reading");
    expect(first.status).toBe("completed");
    expect(first.rollovers).toHaveLength(1);
    expect(calls).toHaveLength(2);
    const second = await session.send("go on");
    expect(second.rollovers).toEqual([expect.objectContaining({ reason: "mid-stream" })]);
    expect(calls[2]!.text.split("\n").at(-1)).toBe("user: go on");
  });
});
