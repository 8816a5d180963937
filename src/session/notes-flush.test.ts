import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "./test-support/scripted-model.js";
import { memoryStore, readTool } from "./test-support/session-fixture.js";
import { temporaryDirectories } from "./test-support/temporary-directories.js";
import { readAllRows, sessionProblems } from "./test-support/session-invariants.js";
import { budgetSession } from "./test-support/rollover-setup.js";

const memoryRoot = temporaryDirectories("ctxwin-notes-flush-");

// Threshold 0.6: the force band (65%, 13,000 tokens) lies below the hard ceiling (15,000), as with any
// limit above ~33k tokens; at the default 0.7 and a 20k limit the two coincide and no flush could fit.
const settings = { threshold: 0.6 };
const FORCE_AT = 13_000;
const NOTES = "/memories/workspace/context-notes.md";
const files = { "a.txt": "A".repeat(2_000), "b.txt": "B".repeat(2_000) };
const big = { "a.txt": "A".repeat(14_000), "b.txt": "B".repeat(14_000) };
const readBoth = {
  toolCalls: [
    { toolName: "read", input: { path: "a.txt" } },
    { toolName: "read", input: { path: "b.txt" } },
  ],
};

/** Reads both files first; asked to flush, writes what the request shows it read; else answers from its notes. */
function script(call: RecordedCall): ScriptedStep {
  if (call.index === 0) return { ...readBoth, inputTokens: FORCE_AT - 1_500 };
  if (call.text.split("\n").at(-1)?.includes("rolls over after this step")) {
    const read = [...call.text.matchAll(/call read \{"path":"(\S+?)"\}/g)].map((match) => match[1]).join(", ");
    return {
      toolCalls: [
        { toolName: "memory", input: { command: "create", path: NOTES, file_text: `Read so far: ${read};` } },
      ],
      inputTokens: FORCE_AT - 200,
    };
  }
  const notes = /Read so far: ([^;]+);/.exec(call.system);
  return { text: notes === null ? "no notes" : `notes say ${notes[1]}`, inputTokens: 900 };
}

describe("notes flush before a mid-turn rollover", () => {
  it("gives the agent one step in the old window where only the memory tool runs, then rolls over with its notes pinned", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({ script });
    const session = budgetSession({
      store,
      model,
      tools: { read: readTool(files) },
      memory: { root: memoryRoot() },
      settings,
    });
    const flushes: string[] = [];
    session.on("notes-flush", (event) => flushes.push(event.windowId));

    const result = await session.send("read both files");

    expect(result).toMatchObject({ status: "completed", text: "notes say a.txt, b.txt" });
    expect(flushes).toEqual(["w:0"]);
    expect(calls).toHaveLength(3);
    // The flush request: the old window plus the instruction, with the same tool definitions as the
    // request before it, so it keeps the window's cached prefix (ADR 0055).
    expect(calls[1]!.tools).toEqual(calls[0]!.tools);
    expect(calls[1]!.toolNames).toContain("memory");
    expect(calls[1]!.text).toContain("AAAA");
    expect(result.rollovers).toEqual([
      expect.objectContaining({ reason: "mid-stream", flushOpportunity: true, previousWindowId: "w:0" }),
    ]);
    expect(calls[2]!.text).not.toContain("AAAA");
    expect(calls[2]!.text).toMatch(
      /Your notes from \/memories\/workspace\/context-notes\.md, if you wrote any, are in <hot_memories>/,
    );
    const rows = await readAllRows(store, "s");
    expect(sessionProblems(rows, rows.length)).toEqual([]);
    expect(rows.map((row) => row.meta?.type ?? row.role)).toEqual([
      "user",
      "assistant",
      "notes-flush",
      "assistant",
      "rollover",
      "lead-in",
      "continue",
      "assistant",
    ]);
    expect(rows[2]).toMatchObject({ synthetic: true, uiVisible: true, meta: { windowId: "w:0" } });
  });

  it("runs no tool but memory in the flush step: another tool's call ends with an error result and is not executed", async () => {
    const store = memoryStore();
    const reads: string[] = [];
    const { model, calls } = scriptedModel({
      script: (call) => {
        if (call.index === 0) return { ...readBoth, inputTokens: FORCE_AT - 1_500 };
        if (call.text.split("\n").at(-1)?.includes("rolls over after this step"))
          return { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }], inputTokens: FORCE_AT - 200 };
        return { text: "done", inputTokens: 900 };
      },
    });
    const counting = tool({
      description: "Reads a file",
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path: name }) => {
        reads.push(name);
        return files[name as keyof typeof files] ?? "";
      },
    });
    const session = budgetSession({
      store,
      model,
      tools: { read: counting },
      memory: { root: memoryRoot() },
      settings,
    });

    const result = await session.send("read both files");

    expect(result).toMatchObject({ status: "completed", text: "done" });
    expect(calls).toHaveLength(3);
    // The two reads of the first step ran; the one asked in the flush step did not.
    expect(reads).toEqual(["a.txt", "b.txt"]);
    const flushStep = (await readAllRows(store, "s")).find(
      (row, index, rows) => rows[index - 1]?.meta?.type === "notes-flush",
    )!;
    expect(flushStep.parts).toContainEqual(
      expect.objectContaining({
        type: "tool-read",
        state: "output-error",
        errorText: expect.stringContaining("Only memory runs in this step"),
      }),
    );
    expect(result.rollovers).toEqual([expect.objectContaining({ reason: "mid-stream", previousWindowId: "w:0" })]);
  });

  it("is never given without memory, when switched off, or when the hard ceiling forced the rollover", async () => {
    const cases = [
      { memory: false as const, files, inputTokens: FORCE_AT - 1_500 },
      { memory: { root: memoryRoot() }, files, inputTokens: FORCE_AT - 1_500, continuity: { notesFlush: false } },
      { memory: { root: memoryRoot() }, files: big, inputTokens: 10_000 },
    ];
    for (const { memory, files: table, inputTokens, continuity } of cases) {
      const store = memoryStore();
      const { model, calls } = scriptedModel({
        script: (call) => (call.index === 0 ? { ...readBoth, inputTokens } : { text: "ok", inputTokens: 500 }),
      });
      const session = budgetSession({
        store,
        model,
        tools: { read: readTool(table) },
        memory,
        settings,
        ...(continuity === undefined ? {} : { continuity }),
      });
      const result = await session.send("read both");
      expect(result.rollovers).toEqual([expect.objectContaining({ reason: "mid-stream", flushOpportunity: false })]);
      expect(calls).toHaveLength(2);
      expect((await readAllRows(store, "s")).some((row) => row.meta?.type === "notes-flush")).toBe(false);
    }
  });
});
