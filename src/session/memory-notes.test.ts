import { describe, expect, it } from "vitest";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "./test-support/scripted-model.js";
import { memoryStore, readTool } from "./test-support/session-fixture.js";
import { temporaryDirectories } from "./test-support/temporary-directories.js";
import {
  FORCE_AT,
  WARN_AT,
  budgetSession,
  scriptedBudgetSession,
  systemOfTokens,
} from "./test-support/rollover-setup.js";

const memoryRoot = temporaryDirectories("ctxwin-session-memory-");

const files = { "a.txt": "A".repeat(1_000), "b.txt": "B".repeat(2_000), "c.txt": "C".repeat(2_000) };

describe("notes across a rollover", () => {
  it("warning → the agent writes its notes with the memory tool → after the rollover the notes are in <hot_memories>", async () => {
    const store = memoryStore();
    const root = memoryRoot();
    const script = (call: RecordedCall): ScriptedStep => {
      const last = call.text.split("\n").at(-1) ?? "";
      if (call.index === 0)
        return { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }], inputTokens: WARN_AT + 100 };
      if (last.startsWith("user: [Context budget]")) {
        return {
          toolCalls: [
            {
              toolName: "memory",
              input: {
                command: "create",
                path: "/memories/workspace/context-notes.md",
                file_text: "Goal: count the Bs. Found: a.txt is all As.",
              },
            },
          ],
          inputTokens: WARN_AT + 700,
        };
      }
      if (call.index === 2)
        return {
          toolCalls: [
            { toolName: "read", input: { path: "b.txt" } },
            { toolName: "read", input: { path: "c.txt" } },
          ],
          inputTokens: FORCE_AT - 300,
        };
      return { text: "continuing from my notes", inputTokens: 1_500 };
    };
    const { model, calls } = scriptedModel({ script });
    // The system prompt leaves ~2,600 tokens for the tool definitions (the memory tool's are large), the
    // framing and the input, so the first request is estimated below the warn band and the reported 12,100 is plausible.
    const session = budgetSession({
      store,
      model,
      tools: { read: readTool(files) },
      memory: { root },
      system: systemOfTokens(WARN_AT + 100 - 2_600),
    });

    const result = await session.send("count the letters");

    expect(result.warnings).toHaveLength(1);
    expect(calls[1]!.text.split("\n").at(-1)).toContain("/memories/workspace/context-notes.md");
    expect(calls[0]!.toolNames).toEqual(["read", "session_history", "memory"]);
    expect(result.rollovers).toEqual([expect.objectContaining({ reason: "mid-stream", flushOpportunity: true })]);
    const afterRollover = calls.at(-1)!;
    expect(afterRollover.system).toContain("<hot_memories>");
    expect(afterRollover.system).toContain("Goal: count the Bs. Found: a.txt is all As.");
    expect(afterRollover.text).toMatch(
      /Your notes from \/memories\/workspace\/context-notes\.md, if you wrote any, are in <hot_memories>/,
    );
    expect(afterRollover.text).not.toContain("AAAA");
  });

  it("a read-only memory gets a warning that says notes cannot be saved", async () => {
    const { calls, session } = scriptedBudgetSession(
      [{ toolCalls: [{ toolName: "read", input: { path: "a.txt" } }], inputTokens: WARN_AT + 100 }, { text: "ok" }],
      {
        tools: { read: readTool(files) },
        memory: { root: memoryRoot(), readOnly: true },
        system: systemOfTokens(WARN_AT + 100 - 2_600),
      },
    );
    await session.send("go");
    const warning = calls[1]!.text.split("\n").at(-1)!;
    expect(warning).toContain("Memory is read-only in this session");
    expect(warning).toContain("session_history");
  });
});
