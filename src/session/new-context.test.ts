import { describe, expect, it } from "vitest";
import { HANDOFF_NOTE_MAX_CHARS, MIN_STEPS_AFTER_REQUESTED } from "../core/rollover/new-context.js";
import type { HistoryStore } from "../store/port.js";
import { scriptedModel, type RecordedCall, type Script, type ScriptedStep } from "./test-support/scripted-model.js";
import { memoryStore, readTool } from "./test-support/session-fixture.js";
import { readAllRows, sessionProblems } from "./test-support/session-invariants.js";
import { recordingStore } from "./test-support/store-wrappers.js";
import { budgetSession } from "./test-support/rollover-setup.js";

const files = { "a.txt": `The codeword is PLOVER. ${"A".repeat(2_000)}` };
const TASK = "Read a.txt, then continue in a fresh window and report its codeword.";
const newContext = (note?: unknown): ScriptedStep => ({
  toolCalls: [{ toolName: "new_context", input: note === undefined ? {} : { note } }],
});

/** The `new_context` results a request shows, oldest first. */
function newContextResults(call: RecordedCall): Array<{ status: string; code?: string; message: string }> {
  return [...call.text.matchAll(/result new_context (\{.*\})$/gm)].map(
    (match) => (JSON.parse(match[1]!) as { value: { status: string; code?: string; message: string } }).value,
  );
}

/**
 * Decides only from the request: with a handoff note in view it reports from it; having read the
 * file it asks for a fresh window with a note of what it found; otherwise it reads the file.
 */
function reporter(call: RecordedCall): ScriptedStep {
  const handoff = /<handoff_note>\n([\s\S]*?)\n<\/handoff_note>/.exec(call.text);
  if (handoff !== null) return { text: `From my note: ${handoff[1]}` };
  const found = /The codeword is (\w+)/.exec(call.text);
  if (found !== null) return newContext(`a.txt read; the codeword is ${found[1]}.`);
  return { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }] };
}

/** A budget session over `store` offering `new_context` and a `read` tool over `files`, its model playing `script`. */
function newContextSession(script: Script, store: HistoryStore = memoryStore()) {
  const { model, calls } = scriptedModel({ script });
  const session = budgetSession({
    store,
    model,
    tools: { read: readTool(files) },
    continuity: { newContextTool: true },
  });
  return { calls, session };
}

describe("new_context: the agent asks for a fresh window", () => {
  it("rolls over at the step boundary with reason `requested`, the lead-in quoting its note, in one append", async () => {
    const { store, appends } = recordingStore(memoryStore());
    const { calls, session } = newContextSession(reporter, store);

    const result = await session.send(TASK);

    expect(result).toMatchObject({ status: "completed", text: "From my note: a.txt read; the codeword is PLOVER." });
    expect(result.rollovers).toEqual([
      expect.objectContaining({
        reason: "requested",
        previousWindowId: "w:0",
        windowId: "w:4",
        flushOpportunity: true,
        handoffNote: "a.txt read; the codeword is PLOVER.",
      }),
    ]);
    expect(calls).toHaveLength(3);
    expect(newContextResults(calls[2]!)).toEqual([]);
    const fresh = calls[2]!.text;
    // Only the new window: the lead-in with the quoted note, then the task carried into it.
    expect(fresh).not.toContain("AAAA");
    expect(fresh).toMatch(/\[Context window w:4 begins\.\] You asked for a fresh window with new_context/);
    expect(fresh).toContain(
      "You left yourself this handoff note when you asked for this window " +
        "(your own words, quoted):\n<handoff_note>\na.txt read; the codeword is PLOVER.\n</handoff_note>",
    );
    expect(fresh).toContain(`<carried_user_input item="1" window="w:0">\n${TASK}\n</carried_user_input>`);

    const rolloverAppend = appends.find((batch) => batch.some((row) => row.boundary !== undefined));
    expect(rolloverAppend?.map((row) => row.meta?.type)).toEqual(["rollover", "lead-in", "continue"]);
    expect(new Set(rolloverAppend?.map((row) => row.meta?.["rolloverId"])).size).toBe(1);
    const rows = await readAllRows(store, "s");
    expect(sessionProblems(rows, rows.length)).toEqual([]);
    expect(rows.find((row) => row.boundary !== undefined)?.meta).toMatchObject({
      type: "rollover",
      reason: "requested",
      previousWindowId: "w:0",
    });
    expect(rows.find((row) => row.meta?.type === "lead-in")?.meta).toMatchObject({
      handoffNote: "a.txt read; the codeword is PLOVER.",
    });
  });

  it("is offered only when the session opts in, its strategy rolls over, and the allowlist grants it with session_history", async () => {
    const cases: Array<{
      options: Parameters<typeof budgetSession>[0] extends infer T ? Partial<T> : never;
      offered: boolean;
    }> = [
      { options: {}, offered: false },
      { options: { continuity: { newContextTool: false } }, offered: false },
      { options: { continuity: { newContextTool: true } }, offered: true },
      {
        options: { continuity: { newContextTool: true }, toolPolicy: { allow: ["read", "session_history"] } },
        offered: false,
      },
      {
        options: { continuity: { newContextTool: true }, toolPolicy: { allow: ["read", "new_context"] } },
        offered: false,
      },
      {
        options: { continuity: { newContextTool: true }, toolPolicy: { allow: ["new_context", "session_history"] } },
        offered: true,
      },
      { options: { continuity: { newContextTool: true }, settings: { strategy: "compact" } }, offered: false },
      { options: { continuity: { newContextTool: true }, settings: { strategy: "off" } }, offered: false },
    ];
    for (const { options, offered } of cases) {
      const { model, calls } = scriptedModel({ script: [{ text: "ok" }] });
      const session = budgetSession({ store: memoryStore(), model, tools: { read: readTool(files) }, ...options });
      await session.send("hello");
      expect(calls[0]!.toolNames.includes("new_context"), JSON.stringify(options)).toBe(offered);
    }
  });

  it("is refused while the window is fresh and too soon after a requested window began", async () => {
    const store = memoryStore();
    const steps = MIN_STEPS_AFTER_REQUESTED;
    // Fresh (no step yet) → refused; one read; accepted; in the new window: fresh, then too recent until `steps` steps settled.
    const script: ScriptedStep[] = [
      newContext(),
      { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }] },
      newContext("first"),
    ];
    for (let index = 0; index < steps; index += 1) script.push(newContext("again"));
    script.push(newContext("second"), { text: "done" });
    const { calls, session } = newContextSession(script, store);

    const result = await session.send(TASK);

    expect(result.status).toBe("completed");
    expect(result.rollovers.map((rollover) => [rollover.reason, rollover.handoffNote])).toEqual([
      ["requested", "first"],
      ["requested", "second"],
    ]);
    expect(newContextResults(calls[1]!)).toEqual([
      expect.objectContaining({
        status: "refused",
        code: "window_fresh",
        message: expect.stringMatching(/^Window w:0 is already fresh/),
      }),
    ]);
    // The window opened at w:5 (rows 1–4 before it): its first call is refused as fresh, the next ones as too recent.
    const inNewWindow = calls.slice(4, 4 + steps).map((call) => newContextResults(call).at(-1));
    expect(inNewWindow[0]).toMatchObject({ status: "refused", code: "window_fresh" });
    expect(inNewWindow.slice(1)).toEqual(
      Array.from({ length: steps - 1 }, (_, index) =>
        expect.objectContaining({
          status: "refused",
          code: "too_recent",
          message: expect.stringContaining(`began at your own request ${index + 1} step`),
        }),
      ),
    );
    const rows = await readAllRows(store, "s");
    expect(sessionProblems(rows, rows.length)).toEqual([]);
    expect(rows.filter((row) => row.boundary !== undefined)).toHaveLength(2);
  });

  it("bounds the note: the longest one is quoted whole, a longer one is refused, a tag cannot close the quote", async () => {
    const longest = `${"n".repeat(HANDOFF_NOTE_MAX_CHARS - 16)}</handoff_note>x`;
    for (const [note, accepted] of [
      ["n".repeat(HANDOFF_NOTE_MAX_CHARS + 1), false],
      [42, false],
      [longest, true],
    ] as const) {
      const { calls, session } = newContextSession([
        { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }] },
        newContext(note),
        { text: "done" },
      ]);
      const result = await session.send(TASK);
      expect(result.rollovers).toHaveLength(accepted ? 1 : 0);
      if (!accepted) {
        expect(newContextResults(calls[2]!)).toEqual([
          expect.objectContaining({ status: "refused", code: "invalid_input" }),
        ]);
        continue;
      }
      const quoted = /<handoff_note>\n([\s\S]*)\n<\/handoff_note>/.exec(calls[2]!.text)?.[1];
      expect(longest).toHaveLength(HANDOFF_NOTE_MAX_CHARS);
      expect(quoted).toBe(longest.replace("</handoff_note>", "&lt;/handoff_note>"));
    }
  });

  it("takes two calls in one step as one request and keeps the first note", async () => {
    const store = memoryStore();
    const { session } = newContextSession(
      [
        { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }] },
        {
          toolCalls: [
            { toolName: "new_context", input: { note: "one" } },
            { toolName: "new_context", input: { note: "two" } },
          ],
        },
        { text: "done" },
      ],
      store,
    );
    const result = await session.send(TASK);
    expect(result.rollovers.map((rollover) => rollover.handoffNote)).toEqual(["one"]);
    const rows = await readAllRows(store, "s");
    expect(sessionProblems(rows, rows.length)).toEqual([]);
  });
});
