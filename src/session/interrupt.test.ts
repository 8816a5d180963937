/**
 * Interrupting a send with its `signal` (docs/adr/0011): what streamed is stored as a partial step,
 * no orphaned tool call is stored or sent, nothing more runs for that send, nothing is stored for
 * a send interrupted before its input, and the session goes on normally afterwards.
 */
import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { HistoryStore } from "../store/port.js";
import { createAgentSession } from "./create-agent-session.js";
import { createDeferred } from "./deferred.js";
import type { SendResult } from "./session-types.js";
import { COMPACTION_INSTRUCTION } from "./compaction.js";
import {
  FORCE_AT,
  THRESHOLD_AT,
  WARN_AT,
  budgetSession,
  readBoth,
  readBothPastForceBand,
  readingSession,
  twoFiles,
  twoFilesSession,
} from "./test-support/rollover-setup.js";
import { scriptedModel, type RecordedCall } from "./test-support/scripted-model.js";
import {
  deterministic,
  interruptAfterFirstStep,
  recordEvents,
  scriptedSession,
  memoryStore,
  readTool,
  rowText,
  testSession,
} from "./test-support/session-fixture.js";
import { readAllRows, sessionProblems } from "./test-support/session-invariants.js";

async function expectInvariants(store: HistoryStore): Promise<void> {
  const rows = await readAllRows(store, "s");
  expect(sessionProblems(rows, (await store.activeWindow("s")).lastSeq)).toEqual([]);
}

describe("interrupting a send", () => {
  it("mid-stream: stores what streamed as an interrupted step, ends `interrupted`, and the next send works on a valid history", async () => {
    const { store, calls, session } = scriptedSession([
      { textChunks: ["Hello, ", "wor"], stallUntilAborted: true },
      { text: "Fine, go on." },
    ]);
    const controller = new AbortController();
    const deltas = recordEvents(session, "text-delta");
    const errors = recordEvents(session, "error");
    const turnEnds = recordEvents(session, "turn-end");
    session.on("text-delta", (event) => {
      if (event.delta === "wor") controller.abort();
    });

    const result = await session.send("Say hello.", { signal: controller.signal });

    expect(result).toMatchObject({ status: "interrupted", text: "Hello, wor", rollovers: [], warnings: [] });
    expect(result.error).toBeUndefined();
    expect(errors).toEqual([]);
    expect(deltas).toEqual([
      { delta: "Hello, ", stepIndex: 0 },
      { delta: "wor", stepIndex: 0 },
    ]);
    expect(turnEnds.map((event) => event.status)).toEqual(["interrupted"]);
    const rows = await readAllRows(store, "s");
    expect(rows.map((row) => [row.role, rowText(row)])).toEqual([
      ["user", "Say hello."],
      ["assistant", "Hello, wor"],
    ]);
    expect(rows[1]!.metadata).toMatchObject({ ctxwinStep: { finishReason: "interrupted" } });

    const next = await session.send("Go on.");
    expect(next).toMatchObject({ status: "completed", text: "Fine, go on." });
    expect(calls).toHaveLength(2);
    expect(calls[1]!.text).toBe("user: Say hello.\nassistant: Hello, wor\nuser: Go on.");
    await expectInvariants(store);
  });

  it("during a tool's execute: the tool sees the abort, its call is dropped, the rest of the step kept, no orphaned call reaches the provider", async () => {
    const store = memoryStore();
    const started = createDeferred<void>();
    let toolSawAbort = false;
    const slow = tool({
      description: "Runs for a long time",
      inputSchema: z.object({}),
      execute: async (_input, { abortSignal }) =>
        new Promise<string>((_resolve, reject) => {
          abortSignal?.addEventListener("abort", () => {
            toolSawAbort = true;
            reject(abortSignal.reason);
          });
          started.resolve();
        }),
    });
    const { model, calls } = scriptedModel({
      script: [{ text: "Checking.", toolCalls: [{ toolName: "slow", input: {} }] }, { text: "Understood." }],
    });
    const session = createAgentSession({
      store,
      sessionId: "s",
      model,
      tools: { slow },
      budget: { contextLimit: 100_000 },
      ...deterministic(),
    });
    const controller = new AbortController();

    const sending = session.send("Run the slow check.", { signal: controller.signal });
    await started.promise;
    controller.abort();
    const result = await sending;

    expect(result).toMatchObject({ status: "interrupted", text: "Checking." });
    expect(toolSawAbort).toBe(true);
    const rows = await readAllRows(store, "s");
    expect(rows).toHaveLength(2);
    expect(rows[1]!.parts.map((part) => part.type)).toEqual(["step-start", "text"]);

    const next = await session.send("Skip it.");
    expect(next.status).toBe("completed");
    expect(calls).toHaveLength(2);
    expect(calls[1]!.text).not.toContain("call slow");
    expect(calls[1]!.prompt.some((message) => message.role === "tool")).toBe(false);
    await expectInvariants(store);
  });

  it("between steps: the settled step with its tool results is kept and no further step runs", async () => {
    const { store, calls, session } = scriptedSession(
      [{ text: "Reading.", ...readBoth }, { text: "never" }, { text: "Later." }],
      { tools: { read: readTool(twoFiles) } },
    );
    const controller = new AbortController();
    session.on("step-end", () => controller.abort());

    const result = await session.send("Read both.", { signal: controller.signal });

    expect(result).toMatchObject({ status: "interrupted", text: "Reading." });
    expect(calls).toHaveLength(1);
    const rows = await readAllRows(store, "s");
    expect(rows.map((row) => row.role)).toEqual(["user", "assistant"]);
    expect(
      rows[1]!.parts.filter((part) => part.type === "tool-read").map((part) => (part as { state: string }).state),
    ).toEqual(["output-available", "output-available"]);
    await session.send("Go on.");
    expect(calls[1]!.text).toContain("result read");
    await expectInvariants(store);
  });

  it("while queued behind another send: returns at once, stores nothing, never calls the provider; the running send is unaffected", async () => {
    const store = memoryStore();
    const gate = createDeferred<void>();
    const { model, calls } = scriptedModel({
      script: (call) => ({ text: `answer ${call.index}` }),
      beforeAnswer: async (call) => (call.index === 0 ? gate.promise : undefined),
    });
    const session = testSession({
      store,
      model,
    });
    const turnStarts = recordEvents(session, "turn-start");
    const controller = new AbortController();

    const first = session.send("first");
    const queued = session.send("queued", { signal: controller.signal });
    controller.abort();
    const queuedResult = await queued;
    expect(queuedResult).toMatchObject({ status: "interrupted", text: "", usage: { steps: 0 } });
    expect(turnStarts).toHaveLength(1);

    gate.resolve();
    expect(await first).toMatchObject({ status: "completed", text: "answer 0" });
    const third = await session.send("third");
    expect(third.text).toBe("answer 1");
    const rows = await readAllRows(store, "s");
    expect(rows.map(rowText)).toEqual(["first", "answer 0", "third", "answer 1"]);
    expect(calls.map((call) => call.text.split("\n").at(-1))).toEqual(["user: first", "user: third"]);
    await expectInvariants(store);
  });

  it("while its continuation runs in another send's loop: that turn stops, the other send goes on", async () => {
    const controllerA = new AbortController();
    const { store, calls, session } = twoFilesSession((call) =>
      call.index === 0
        ? { ...readBoth, inputTokens: FORCE_AT - 400 }
        : call.index === 1
          ? { textChunks: ["resum"], stallUntilAborted: true }
          : { text: "answer B", inputTokens: 900 },
    );
    let sendingB: Promise<SendResult> | undefined;
    // B arrives after A's turn latched its rollover and queued A's continue: B's loop, first in line
    // for the lock, runs A's continue.
    session.on("turn-end", () => (sendingB ??= session.send("B: what next?")));
    session.on("text-delta", (event) => {
      if (event.delta === "resum") controllerA.abort();
    });

    const resultA = await session.send("A: read both files", { signal: controllerA.signal });
    const resultB = await sendingB!;

    expect(resultA).toMatchObject({
      status: "interrupted",
      text: "resum",
      rollovers: [expect.objectContaining({ reason: "mid-stream" })],
    });
    expect(resultB).toMatchObject({ status: "completed", text: "answer B", rollovers: [] });
    expect(calls).toHaveLength(3);
    expect(calls[2]!.text.split("\n").slice(-2)).toEqual(["assistant: resum", "user: B: what next?"]);
    // A's continuation (carrying A's input) stays in the window before B's input.
    expect(calls[2]!.text).toMatch(
      /user: Continue the task you were working on\.\n\nThe turn you are continuing began with this user input \(item 1, window w:0\)[^]*A: read both files[^]*assistant: resum/,
    );
    await expectInvariants(store);
  });

  it("with a signal already aborted: stores nothing, calls nothing, emits nothing", async () => {
    const { store, calls, session } = scriptedSession([{ text: "hello" }]);
    const events = [
      recordEvents(session, "turn-start"),
      recordEvents(session, "error"),
      recordEvents(session, "step-end"),
    ];

    const result = await session.send("hello", { signal: AbortSignal.abort() });

    expect(result).toEqual({
      status: "interrupted",
      text: "",
      rollovers: [],
      warnings: [],
      compactions: [],
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, steps: 0 },
    });
    expect(calls).toHaveLength(0);
    expect(events.flat()).toEqual([]);
    expect((await store.activeWindow("s")).lastSeq).toBe(0);
    expect((await session.send("again")).text).toBe("hello");
  });

  it("before anything streamed is not a provider failure: no fallback model is tried, no error event", async () => {
    const store = memoryStore();
    const controller = new AbortController();
    const primary = scriptedModel({
      script: [{ stallUntilAborted: true }],
      beforeAnswer: async () => controller.abort(),
    });
    const fallback = scriptedModel({ script: [{ text: "fallback answer" }], modelId: "fallback" });
    const session = createAgentSession({
      store,
      sessionId: "s",
      model: primary.model,
      fallbackModels: [fallback.model],
      budget: { contextLimit: 100_000 },
      ...deterministic(),
    });
    const errors = recordEvents(session, "error");

    const result = await session.send("hello", { signal: controller.signal });

    expect(result).toMatchObject({ status: "interrupted", text: "" });
    expect(fallback.calls).toHaveLength(0);
    expect(errors).toEqual([]);
    // The input was stored before the call; no assistant row (nothing streamed).
    expect((await readAllRows(store, "s")).map((row) => row.role)).toEqual(["user"]);
    await expectInvariants(store);
  });
});

describe("interrupting a send at a budget action", () => {
  it("a rollover decided by the last settled step stays latched: the continuation does not run, the next input gets the rollover", async () => {
    const { store, calls, session } = twoFilesSession(readBothPastForceBand("answer in the new window"));
    const interrupted = await interruptAfterFirstStep(session, "read both files");
    expect(interrupted).toMatchObject({ status: "interrupted", rollovers: [] });
    expect(calls).toHaveLength(1);
    expect((await readAllRows(store, "s")).some((row) => row.meta?.type === "continue")).toBe(false);

    const next = await session.send("what next?");
    expect(next).toMatchObject({ status: "completed", text: "answer in the new window" });
    expect(next.rollovers).toEqual([expect.objectContaining({ reason: "mid-stream", previousWindowId: "w:0" })]);
    expect(calls[1]!.text).not.toContain("AAAA");
    expect(calls[1]!.text.split("\n").at(-1)).toBe("user: what next?");
    await expectInvariants(store);
  });

  it("a warning decided by the last settled step rides in front of the next input instead of running its own turn", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({
      script: [
        { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }], inputTokens: WARN_AT + 100 },
        { text: "noted", inputTokens: WARN_AT + 700 },
      ],
    });
    const session = readingSession({ store, model });
    const interrupted = await interruptAfterFirstStep(session, "read a");
    expect(interrupted).toMatchObject({ status: "interrupted", warnings: [] });
    expect(calls).toHaveLength(1);

    const next = await session.send("and now?");
    expect(next.warnings).toHaveLength(1);
    const lines = calls[1]!.text.split("\n");
    expect(lines.at(-2)).toMatch(/^user: \[Context budget\] Window w:0 holds about/);
    expect(lines.at(-1)).toBe("user: and now?");
    await expectInvariants(store);
  });

  it("during strategy compact's summary: no summary is kept, the input is not stored, and the next send compacts", async () => {
    const store = memoryStore();
    const controller = new AbortController();
    const isSummary = (call: RecordedCall) => call.text.endsWith(`user: ${COMPACTION_INSTRUCTION}`);
    let summaries = 0;
    const { model, calls } = scriptedModel({
      script: (call) => {
        if (!isSummary(call))
          return call.index === 0
            ? { text: "first answer", inputTokens: THRESHOLD_AT + 100 }
            : { text: "second answer", inputTokens: 1_200 };
        summaries += 1;
        return summaries === 1
          ? { textChunks: ["SUMMARY: half"], stallUntilAborted: true }
          : { text: "SUMMARY: whole" };
      },
      beforeAnswer: async (call) => {
        if (isSummary(call) && summaries === 0) controller.abort();
      },
    });
    const session = budgetSession({ store, model, settings: { strategy: "compact" } });
    const errors = recordEvents(session, "error");
    await session.send("first question");

    const interrupted = await session.send("second question", { signal: controller.signal });
    expect(interrupted).toMatchObject({ status: "interrupted", compactions: [] });
    expect(errors).toEqual([]);
    expect((await readAllRows(store, "s")).map(rowText)).toEqual(["first question", "first answer"]);

    const next = await session.send("second question");
    expect(next).toMatchObject({
      status: "completed",
      text: "second answer",
      compactions: [expect.objectContaining({ previousWindowId: "w:0" })],
    });
    expect(calls.at(-1)!.text).toContain("SUMMARY: whole");
    expect(calls.at(-1)!.text).not.toContain("SUMMARY: half");
    expect(calls.filter(isSummary)).toHaveLength(2);
    await expectInvariants(store);
  });
});

describe("streaming events", () => {
  it("text-delta events concatenate, step by step, to the stored text; every turn has a turn-start and a turn-end", async () => {
    const { store, session } = scriptedSession(
      [
        { textChunks: ["Let ", "me ", "read."], toolCalls: [{ toolName: "read", input: { path: "a.txt" } }] },
        { textChunks: ["It ", "says ", "A."] },
      ],
      { tools: { read: readTool(twoFiles) } },
    );
    const order: string[] = [];
    const byStep: string[] = [];
    session.on("turn-start", (event) => order.push(`start ${event.turnId}`));
    session.on("turn-end", (event) => order.push(`end ${event.turnId} ${event.status}`));
    session.on("text-delta", (event) => (byStep[event.stepIndex] = (byStep[event.stepIndex] ?? "") + event.delta));

    const result = await session.send("What is in a.txt?");

    expect(result.text).toBe("It says A.");
    const assistantRows = (await readAllRows(store, "s")).filter((row) => row.role === "assistant");
    expect(byStep).toEqual(assistantRows.map(rowText));
    expect(byStep).toEqual(["Let me read.", "It says A."]);
    expect(order).toHaveLength(2);
    expect(order[0]).toMatch(/^start /);
    expect(order[1]).toBe(`end ${order[0]!.slice("start ".length)} completed`);
  });
});
