import { describe, expect, it } from "vitest";
import type { StoredRow } from "../store/port.js";
import { ContextExceededError } from "./errors.js";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "./test-support/scripted-model.js";
import { memoryStore, readTool } from "./test-support/session-fixture.js";
import { readAllRows, sessionProblems } from "./test-support/session-invariants.js";
import { recordingStore } from "./test-support/store-wrappers.js";
import {
  FORCE_AT,
  budgetSession,
  growingHotMemories,
  systemOfTokens,
  textOfTokens,
  tooLong,
} from "./test-support/rollover-setup.js";

const files = { "answer.txt": "The codeword is PLOVER.", "big.txt": "B".repeat(2_000) };
const QUESTION = "What is the codeword in answer.txt?";

/**
 * A model that decides only from what each request contains: it answers the question it can see
 * from a result it can see; it reads a stored result back through session_history when a ledger
 * names the call; otherwise it reads the file (and a big one). Without a visible question it cannot
 * know what to continue.
 */
function answerFromRequest(call: RecordedCall): ScriptedStep {
  const question = /What is the codeword in (\S+)\?/.exec(call.text);
  if (question === null) return { text: "I do not know what to continue." };
  const found = /The codeword is (\w+)/.exec(call.text);
  if (found !== null) return { text: `The codeword is ${found[1]}.` };
  const ledger = new RegExp(`item (\\d+): read \\{"path":"${question[1]!.replace(".", "\\.")}"\\}`).exec(call.text);
  if (ledger !== null)
    return { toolCalls: [{ toolName: "session_history", input: { action: "read_item", item_id: ledger[1] } }] };
  return {
    toolCalls: [
      { toolName: "read", input: { path: question[1] } },
      { toolName: "read", input: { path: "big.txt" } },
    ],
  };
}

/** The file reads a request asks for after its window began with a rollover. */
function readsAfterRollover(calls: readonly RecordedCall[], steps: ReadonlyArray<ScriptedStep>): string[] {
  return calls.flatMap((call, index) =>
    (call.text.includes("[Context window w:") ? (steps[index]?.toolCalls ?? []) : [])
      .filter((toolCall) => toolCall.toolName === "read")
      .map((toolCall) => String((toolCall.input as { path: string }).path)),
  );
}

function midStreamSetup({ carry }: { carry: boolean }) {
  const { store, appends } = recordingStore(memoryStore());
  const answered: ScriptedStep[] = [];
  const { model, calls } = scriptedModel({
    script: (call) => {
      // The first step's results push the next request past the force band.
      const step = { ...answerFromRequest(call), inputTokens: call.index === 0 ? FORCE_AT - 400 : 800 };
      answered.push(step);
      return step;
    },
  });
  const session = budgetSession({ store, model, tools: { read: readTool(files) }, continuity: { carry } });
  return { store, appends, calls, answered, session };
}

describe("the task travels with the turn", () => {
  it("carries the user input and the ledger into the continuation, so the turn finishes without re-reading", async () => {
    const { store, appends, calls, answered, session } = midStreamSetup({ carry: true });

    const result = await session.send(QUESTION);

    expect(result).toMatchObject({ status: "completed", text: "The codeword is PLOVER." });
    expect(result.rollovers).toEqual([
      expect.objectContaining({ reason: "mid-stream", previousWindowId: "w:0", windowId: "w:3" }),
    ]);
    const continued = calls[1]!.text;
    // Only the new window is sent, and it names the task, where it came from, and the finished calls.
    expect(continued).not.toContain("BBBB");
    expect(continued).toContain(`<carried_user_input item="1" window="w:0">\n${QUESTION}\n</carried_user_input>`);
    expect(continued).toContain('item 2: read {"path":"answer.txt"}');
    expect(continued).toContain('item 2: read {"path":"big.txt"}');
    expect(continued).toMatch(/\[Context window w:3 begins\.\].*the one just before is w:0/);
    expect(readsAfterRollover(calls, answered)).toEqual([]);
    expect(answered[1]?.toolCalls).toEqual([
      { toolName: "session_history", input: { action: "read_item", item_id: "2" } },
    ]);

    // Boundary + lead-in + the carried continuation: one append, one rolloverId.
    const rolloverAppend = appends.find((batch) => batch.some((row) => row.boundary !== undefined));
    expect(rolloverAppend?.map((row) => row.meta?.type)).toEqual(["rollover", "lead-in", "continue"]);
    expect(new Set(rolloverAppend?.map((row) => row.meta?.["rolloverId"])).size).toBe(1);
    const rows = await readAllRows(store, "s");
    expect(sessionProblems(rows, rows.length)).toEqual([]);
    const continueMeta = rows.find((row) => row.meta?.type === "continue")?.meta;
    expect(continueMeta?.["carry"]).toMatchObject({
      input: { itemId: "1", windowId: "w:0", text: QUESTION, truncated: false },
      omittedCalls: 0,
    });
  });

  it("without the carry (today's behaviour) the continuation names no task", async () => {
    const { calls, session } = midStreamSetup({ carry: false });
    const result = await session.send(QUESTION);
    expect(result.text).toBe("I do not know what to continue.");
    expect(calls[1]!.text.split("\n").at(-1)).toBe("user: Continue the task you were working on.");
  });

  it("carries the same input again when the continued turn rolls over a second time, with the ledger of both windows", async () => {
    const store = memoryStore();
    const more = { ...files, "c.txt": "C".repeat(2_000) };
    const { model, calls } = scriptedModel({
      script: (call) => {
        if (call.index === 0)
          return { toolCalls: [{ toolName: "read", input: { path: "big.txt" } }], inputTokens: FORCE_AT - 400 };
        if (call.index === 1)
          return { toolCalls: [{ toolName: "read", input: { path: "c.txt" } }], inputTokens: FORCE_AT - 400 };
        return { ...answerFromRequest(call), inputTokens: 800 };
      },
    });
    const session = budgetSession({ store, model, tools: { read: readTool(more) } });
    const result = await session.send(QUESTION);
    expect(result.rollovers.map((rollover) => rollover.windowId)).toEqual(["w:3", "w:7"]);
    const third = calls[2]!.text;
    expect(third).toContain(`<carried_user_input item="1" window="w:0">`);
    expect(third).toContain('item 2: read {"path":"big.txt"}');
    expect(third).toContain('item 6: read {"path":"c.txt"}');
    expect(third).not.toContain("CCCC");
    const rows: StoredRow[] = await readAllRows(store, "s");
    expect(sessionProblems(rows, rows.length)).toEqual([]);
  });
});

describe("the carry is counted in the preflight", () => {
  it("is cut further when the fresh window could not hold it whole under the hard ceiling", async () => {
    const store = memoryStore();
    // The notes grow during the turn: the fresh window has less room than when the input was sent.
    const notes = growingHotMemories(2_000);
    const longQuestion = `${QUESTION} ${textOfTokens(2_500, "context")}`;
    const { model, calls } = scriptedModel({
      script: (call) =>
        call.index === 0
          ? { toolCalls: [{ toolName: "read", input: { path: "big.txt" } }], inputTokens: FORCE_AT - 400 }
          : { text: "done", inputTokens: 800 },
    });
    const read = readTool(files);
    const session = budgetSession({
      store,
      model,
      system: systemOfTokens(10_000),
      hotMemories: notes.hotMemories,
      tools: {
        read: {
          ...read,
          execute: async (...args: Parameters<NonNullable<typeof read.execute>>) => (
            notes.grow(),
            read.execute!(...args)
          ),
        },
      },
      settings: { warningTurnTokens: 0 },
    });

    const result = await session.send(longQuestion);

    expect(result, result.reason).toMatchObject({
      status: "completed",
      rollovers: [expect.objectContaining({ reason: "mid-stream" })],
    });
    const carry = (await readAllRows(store, "s")).find((row) => row.meta?.type === "continue")?.meta?.["carry"] as {
      input: { truncated: boolean; text: string };
    };
    expect(carry.input.truncated).toBe(true);
    // Halved from the 2,000-token bound at least once: the session's own count of the carried text.
    expect(textOfTokens(1_000, "context").length).toBeGreaterThan(carry.input.text.length);
    expect(calls[1]!.text).toContain('truncated="true"');
  });
});

describe("context exceeded after a tool result in the same turn (issue 15 item 4)", () => {
  it("rolls over and continues the turn with the carried task instead of failing", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({
      script: (call) => {
        if (call.index === 0)
          return { toolCalls: [{ toolName: "read", input: { path: "answer.txt" } }], inputTokens: 2_000 };
        if (!call.text.includes("[Context window w:")) return { error: tooLong() };
        return { ...answerFromRequest(call), inputTokens: 800 };
      },
    });
    const session = budgetSession({ store, model, tools: { read: readTool(files) } });

    const result = await session.send(QUESTION);

    expect(result).toMatchObject({ status: "completed", text: "The codeword is PLOVER." });
    expect(result.rollovers).toEqual([
      expect.objectContaining({ reason: "context-exceeded", flushOpportunity: false, previousWindowId: "w:0" }),
    ]);
    // Refused request, then the continuation: it reads the stored result back instead of the file.
    expect(calls).toHaveLength(4);
    expect(calls[2]!.text).toContain("refused the previous request as too long");
    expect(calls[2]!.text).toContain(`<carried_user_input item="1" window="w:0">`);
    expect(calls[2]!.text).toContain('item 2: read {"path":"answer.txt"}');
    expect(calls[2]!.text).not.toContain("result read");
    const rows = await readAllRows(store, "s");
    expect(sessionProblems(rows, rows.length)).toEqual([]);
    expect(rows.filter((row) => row.meta?.type === "continue")).toHaveLength(1);
  });

  it("fails clearly when the continued request is refused again", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({
      script: (call) =>
        call.index === 0
          ? { toolCalls: [{ toolName: "read", input: { path: "answer.txt" } }], inputTokens: 2_000 }
          : { error: tooLong() },
    });
    const session = budgetSession({ store, model, tools: { read: readTool(files) } });
    const result = await session.send(QUESTION);
    expect(result.status).toBe("failed");
    expect(ContextExceededError.isInstance(result.error)).toBe(true);
    expect(calls).toHaveLength(3);
  });
});
