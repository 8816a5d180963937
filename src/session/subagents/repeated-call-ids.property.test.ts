/**
 * Property (ADR 0074): a provider that repeats tool-call ids never merges two `task` calls into one
 * child. Over random turns (steps of task calls, soft clears between turns), every call gets a child
 * of its own that saw only its own prompt, under the parent's row that holds the call.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../create-agent-session.js";
import { scriptedModel, type ScriptedStep } from "../test-support/scripted-model.js";
import { deterministic, memoryStore, rowText } from "../test-support/session-fixture.js";

/** Turns → steps → how many task calls the step makes. */
function turns(maxCallsPerStep: number) {
  const step = fc.integer({ min: 1, max: maxCallsPerStep });
  return fc.array(fc.record({ steps: fc.array(step, { minLength: 1, maxLength: 3 }), clearBefore: fc.boolean() }), {
    minLength: 1,
    maxLength: 3,
  });
}

type Plan = Array<{ steps: number[]; clearBefore: boolean }>;

async function runPlan(plan: Plan, callId: (position: number) => string): Promise<void> {
  const store = memoryStore();
  const tasks: string[] = [];
  const script: ScriptedStep[] = [];
  for (const turn of plan) {
    for (const calls of turn.steps) {
      const step = Array.from({ length: calls }, () => `task-${tasks.push(`task-${tasks.length + 1}`)}`);
      script.push({
        toolCalls: step.map((task, position) => ({
          toolName: "task",
          toolCallId: callId(position),
          input: { agent: "helper", prompt: `Do ${task}.` },
        })),
      });
    }
    script.push({ text: "Done." });
  }
  const parent = scriptedModel({ script });
  const child = scriptedModel({
    script: (call) => ({
      text: `Saw ${call.prompt.filter((message) => message.role === "user").length} prompt(s): ${/task-\d+/.exec(call.text)?.[0]}`,
    }),
  });
  const session = createAgentSession({
    store,
    sessionId: "main",
    model: parent.model,
    budget: { contextLimit: 50_000 },
    subagents: { helper: { system: "Help.", model: child.model } },
    ...deterministic(),
  });
  for (const [index, turn] of plan.entries()) {
    if (turn.clearBefore) await session.clear({ soft: true });
    expect((await session.send(`Turn ${index}`)).status).toBe("completed");
  }

  const children = await store.sessions({ parentSessionId: "main" });
  expect(children).toHaveLength(tasks.length);
  const seen: string[] = [];
  const parentRows = (await store.items("main", { limit: 1_000, includeCleared: true })).rows;
  for (const summary of children) {
    const rows = (await store.items(summary.sessionId, { limit: 1_000, includeCleared: true })).rows;
    const userRows = rows.filter((row) => row.role === "user");
    expect(userRows).toHaveLength(1);
    const task = /task-\d+/.exec(rowText(userRows[0]!))?.[0] ?? "";
    seen.push(task);
    expect(rows.map(rowText)).toContain(`Saw 1 prompt(s): ${task}`);
    // The child hangs under the parent's row that holds its call, and that call's result names it.
    const callRow = parentRows.find((row) => String(row.seq) === summary.parent?.itemId);
    const call = callRow?.parts.find((part) => JSON.stringify(part).includes(`Do ${task}.`));
    expect(call).toMatchObject({ output: { session_id: summary.sessionId } });
  }
  expect(seen.sort()).toEqual([...tasks].sort());
}

describe("sub-agents: repeated tool-call ids", () => {
  it("gives every task call its own child session when the model always answers toolCallId call_0", async () => {
    await fc.assert(
      fc.asyncProperty(turns(1), (plan) => runPlan(plan, () => "call_0")),
      { numRuns: 25 },
    );
  });

  it("does the same when every step numbers its parallel calls from call_0 again", async () => {
    await fc.assert(
      fc.asyncProperty(turns(3), (plan) => runPlan(plan, (position) => `call_${position}`)),
      { numRuns: 25 },
    );
  });
});
