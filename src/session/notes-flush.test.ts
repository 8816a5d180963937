import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "./test-support/scripted-model.js";
import { memoryStore, readTool } from "./test-support/session-fixture.js";
import { readAllRows, sessionProblems } from "./test-support/session-invariants.js";
import { budgetSession } from "./test-support/rollover-setup.js";

const directories: string[] = [];
afterEach(() => {
  while (directories.length > 0) fs.rmSync(directories.pop()!, { recursive: true, force: true });
});

function memoryRoot(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-notes-flush-"));
  directories.push(directory);
  return directory;
}

// Threshold 0.6: the force band (65%, 13,000 tokens) lies below the hard ceiling (15,000), as with any
// limit above ~33k tokens; at the default 0.7 and a 20k limit the two coincide and no flush could fit.
const settings = { threshold: 0.6 };
const FORCE_AT = 13_000;
const NOTES = "/memories/workspace/context-notes.md";
const files = { "a.txt": "A".repeat(2_000), "b.txt": "B".repeat(2_000) };
const big = { "a.txt": "A".repeat(14_000), "b.txt": "B".repeat(14_000) };
const readBoth = { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }, { toolName: "read", input: { path: "b.txt" } }] };

/** Reads both files first; asked to flush, writes what the request shows it read; else answers from its notes. */
function script(call: RecordedCall): ScriptedStep {
  if (call.index === 0) return { ...readBoth, inputTokens: FORCE_AT - 1_500 };
  if (call.text.split("\n").at(-1)?.includes("rolls over after this step")) {
    const read = [...call.text.matchAll(/call read \{"path":"(\S+?)"\}/g)].map((match) => match[1]).join(", ");
    return { toolCalls: [{ toolName: "memory", input: { command: "create", path: NOTES, file_text: `Read so far: ${read};` } }], inputTokens: FORCE_AT - 200 };
  }
  const notes = /Read so far: ([^;]+);/.exec(call.system);
  return { text: notes === null ? "no notes" : `notes say ${notes[1]}`, inputTokens: 900 };
}

describe("notes flush before a mid-turn rollover", () => {
  it("gives the agent one memory-only step in the old window, then rolls over with its notes pinned", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({ script });
    const session = budgetSession({ store, model, tools: { read: readTool(files) }, memory: { root: memoryRoot() }, settings });
    const flushes: string[] = [];
    session.on("notes-flush", (event) => flushes.push(event.windowId));

    const result = await session.send("read both files");

    expect(result).toMatchObject({ status: "completed", text: "notes say a.txt, b.txt" });
    expect(flushes).toEqual(["w:0"]);
    expect(calls).toHaveLength(3);
    // The flush request: the old window plus the instruction, only the memory tool offered.
    expect(calls[1]!.toolNames).toEqual(["memory"]);
    expect(calls[1]!.text).toContain("AAAA");
    expect(result.rollovers).toEqual([expect.objectContaining({ reason: "mid-stream", flushOpportunity: true, previousWindowId: "w:0" })]);
    expect(calls[2]!.text).not.toContain("AAAA");
    expect(calls[2]!.text).toMatch(/Your notes from \/memories\/workspace\/context-notes\.md, if you wrote any, are in <hot_memories>/);
    const rows = await readAllRows(store, "s");
    expect(sessionProblems(rows, rows.length)).toEqual([]);
    expect(rows.map((row) => row.meta?.type ?? row.role)).toEqual(["user", "assistant", "notes-flush", "assistant", "rollover", "lead-in", "continue", "assistant"]);
    expect(rows[2]).toMatchObject({ synthetic: true, uiVisible: true, meta: { windowId: "w:0" } });
  });

  it("is never given without memory, when switched off, or when the hard ceiling forced the rollover", async () => {
    const cases = [
      { memory: false as const, files, inputTokens: FORCE_AT - 1_500 },
      { memory: { root: memoryRoot() }, files, inputTokens: FORCE_AT - 1_500, continuity: { notesFlush: false } },
      { memory: { root: memoryRoot() }, files: big, inputTokens: 10_000 },
    ];
    for (const { memory, files: table, inputTokens, continuity } of cases) {
      const store = memoryStore();
      const { model, calls } = scriptedModel({ script: (call) => (call.index === 0 ? { ...readBoth, inputTokens } : { text: "ok", inputTokens: 500 }) });
      const session = budgetSession({ store, model, tools: { read: readTool(table) }, memory, settings, ...(continuity === undefined ? {} : { continuity }) });
      const result = await session.send("read both");
      expect(result.rollovers).toEqual([expect.objectContaining({ reason: "mid-stream", flushOpportunity: false })]);
      expect(calls).toHaveLength(2);
      expect((await readAllRows(store, "s")).some((row) => row.meta?.type === "notes-flush")).toBe(false);
    }
  });
});
