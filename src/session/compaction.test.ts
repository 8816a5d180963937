import { describe, expect, it } from "vitest";
import { classifyBoundary } from "../core/boundary.js";
import { COMPACTION_INSTRUCTION } from "./compaction.js";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "./test-support/scripted-model.js";
import { memoryStore, readTool, rowText } from "./test-support/session-fixture.js";
import { FORCE_AT, THRESHOLD_AT, budgetSession } from "./test-support/rollover-setup.js";

const isSummaryRequest = (call: RecordedCall) => call.text.endsWith(`user: ${COMPACTION_INSTRUCTION}`);

/** Answers summary requests with a summary, everything else from `steps` in order. */
function summarizingScript(steps: ScriptedStep[]) {
  let next = 0;
  return (call: RecordedCall): ScriptedStep =>
    isSummaryRequest(call)
      ? { text: "SUMMARY: the user wants the parser fixed.", inputTokens: 900 }
      : (steps[next++] ?? { text: "(script ended)" });
}

describe("compaction", () => {
  it("session.compact() writes an LLM summary boundary that the next request starts from", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({
      script: summarizingScript([{ text: "looking at the parser" }, { text: "on it" }]),
    });
    const session = budgetSession({ store, model });
    await session.send("please fix the parser");

    const compacted = await session.compact();

    expect(compacted).toMatchObject({
      status: "completed",
      windowId: "w:3",
      previousWindowId: "w:0",
      summary: "SUMMARY: the user wants the parser fixed.",
    });
    expect(calls[1]!.text).toContain("user: please fix the parser");
    expect(model.doStreamCalls[1]!.toolChoice).toEqual({ type: "none" });
    const { rows } = await store.activeWindow("s");
    expect(classifyBoundary(rows[0]!)).toBe("compaction");
    expect(rows[0]!.meta?.type).toBe("compaction-summary");

    await session.send("status?");
    const lines = calls[2]!.text.split("\n");
    expect(lines[0]).toMatch(/^user: \[Summary of the earlier conversation/);
    expect(calls[2]!.text).toContain("SUMMARY: the user wants the parser fixed.");
    expect(calls[2]!.text).not.toContain("please fix the parser");
    expect(lines.at(-1)).toBe("user: status?");
  });

  it("skips a window with nothing to summarize", async () => {
    const { model, calls } = scriptedModel({ script: [] });
    const result = await budgetSession({ store: memoryStore(), model }).compact();
    expect(result).toMatchObject({ status: "skipped", windowId: "w:0" });
    expect(calls).toHaveLength(0);
  });

  it("drops a pending rollover and its queued continue", async () => {
    const store = memoryStore();
    const files = { "a.txt": "A".repeat(2_000), "b.txt": "B".repeat(2_000) };
    const { model, calls } = scriptedModel({
      script: summarizingScript([
        {
          toolCalls: [
            { toolName: "read", input: { path: "a.txt" } },
            { toolName: "read", input: { path: "b.txt" } },
          ],
          inputTokens: FORCE_AT - 400,
        },
      ]),
    });
    const session = budgetSession({ store, model, tools: { read: readTool(files) } });
    let compacting: ReturnType<typeof session.compact> | undefined;
    session.on("step-end", () => {
      compacting ??= session.compact();
    });
    const result = await session.send("read both");
    expect((await compacting!).status).toBe("completed");
    expect(result.rollovers).toEqual([]);
    expect(calls.map(isSummaryRequest)).toEqual([false, true]);
    const all = (await store.items("s", { limit: 100 })).rows;
    expect(all.some((row) => row.meta?.type === "continue" || row.boundary?.kind === "rollover")).toBe(false);
  });

  it("strategy compact summarizes instead of rolling over, in one append with the input", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({
      script: summarizingScript([
        { text: "first answer", inputTokens: THRESHOLD_AT + 100 },
        { text: "second answer", inputTokens: 1_200 },
      ]),
    });
    const session = budgetSession({ store, model, settings: { strategy: "compact" } });
    await session.send("first question");
    const order: string[] = [];
    session.on("compaction", ({ windowId }) => order.push(`compaction ${windowId}`));
    session.on("text-delta", ({ delta }) => order.push(delta));
    const result = await session.send("second question");
    expect(result).toMatchObject({
      status: "completed",
      rollovers: [],
      compactions: [{ windowId: "w:3", previousWindowId: "w:0" }],
      text: "second answer",
    });
    // The event comes before the answer streams, so a front end draws the divider in its place.
    expect(order).toEqual(["compaction w:3", "second answer"]);
    expect(calls.map(isSummaryRequest)).toEqual([false, true, false]);
    const { rows } = await store.activeWindow("s");
    expect(rows.map((row) => row.meta?.type ?? rowText(row))).toEqual([
      "compaction-summary",
      "second question",
      "second answer",
    ]);
    expect(calls[2]!.text).toContain("SUMMARY: the user wants the parser fixed.");
    expect(calls[2]!.text).not.toContain("first question");
  });
});
