import { tool, type Tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { COMPACTION_INSTRUCTION } from "./compaction.js";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "./test-support/scripted-model.js";
import { memoryStore } from "./test-support/session-fixture.js";
import { readAllRows, sessionProblems } from "./test-support/session-invariants.js";
import { budgetSession, growingHotMemories, systemOfTokens, textOfTokens } from "./test-support/rollover-setup.js";

// At a 32k limit the force band (75%) is the hard ceiling (24,000): a window compacted there could
// never be sent to be summarized. The threshold is 22,400, the warn band starts at 19,200.
const LIMIT = 32_000;
const FILES = ["f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"];
const fileText = (name: string) => `FILE ${name}\n${textOfTokens(1_500, name.toUpperCase())}`;

const readFile = tool({
  description: "Reads a file",
  inputSchema: z.object({ name: z.string() }),
  execute: async ({ name }) => fileText(name),
}) as Tool;

const TASK = "Read f1 to f8 with read_file, one per step, then answer done.";

/**
 * A compact-strategy session at {@link LIMIT} with a 13,000-token system prompt, whose model plays {@link script} and
 * reads the files with `readFileTool`.
 */
function compactingSession(readFileTool: Tool, options: Partial<Parameters<typeof budgetSession>[0]> = {}) {
  const store = memoryStore();
  const { model, calls } = scriptedModel({ script });
  const session = budgetSession({
    store,
    model,
    system: systemOfTokens(13_000),
    tools: { read_file: readFileTool },
    settings: { contextLimit: LIMIT, strategy: "compact" },
    ...options,
  });
  return { store, calls, session };
}

const isSummaryRequest = (call: RecordedCall) => call.text.endsWith(`user: ${COMPACTION_INSTRUCTION}`);

/** Files the request shows as read: results in view, or named by a summary in view. */
function filesInView(call: RecordedCall): string[] {
  const read = new Set([...call.text.matchAll(/FILE (f\d)/g)].map((match) => match[1]!));
  for (const match of call.text.matchAll(/SUMMARY: read ([f\d, ]+)\./g))
    for (const name of match[1]!.split(", ")) read.add(name);
  return FILES.filter((name) => read.has(name));
}

/** Reads the files one per step; summarizes what it has read; answers when it has read them all. */
function script(call: RecordedCall): ScriptedStep {
  const read = filesInView(call);
  if (isSummaryRequest(call))
    return { text: `SUMMARY: read ${read.join(", ")}. Task: read f1 to f8, then answer done.` };
  const next = FILES.find((name) => !read.includes(name));
  if (next === undefined) return { text: `done: ${read.join(" ")}` };
  return { toolCalls: [{ toolName: "read_file", input: { name: next } }] };
}

describe("strategy compact where the force band is the hard ceiling (issue 27)", () => {
  it("compacts a turn mid-way while the summary request still fits, and the turn finishes", async () => {
    const { store, calls, session } = compactingSession(readFile);

    const result = await session.send(TASK);

    expect(result.reason ?? result.error?.message, "the send ends without a reason").toBeUndefined();
    expect(result).toMatchObject({ status: "completed", text: `done: ${FILES.join(" ")}`, rollovers: [] });
    expect(result.compactions.length).toBeGreaterThanOrEqual(1);
    // The summary was asked for before the window reached the hard ceiling, and within it.
    const summaryCalls = calls.filter(isSummaryRequest);
    expect(summaryCalls.length).toBe(result.compactions.length);
    const rows = await readAllRows(store, "s");
    expect(sessionProblems(rows, rows.length)).toEqual([]);
    expect(rows.filter((row) => row.meta?.type === "compaction-summary")).toHaveLength(result.compactions.length);
  });
});

describe("a window a summary request cannot hold whole", () => {
  it("is summarized from its oldest rows that fit; the summary names the rows it does not cover", async () => {
    // f5 is large: reading it takes the window from below the threshold to past the hard ceiling in one step.
    const sized = tool({
      description: "Reads a file",
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }) => (name === "f5" ? `FILE f5\n${textOfTokens(5_000, "F5")}` : fileText(name)),
    }) as Tool;
    const { store, calls, session } = compactingSession(sized);

    const result = await session.send(TASK);

    expect(result.reason ?? result.error?.message, "the send ends without a reason").toBeUndefined();
    expect(result).toMatchObject({ status: "completed", text: `done: ${FILES.join(" ")}` });
    const rows = await readAllRows(store, "s");
    expect(sessionProblems(rows, rows.length)).toEqual([]);
    const f5Step = rows.find((row) => row.role === "assistant" && JSON.stringify(row.parts).includes('"name":"f5"'))!;
    const summary = rows.find(
      (row) => row.meta?.type === "compaction-summary" && row.meta["unsummarized"] !== undefined,
    );
    expect(summary?.meta?.["unsummarized"]).toEqual({
      firstItemId: String(f5Step.seq),
      lastItemId: String(f5Step.seq),
    });
    // The summary request did not carry the step it could not hold; the next window says so.
    const summaryCall = calls.find((call) => isSummaryRequest(call) && !call.text.includes("FILE f5"));
    expect(summaryCall).toBeDefined();
    const after = calls[calls.indexOf(summaryCall!) + 1]!;
    expect(after.text).toContain(`Item ${f5Step.seq} of the compacted window came after what this summary covers`);
    expect(after.text).toContain("read them with session_history read_item if you need them");
  });

  it("ends the send blocked with the reason when not even its first message fits a summary request", async () => {
    // The notes grow during the turn until the system prompt alone nearly fills the hard ceiling.
    const notes = growingHotMemories(10_500);
    const growing = tool({
      description: "Reads a file",
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }) => (notes.grow(), fileText(name)),
    }) as Tool;
    const { store, calls, session } = compactingSession(growing, { hotMemories: notes.hotMemories });

    const result = await session.send(TASK);

    expect(result.status).toBe("blocked");
    expect(result.reason).toMatch(
      /^The window cannot be summarized with mock:scripted: even its first message does not fit a summary request under the hard ceiling/,
    );
    expect(calls.some(isSummaryRequest)).toBe(false);
    const rows = await readAllRows(store, "s");
    expect(sessionProblems(rows, rows.length)).toEqual([]);
  });
});
