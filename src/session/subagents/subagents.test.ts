import { describe, expect, it } from "vitest";
import { createAgentSession } from "../create-agent-session.js";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "../test-support/scripted-model.js";
import { deterministic, memoryStore, readTool, rowText } from "../test-support/session-fixture.js";
import type { HistoryStore } from "../../store/port.js";
import type { AgentSessionOptions } from "../session-types.js";

const files = { "notes.txt": "The staging codename is HERON-41." };
const budget = { contextLimit: 50_000 };

/** The `task` results a request shows, oldest first. */
function taskResults(call: RecordedCall): Array<Record<string, unknown>> {
  return [...call.text.matchAll(/result task (\{.*\})$/gm)].map(
    (match) => (JSON.parse(match[1]!) as { value: Record<string, unknown> }).value,
  );
}

/** A parent that delegates `tasks` in one step, then reports what came back. */
function delegator(tasks: Array<{ agent: string; prompt: string }>) {
  return (call: RecordedCall): ScriptedStep => {
    const results = taskResults(call);
    if (results.length > 0)
      return { text: `Sub-agents said: ${results.map((result) => result["answer"] ?? result["message"]).join(" | ")}` };
    return { toolCalls: tasks.map((input) => ({ toolName: "task", input })) };
  };
}

/** A researcher that reads notes.txt and answers with the codename. */
function researcher(call: RecordedCall): ScriptedStep {
  const found = /codename is ([A-Z]+-\d+)/.exec(call.text);
  if (found !== null) return { text: `The codename is ${found[1]}.` };
  return { toolCalls: [{ toolName: "read", input: { path: "notes.txt" } }] };
}

/** The parent session "main" over `store`, with `model` and the sub-agents of `options`. */
function mainSession(
  store: HistoryStore,
  model: AgentSessionOptions["model"],
  options: Pick<AgentSessionOptions, "subagents" | "subagentSettings">,
) {
  return createAgentSession({ store, sessionId: "main", model, budget, ...deterministic(), ...options });
}

async function allRows(store: HistoryStore, sessionId: string) {
  return (await store.items(sessionId, { limit: 1_000, includeCleared: true })).rows;
}

describe("sub-agents: the task tool runs a child session", () => {
  it("runs the sub-agent in a child session with its own rows and returns its answer with the child's id", async () => {
    const store = memoryStore();
    const parent = scriptedModel({
      script: delegator([{ agent: "researcher", prompt: "Find the staging codename in notes.txt." }]),
    });
    const child = scriptedModel({ script: researcher });
    const session = mainSession(store, parent.model, {
      subagents: {
        researcher: {
          system: "You research.",
          tools: { read: readTool(files) },
          model: child.model,
          description: "reads files",
        },
      },
    });

    const result = await session.send("What is the staging codename?");

    expect(result).toMatchObject({ status: "completed", text: "Sub-agents said: The codename is HERON-41." });
    const [taskResult] = taskResults(parent.calls[1]!);
    expect(taskResult).toMatchObject({
      status: "completed",
      agent: "researcher",
      answer: "The codename is HERON-41.",
      truncated: false,
    });
    const childId = String(taskResult?.["session_id"]);
    expect(parent.calls[0]?.toolNames).toContain("task");
    expect(child.calls[0]?.system).toContain("You research.");
    expect(child.calls[0]?.text).not.toContain("What is the staging codename?");
    // The child is a session of its own, recorded under its parent and the item holding the task call.
    const summary = await store.session(childId);
    const parentRows = await allRows(store, "main");
    const callRow = parentRows.find((row) =>
      row.parts.some((part) => part.type === "tool-task" || ("toolName" in part && part.toolName === "task")),
    );
    expect(summary?.parent).toEqual({ sessionId: "main", itemId: String(callRow?.seq) });
    expect((await store.sessions({ parentSessionId: "main" })).map((entry) => entry.sessionId)).toEqual([childId]);
    expect((await allRows(store, childId)).map(rowText).join("\n")).toContain("HERON-41");
    expect(parentRows.map(rowText).join("\n")).not.toContain("codename is HERON-41.\n");
  });

  it("refuses an unknown agent with a clear result and starts no child", async () => {
    const store = memoryStore();
    const parent = scriptedModel({ script: delegator([{ agent: "nobody", prompt: "x" }]) });
    const session = mainSession(store, parent.model, {
      subagents: { researcher: { system: "r" } },
    });

    await session.send("go");

    expect(taskResults(parent.calls[1]!)).toEqual([
      { status: "refused", code: "unknown_agent", message: 'Unknown agent "nobody". Known agents: researcher.' },
    ]);
    expect(await store.sessions({ parentSessionId: "main" })).toEqual([]);
  });

  it("stops recursion at maxDepth with a refusal the deepest agent sees", async () => {
    const store = memoryStore();
    // Every agent delegates to itself once, then reports.
    const recursive = scriptedModel({ script: delegator([{ agent: "again", prompt: "Go one level deeper." }]) });
    const session = mainSession(store, recursive.model, {
      subagents: { again: { system: "Delegate again." } },
      subagentSettings: { maxDepth: 2 },
    });

    const result = await session.send("start");

    expect(result.status).toBe("completed");
    const sessions = await store.sessions();
    expect(sessions).toHaveLength(3);
    const depthOne = sessions.find((entry) => entry.parent?.sessionId === "main");
    const depthTwo = sessions.find((entry) => entry.parent?.sessionId === depthOne?.sessionId);
    expect(depthTwo).toBeDefined();
    expect((await allRows(store, depthTwo!.sessionId)).map(rowText).join("\n")).toContain("cannot start another");
  });

  it("runs parallel tasks at most maxConcurrency at a time", async () => {
    const store = memoryStore();
    const order: string[] = [];
    const parent = scriptedModel({
      script: delegator([
        { agent: "worker", prompt: "task A" },
        { agent: "worker", prompt: "task B" },
      ]),
    });
    const worker = scriptedModel({
      script: (call) => {
        const name = /task ([AB])/.exec(call.text)?.[1] ?? "?";
        order.push(name);
        return call.text.includes("result read")
          ? { text: `done ${name}` }
          : { toolCalls: [{ toolName: "read", input: { path: "notes.txt" } }] };
      },
    });
    const session = mainSession(store, parent.model, {
      subagents: { worker: { system: "work", model: worker.model, tools: { read: readTool(files) } } },
      subagentSettings: { maxConcurrency: 1 },
    });

    const result = await session.send("go");

    expect(result.text).toBe("Sub-agents said: done A | done B");
    expect(order).toEqual(["A", "A", "B", "B"]);
    expect(await store.sessions({ parentSessionId: "main" })).toHaveLength(2);
  });

  it("interrupting the parent interrupts its running child; the child's rows so far are stored", async () => {
    const store = memoryStore();
    const controller = new AbortController();
    const parent = scriptedModel({ script: delegator([{ agent: "slow", prompt: "Take your time." }]) });
    const slow = scriptedModel({
      script: [{ text: "Working on it", stallUntilAborted: true }],
      beforeAnswer: async () => controller.abort(),
    });
    const session = mainSession(store, parent.model, {
      subagents: { slow: { system: "slow", model: slow.model } },
    });

    const result = await session.send("go", { signal: controller.signal });

    expect(result.status).toBe("interrupted");
    const [child] = await store.sessions({ parentSessionId: "main" });
    expect(child).toBeDefined();
    expect((await allRows(store, child!.sessionId)).map(rowText)).toContain("Take your time.");
    expect(parent.calls).toHaveLength(1);
  });
});
