import { describe, expect, it } from "vitest";
import { classifyBoundary, rolloverMetaOf } from "../core/boundary.js";
import { isHidden } from "../core/visibility.js";
import { scriptedModel } from "./test-support/scripted-model.js";
import { memoryStore, rowText } from "./test-support/session-fixture.js";
import { recordingStore } from "./test-support/store-wrappers.js";
import { LIMIT, THRESHOLD_AT, WARN_AT, budgetSession } from "./test-support/rollover-setup.js";
import type { RolloverInfo } from "./session-types.js";

describe("rollover on send", () => {
  it("writes boundary + hidden lead-in + the input in one append, and the next request holds only the new window", async () => {
    const { store, appends } = recordingStore(memoryStore());
    const { model, calls } = scriptedModel({
      script: [
        { text: "first answer", inputTokens: THRESHOLD_AT + 100 },
        { text: "second answer", inputTokens: 900 },
      ],
    });
    const session = budgetSession({ store, model, system: "Be brief." });
    const events: RolloverInfo[] = [];
    session.on("rollover", (event) => events.push(event));

    const first = await session.send("first question");
    expect(first.rollovers).toEqual([]);
    const second = await session.send("second question");

    expect(second.status).toBe("completed");
    expect(second.rollovers).toEqual([
      {
        rolloverId: expect.any(String),
        reason: "on-send",
        previousWindowId: "w:0",
        windowId: "w:3",
        flushOpportunity: false,
        contextTokens: expect.any(Number),
        maxTokens: LIMIT,
      },
    ]);
    expect(second.rollovers[0]!.contextTokens).toBeGreaterThanOrEqual(THRESHOLD_AT);
    expect(events).toEqual(second.rollovers);

    // Invariant 1: one append holds boundary, lead-in and the input, all with the same rolloverId.
    const rolloverAppend = appends.find((rows) => rows.some((row) => row.boundary !== undefined));
    expect(rolloverAppend?.map((row) => row.meta?.type ?? row.role)).toEqual(["rollover", "lead-in", "user"]);
    const rolloverId = second.rollovers[0]!.rolloverId;
    expect(
      rolloverAppend?.map((row) => row.meta?.["rolloverId"] ?? (row.metadata as Record<string, unknown>)["rolloverId"]),
    ).toEqual([rolloverId, rolloverId, rolloverId]);

    // Invariant 2: the request after the rollover holds nothing from before the boundary.
    const request = calls[1]!.text;
    expect(request).not.toContain("first question");
    expect(request).not.toContain("first answer");
    const lines = request.split("\n");
    expect(lines[0]).toBe("system: Be brief.");
    expect(lines[1]).toMatch(/^user: \[Context window w:3 begins\.\]/);
    expect(lines[1]).toContain("session_history");
    expect(lines[2]).toBe("user: second question");
    expect(lines).toHaveLength(3);

    const { rows, windowId } = await store.activeWindow("s");
    expect(windowId).toBe("w:3");
    expect(classifyBoundary(rows[0]!)).toBe("rollover");
    expect(rolloverMetaOf(rows[0]!)).toMatchObject({
      rolloverId,
      reason: "on-send",
      previousWindowId: "w:0",
      maxTokens: LIMIT,
    });
    expect(isHidden(rows[1]!)).toBe(true);
    expect(rows.map(rowText).slice(2)).toEqual(["second question", "second answer"]);
  });

  it("does not roll over below the threshold", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({ script: [{ text: "a", inputTokens: WARN_AT - 500 }, { text: "b" }] });
    const session = budgetSession({ store, model });
    await session.send("one");
    const result = await session.send("two");
    expect(result.rollovers).toEqual([]);
    expect(calls[1]!.text).toContain("user: one");
  });

  it("rolls over an already-full window only once: the fresh window is never given a second boundary", async () => {
    const { store, appends } = recordingStore(memoryStore());
    // A system prompt so large that even a fresh window sits at the threshold (but under the ceiling).
    const system = "x".repeat((THRESHOLD_AT - 500) * 4);
    const { model, calls } = scriptedModel({
      script: (call) => ({ text: `answer ${call.index}`, inputTokens: THRESHOLD_AT + 300 }),
    });
    const session = budgetSession({ store, model, system, settings: { warningTurnTokens: 0 } });
    const first = await session.send("one");
    expect(first).toMatchObject({ status: "completed", rollovers: [] });
    const second = await session.send("two");
    const third = await session.send("three");
    expect(second).toMatchObject({ status: "completed" });
    expect(second.rollovers).toHaveLength(1);
    expect(third.rollovers).toHaveLength(1);
    // Each rollover carries a window that had a substantive row; never two boundaries back to back.
    const boundaries = appends.flat().filter((row) => row.boundary !== undefined);
    expect(boundaries).toHaveLength(2);
    expect(calls).toHaveLength(3);
  });
});
