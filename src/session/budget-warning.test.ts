import { describe, expect, it } from "vitest";
import type { HistoryStore } from "../store/port.js";
import type { WarningInfo } from "./session-types.js";
import type { ScriptedStep } from "./test-support/scripted-model.js";
import { readTool } from "./test-support/session-fixture.js";
import { FORCE_AT, WARN_AT, scriptedBudgetSession } from "./test-support/rollover-setup.js";

const files = { "a.txt": "A".repeat(1_000) };
const readA = { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }] };
/** The warning turn itself needs little room in these tests. */
const settings = { warningTurnTokens: 500 };

/** A budget session over a fresh memory store with `read` over {@link files}, its model playing `script`. */
const warningSession = (script: ScriptedStep[], options: Parameters<typeof scriptedBudgetSession>[1] = {}) =>
  scriptedBudgetSession(script, { tools: { read: readTool(files) }, settings, ...options });

async function windowRows(store: HistoryStore) {
  return (await store.activeWindow("s")).rows;
}

describe("budget warning", () => {
  it("stops at the step boundary in the warn band and runs the warning turn: visible, once, telling the agent what to save", async () => {
    const { store, calls, session } = warningSession([
      { ...readA, inputTokens: WARN_AT + 100 },
      { text: "noted", inputTokens: WARN_AT + 700 },
    ]);
    const events: WarningInfo[] = [];
    session.on("budget-warning", (event) => events.push(event));

    const result = await session.send("read a");

    expect(result.status).toBe("completed");
    expect(result.warnings).toHaveLength(1);
    expect(events).toEqual(result.warnings);
    expect(result.rollovers).toEqual([]);
    expect(calls).toHaveLength(2);
    const lastLine = calls[1]!.text.split("\n").at(-1)!;
    expect(lastLine).toMatch(/^user: \[Context budget\] Window w:0 holds about/);
    expect(lastLine).toContain("Memory is off in this session");
    expect(lastLine).toContain("session_history");
    // The warning turn sees the whole window, tool result included.
    expect(calls[1]!.text).toContain("result read");

    const warnings = (await windowRows(store)).filter((row) => row.meta?.type === "budget-warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ synthetic: true, uiVisible: true, meta: { windowId: "w:0" } });
  });

  it("names the notes file when memory is writable", async () => {
    const { calls, session } = warningSession([{ ...readA, inputTokens: WARN_AT + 100 }, { text: "noted" }], {
      hotMemories: { mode: "read-write", render: async () => "" },
      memory: false,
    });
    await session.send("read a");
    expect(calls[1]!.text.split("\n").at(-1)).toContain("/memories/workspace/context-notes.md");
  });

  it("is given at most once per window", async () => {
    const { store, calls, session } = warningSession([
      { ...readA, inputTokens: WARN_AT + 100 },
      { text: "noted", inputTokens: WARN_AT + 500 },
      { ...readA, inputTokens: WARN_AT + 900 },
      { text: "done", inputTokens: WARN_AT + 1_400 },
    ]);
    const first = await session.send("read a");
    const second = await session.send("read a again");
    expect(first.warnings).toHaveLength(1);
    expect(second.warnings).toEqual([]);
    expect(calls).toHaveLength(4);
    expect((await windowRows(store)).filter((row) => row.meta?.type === "budget-warning")).toHaveLength(1);
  });

  it("rides in front of user input that is already waiting, in the same append", async () => {
    const { calls, session } = warningSession([
      { ...readA, inputTokens: WARN_AT + 100 },
      { text: "answer B", inputTokens: WARN_AT + 600 },
    ]);
    const [resultA, resultB] = await Promise.all([session.send("A"), session.send("B")]);
    expect(resultA.warnings).toEqual([]);
    expect(resultB.warnings).toHaveLength(1);
    const lines = calls[1]!.text.split("\n");
    expect(lines.at(-2)).toMatch(/^user: \[Context budget\]/);
    expect(lines.at(-1)).toBe("user: B");
  });

  it("gives way to a rollover: a step past the force band rolls over without a warning", async () => {
    const { session } = warningSession([{ ...readA, inputTokens: FORCE_AT + 10 }, { text: "continuing" }]);
    const result = await session.send("read a");
    expect(result.warnings).toEqual([]);
    expect(result.rollovers).toHaveLength(1);
  });

  it("is not given in the window that follows a rollover just because the old one was full", async () => {
    const { session } = warningSession([
      { ...readA, inputTokens: FORCE_AT + 10 },
      { text: "continuing", inputTokens: 600 },
      { text: "ok", inputTokens: 700 },
    ]);
    await session.send("read a");
    const next = await session.send("and now?");
    expect(next.warnings).toEqual([]);
    expect(next.rollovers).toEqual([]);
  });
});
