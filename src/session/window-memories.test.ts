/**
 * The hot memories block is rendered once per window (docs/adr/0055): a notes write in the middle of
 * a window leaves the system prompt of that window's later requests as it was (the write itself is
 * in the window), and the next window's first request shows the notes as they are now.
 */
import { describe, expect, it } from "vitest";
import { createAgentSession } from "./create-agent-session.js";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "./test-support/scripted-model.js";
import { deterministic, memoryStore } from "./test-support/session-fixture.js";
import { temporaryDirectories } from "./test-support/temporary-directories.js";

const NOTES = "/memories/workspace/context-notes.md";

const memoryRoot = temporaryDirectories("ctxwin-window-memories-");

/** Writes its notes when asked to, and answers anything else. */
function script(call: RecordedCall): ScriptedStep {
  const last = call.text.split("\n").at(-1) ?? "";
  if (last.startsWith("user: Note "))
    return {
      toolCalls: [
        {
          toolName: "memory",
          input: { command: "create", path: NOTES, file_text: last.slice("user: Note ".length), overwrite: true },
        },
      ],
    };
  return { text: "ok" };
}

describe("the hot memories of a window", () => {
  it("keeps the system prompt of a window's requests as its first request had it; the next window shows the notes as written", async () => {
    const { model, calls } = scriptedModel({ script });
    const session = createAgentSession({
      store: memoryStore(),
      sessionId: "s",
      model,
      system: "You take notes.",
      budget: { contextLimit: 100_000 },
      memory: { root: memoryRoot() },
      ...deterministic(),
    });

    await session.send("Note the first version.");
    await session.send("Note the second version.");
    await session.send("What do your notes say?");
    const { windowId } = await session.clear({ soft: true });
    await session.send("And now?");

    // One window: every request carries the system prompt of its first request (no notes yet),
    // while the memory writes are in its messages.
    const firstWindow = calls.slice(0, -1);
    expect(new Set(firstWindow.map((call) => call.system)).size).toBe(1);
    expect(firstWindow[0]!.system).not.toContain("<hot_memories>");
    expect(firstWindow.at(-1)!.text).toContain("the second version.");
    // The next window renders the files afresh.
    expect(windowId).not.toBe("w:0");
    const next = calls.at(-1)!.system;
    expect(next).toContain("<hot_memories>");
    expect(next).toContain("the second version.");
    expect(next).not.toContain("the first version.");
  });

  it("still shows the notes the window started with in every request of it", async () => {
    const root = memoryRoot();
    const first = scriptedModel({ script });
    const writer = createAgentSession({
      store: memoryStore(),
      sessionId: "s",
      model: first.model,
      budget: { contextLimit: 100_000 },
      memory: { root },
      ...deterministic(),
    });
    await writer.send("Note the plan: parse, then lex.");

    // A new session object over the same memory: its first window starts with those notes.
    const { model, calls } = scriptedModel({ script });
    const session = createAgentSession({
      store: memoryStore(),
      sessionId: "s",
      model,
      budget: { contextLimit: 100_000 },
      memory: { root },
      ...deterministic(),
    });
    await session.send("Note the plan changed.");
    await session.send("Go on.");
    expect(calls.map((call) => call.system.includes("the plan: parse, then lex."))).toEqual([true, true, true]);
  });
});
