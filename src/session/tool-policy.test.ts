import { describe, expect, it } from "vitest";
import { scriptedModel } from "./test-support/scripted-model.js";
import { memoryStore, readTool, rowText } from "./test-support/session-fixture.js";
import { FORCE_AT, THRESHOLD_AT, budgetSession, scriptedBudgetSession } from "./test-support/rollover-setup.js";

describe("tool policy", () => {
  it("an allowlist that does not grant session_history gets none", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({ script: [{ text: "ok" }] });
    const session = budgetSession({ store, model, tools: { read: readTool({}) }, toolPolicy: { allow: ["read"] } });
    await session.send("hi");
    expect(calls[0]!.toolNames).toEqual(["read"]);
  });

  it("an allowlist that grants it keeps it; without an allowlist it is always there", async () => {
    const granted = scriptedModel({ script: [{ text: "ok" }] });
    await budgetSession({
      store: memoryStore(),
      model: granted.model,
      tools: { read: readTool({}) },
      toolPolicy: { allow: ["read", "session_history"] },
    }).send("hi");
    expect(granted.calls[0]!.toolNames).toEqual(["read", "session_history"]);
    const open = scriptedModel({ script: [{ text: "ok" }] });
    await budgetSession({ store: memoryStore(), model: open.model }).send("hi");
    expect(open.calls[0]!.toolNames).toEqual(["session_history"]);
  });

  it("at the threshold, a session without session_history is blocked with guidance instead of rolling over", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({
      script: [{ text: "a", inputTokens: THRESHOLD_AT + 200 }, { text: "never" }],
    });
    const session = budgetSession({ store, model, toolPolicy: { allow: [] } });
    await session.send("one");
    const result = await session.send("two");
    expect(result.status).toBe("blocked");
    expect(result.reason).toMatch(/does not grant session_history/);
    expect(result.reason).toMatch(/Grant session_history, compact the session, or clear it/);
    expect(result.rollovers).toEqual([]);
    expect(calls).toHaveLength(1);
    const { rows } = await store.activeWindow("s");
    expect(rows.some((row) => row.boundary !== undefined)).toBe(false);
    const rejected = rows.at(-1)!;
    expect(rejected.meta?.type).toBe("rejected-input");
    expect(rowText(rejected)).toBe("two");
  });

  it("a step past the force band ends the send blocked rather than continuing in an unrecoverable window", async () => {
    const { store, calls, session } = scriptedBudgetSession(
      [{ toolCalls: [{ toolName: "read", input: { path: "a" } }], inputTokens: FORCE_AT + 10 }, { text: "never" }],
      { tools: { read: readTool({ a: "alpha" }) }, toolPolicy: { allow: ["read"] } },
    );
    const result = await session.send("read a");
    expect(result.status).toBe("blocked");
    expect(calls).toHaveLength(1);
    const { rows } = await store.activeWindow("s");
    expect(rows.some((row) => row.boundary !== undefined)).toBe(false);
  });
});
