import { afterEach, describe, expect, it } from "vitest";
import { rolloverMetaOf } from "../core/boundary.js";
import { continueRow, leadInRow, rolloverBoundaryRow } from "../core/rollover/rollover-rows.js";
import { stepMetadata } from "../core/rollover/step-usage.js";
import { createSqliteStore } from "../store/sqlite/sqlite-store.js";
import type { HistoryStore } from "../store/port.js";
import { SessionStoreError } from "./errors.js";
import { scriptedModel } from "./test-support/scripted-model.js";
import {
  interruptAfterFirstStep,
  memoryStore,
  readTool,
  rowText,
  sqliteStore,
} from "./test-support/session-fixture.js";
import { failingStore, recordingStore } from "./test-support/store-wrappers.js";
import {
  FORCE_AT,
  THRESHOLD_AT,
  WARN_AT,
  budgetSession,
  readBoth,
  readBothPastForceBand,
  readingSession,
  systemOfTokens,
  textOfTokens,
  twoFilesSession,
} from "./test-support/rollover-setup.js";
import { COMPACTION_INSTRUCTION } from "./compaction.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const hasBoundary = (rows: readonly { boundary?: unknown }[]) => rows.some((row) => row.boundary !== undefined);

describe("restart", () => {
  it("a new session object re-derives the pressure from stored rows, trailing tool results included, and rolls over on the next send", async () => {
    const opened = sqliteStore();
    cleanups.push(opened.cleanup);
    // The first process stops right after a tool step (maxSteps 1): its results were never reported as input.
    const first = scriptedModel({
      script: [{ toolCalls: [{ toolName: "read", input: { path: "a.txt" } }], inputTokens: THRESHOLD_AT - 900 }],
    });
    const lenient = budgetSession({
      store: opened.store,
      model: first.model,
      tools: { read: readTool({ "a.txt": textOfTokens(1_000, "AAAA") }) },
      maxSteps: 1,
      system: systemOfTokens(THRESHOLD_AT - 900 - 1_000),
      settings: { threshold: 0.95 },
    });
    expect((await lenient.send("read a")).rollovers).toEqual([]);
    await opened.store.close();

    const reopened: HistoryStore = createSqliteStore({ path: opened.path });
    cleanups.push(() => reopened.close());
    const second = scriptedModel({ script: [{ text: "fresh start", inputTokens: 300 }] });
    const session = budgetSession({ store: reopened, model: second.model, tools: { read: readTool({}) } });
    expect((await session.usage()).contextTokens).toBeGreaterThanOrEqual(THRESHOLD_AT);

    const result = await session.send("short");

    expect(result.rollovers).toEqual([expect.objectContaining({ reason: "on-send", previousWindowId: "w:0" })]);
    expect(result.rollovers[0]!.contextTokens).toBeGreaterThan(THRESHOLD_AT - 900 + 900);
    expect(second.calls[0]!.text).not.toContain("AAAA");
  });

  it("nothing queued is resurrected: a latched rollover lost with the process becomes an on-send rollover, and no continue is written", async () => {
    const inner = memoryStore();
    const broken = failingStore(inner, (rows) => rows.some((row) => row.boundary !== undefined));
    const crashed = twoFilesSession([{ ...readBoth, inputTokens: FORCE_AT - 400 }], { store: broken });
    const before = await crashed.session.send("read both");
    expect(before.status).toBe("failed");

    const restarted = twoFilesSession([{ text: "hello again", inputTokens: 500 }], { store: inner });
    const result = await restarted.session.send("hello");
    expect(result.rollovers).toEqual([expect.objectContaining({ reason: "on-send" })]);
    const rows = (await inner.items("s", { limit: 100 })).rows;
    expect(rows.some((row) => row.meta?.type === "continue")).toBe(false);
    expect(restarted.calls).toHaveLength(1);
  });

  it("a window holding only a boundary, lead-in and continue is already fresh: the next input joins it, no second boundary", async () => {
    const store = memoryStore();
    const rolloverId = "r-crash";
    await store.append("s", [
      { role: "user", parts: [{ type: "text", text: "old question" }] },
      {
        role: "assistant",
        parts: [{ type: "text", text: "old answer" }],
        metadata: stepMetadata({ usage: { inputTokens: 14_500, outputTokens: 5 }, model: "mock:scripted" }),
      },
    ]);
    await store.append("s", [
      rolloverBoundaryRow({
        rolloverId,
        reason: "mid-stream",
        previousWindowId: "w:0",
        flushOpportunity: false,
        contextTokens: 14_500,
        maxTokens: 20_000,
      }),
      leadInRow({
        rolloverId,
        windowId: "w:3",
        previousWindowId: "w:0",
        reason: "mid-stream",
        flushOpportunity: false,
      }),
      continueRow({ rolloverId }),
    ]);
    const { model, calls } = scriptedModel({ script: [{ text: "ok", inputTokens: 14_200 }] });
    // The system prompt alone keeps even a fresh window at the threshold.
    const session = budgetSession({ store, model, system: "x".repeat((THRESHOLD_AT - 500) * 4) });
    const result = await session.send("hi");
    expect(result).toMatchObject({ status: "completed", rollovers: [] });
    const { rows, windowId } = await store.activeWindow("s");
    expect(windowId).toBe("w:3");
    expect(rows.filter((row) => row.boundary !== undefined)).toHaveLength(1);
    expect(calls[0]!.text.split("\n").slice(1)).toEqual([
      expect.stringMatching(/^user: \[Context window w:3 begins/),
      "user: Continue the task you were working on.",
      "user: hi",
    ]);
  });
});

describe("fault injection", () => {
  it("a failed rollover append writes nothing, keeps the latch, and the next send retries it", async () => {
    const inner = memoryStore();
    let failures = 1;
    const store = failingStore(inner, (rows) => rows.some((row) => row.boundary !== undefined) && failures-- > 0);
    const { calls, session } = twoFilesSession(readBothPastForceBand("answer B", 500), { store });

    const failed = await session.send("read both");
    expect(failed.status).toBe("failed");
    expect(SessionStoreError.isInstance(failed.error)).toBe(true);
    expect(failed.error?.message).toMatch(/Nothing of it was written/);
    const afterFailure = (await inner.items("s", { limit: 100 })).rows;
    expect(hasBoundary(afterFailure)).toBe(false);
    expect(afterFailure.some((row) => row.meta?.type === "continue" || row.meta?.type === "lead-in")).toBe(false);
    expect(calls).toHaveLength(1);

    const retried = await session.send("B");
    expect(retried.rollovers).toEqual([expect.objectContaining({ reason: "mid-stream" })]);
    const rows = (await inner.items("s", { limit: 100 })).rows;
    expect(rows.filter((row) => row.boundary !== undefined)).toHaveLength(1);
    expect(rows.slice(-4).map((row) => row.meta?.type ?? rowText(row))).toEqual([
      "rollover",
      "lead-in",
      "B",
      "answer B",
    ]);
  });

  it("a failed step append fails the send visibly; the stored rows stay consistent", async () => {
    const inner = memoryStore();
    const store = failingStore(inner, (rows) => rows.some((row) => row.role === "assistant"));
    const { session } = twoFilesSession([{ ...readBoth, inputTokens: 500 }, { text: "never" }], { store });
    const result = await session.send("read both");
    expect(result.status).toBe("failed");
    expect(SessionStoreError.isInstance(result.error)).toBe(true);
    const rows = (await inner.items("s", { limit: 100 })).rows;
    expect(rows.map(rowText)).toEqual(["read both"]);
  });
});

describe("supersession", () => {
  it("a manual clear during a turn drops the pending rollover and the queued continue", async () => {
    const { store, appends } = recordingStore(memoryStore());
    const { calls, session } = twoFilesSession(readBothPastForceBand("after clear", 100), { store });
    let cleared: Promise<{ windowId: string }> | undefined;
    session.on("step-end", () => {
      cleared ??= session.clear({ soft: true });
    });

    const result = await session.send("read both");
    const { windowId } = await cleared!;

    expect(result).toMatchObject({ status: "completed", rollovers: [] });
    expect(calls).toHaveLength(1);
    expect(appends.flat().some((row) => row.boundary?.kind === "rollover")).toBe(false);
    expect(windowId).toBe("w:3");
    const next = await session.send("fresh topic");
    expect(next.rollovers).toEqual([]);
    expect(calls[1]!.text.split("\n")).toEqual(["user: fresh topic"]);
  });

  for (const action of ["clear", "compact"] as const) {
    it(`a ${action} drops the warning claim that waited for the next input`, async () => {
      const store = memoryStore();
      const { model, calls } = scriptedModel({
        script: (call) =>
          call.text.endsWith(`user: ${COMPACTION_INSTRUCTION}`)
            ? { text: "SUMMARY: read a.", inputTokens: 300 }
            : call.index === 0
              ? { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }], inputTokens: WARN_AT + 100 }
              : { text: "fine", inputTokens: 400 },
      });
      const session = readingSession({ store, model });
      expect(await interruptAfterFirstStep(session, "read a")).toMatchObject({ status: "interrupted", warnings: [] });

      if (action === "clear") await session.clear({ soft: true });
      else expect((await session.compact()).status).toBe("completed");
      const next = await session.send("and now?");
      expect(next).toMatchObject({ status: "completed", warnings: [], rollovers: [] });
      expect(calls.at(-1)!.text).not.toContain("[Context budget]");
      expect((await store.activeWindow("s")).rows.some((row) => row.meta?.type === "budget-warning")).toBe(false);
    });
  }

  it("a new model drops the pending rollover and the queued continue", async () => {
    const old = twoFilesSession([{ ...readBoth, inputTokens: FORCE_AT - 400 }, { text: "never" }], {
      settings: { models: { "mock:scripted": { contextLimit: 20_000 } } },
    });
    const { store, session } = old;
    const next = scriptedModel({ script: [{ text: "new model here", inputTokens: 200 }] });
    let switched: Promise<void> | undefined;
    session.on("step-end", () => {
      switched ??= session.setModel(next.model);
    });
    const result = await session.send("read both");
    await switched;
    expect(result.rollovers).toEqual([]);
    expect(old.calls).toHaveLength(1);
    expect(next.calls).toHaveLength(0);
    const after = await session.send("hello");
    // No stale mid-stream latch: the pressure is re-derived on send.
    expect(after.rollovers.map((rollover) => rollover.reason)).toEqual(["on-send"]);
    const boundary = (await store.activeWindow("s")).rows[0]!;
    expect(rolloverMetaOf(boundary)?.reason).toBe("on-send");
  });
});
