/**
 * `session.fork` and `session.edit` (ADR 0068): the new session reads the shared history up to its
 * point, the original is not changed, refusals write nothing, and a fork starts clean: a rollover
 * latched or a warning waiting in the original does not go with it.
 */
import { describe, expect, it } from "vitest";
import type { HistoryStore } from "../../store/port.js";
import { ForkRefusedError } from "../../store/lineage/lineage-errors.js";
import { createAgentSession } from "../create-agent-session.js";
import { createContextAgent } from "../context-agent/create-context-agent.js";
import { FORCE_AT, WARN_AT, readBoth, readingSession, twoFilesSession } from "../test-support/rollover-setup.js";
import { scriptedModel } from "../test-support/scripted-model.js";
import {
  deterministic,
  interruptAfterFirstStep,
  memoryStore,
  rowText,
  sqliteStore,
  testSession,
} from "../test-support/session-fixture.js";
import { readAllRows, sessionProblems } from "../test-support/session-invariants.js";
import { EditRefusedError } from "./edit-refused-error.js";

const lastLine = (text: string) => text.split("\n").at(-1);
/** A model that answers `answer to <the request's last line>`. */
const echoModel = () => scriptedModel({ script: (call) => ({ text: `answer to ${lastLine(call.text)}` }) });

/** Session "s" over `store` after three turns with an echo model; `calls` are the requests that model received. */
async function conversation(store: HistoryStore) {
  const { model, calls } = echoModel();
  const session = testSession({ store, model });
  await session.send("one");
  await session.send("two");
  await session.send("three");
  return { session, calls };
}

async function snapshot(store: HistoryStore) {
  return { sessions: (await store.sessions()).map((entry) => entry.sessionId), rows: await readAllRows(store, "s") };
}

describe("session.fork", () => {
  it("opens a new session on the shared history up to the item; the original is not changed", async () => {
    const store = memoryStore();
    const { session, calls } = await conversation(store);
    const before = await readAllRows(store, "s");

    const fork = await session.fork({ atItem: "4", newSessionId: "s-alt" });
    expect(fork.sessionId).toBe("s-alt");
    expect((await store.session("s-alt"))?.forkOf).toEqual({ sessionId: "s", atSeq: 4 });
    const result = await fork.send("two, differently");
    expect(result).toMatchObject({ status: "completed", text: "answer to user: two, differently" });
    const request = calls.at(-1)!.text;
    expect(request).toContain("user: one");
    expect(request).toContain("assistant: answer to user: two");
    expect(request).not.toContain("user: three");

    expect(await readAllRows(store, "s")).toEqual(before);
    expect((await readAllRows(store, "s-alt")).map(rowText)).toEqual([
      "one",
      "answer to user: one",
      "two",
      "answer to user: two",
      "two, differently",
      "answer to user: two, differently",
    ]);
    expect(sessionProblems(await readAllRows(store, "s-alt"), (await store.activeWindow("s-alt")).lastSeq)).toEqual([]);
  });

  it("forks at the last item by default, with a generated id; an id in use is refused and nothing is written", async () => {
    const store = memoryStore();
    const { session } = await conversation(store);
    const fork = await session.fork();
    expect(fork.sessionId).toMatch(/^s-fork-/);
    expect((await store.session(fork.sessionId))?.forkOf).toEqual({ sessionId: "s", atSeq: 6 });

    const before = await snapshot(store);
    const error = await session.fork({ atSeq: 2, newSessionId: fork.sessionId }).catch((caught: unknown) => caught);
    expect(ForkRefusedError.isInstance(error) && error.reason).toBe("session-exists");
    expect(await snapshot(store)).toEqual(before);
  });

  it("a fork starts clean: a rollover latched in the original does not go with it, and the original keeps it", async () => {
    const { session } = twoFilesSession((call) =>
      call.index === 0
        ? { ...readBoth, inputTokens: FORCE_AT - 400 }
        : { text: `answer to ${lastLine(call.text)}`, inputTokens: 800 },
    );
    expect(await interruptAfterFirstStep(session, "read both files")).toMatchObject({ status: "interrupted" });

    const fork = await session.fork({ atItem: "1", newSessionId: "s-fork" });
    const forked = await fork.send("what next, in the fork?");
    expect(forked).toMatchObject({ status: "completed", rollovers: [], warnings: [] });

    const original = await session.send("what next?");
    expect(original.rollovers).toEqual([expect.objectContaining({ reason: "mid-stream", previousWindowId: "w:0" })]);
  });

  it("a fork starts clean: a warning waiting for the original's next input does not go with it", async () => {
    const store = memoryStore();
    const { model } = scriptedModel({
      script: (call) =>
        call.index === 0
          ? { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }], inputTokens: WARN_AT + 100 }
          : { text: "noted", inputTokens: 900 },
    });
    const session = readingSession({ store, model });
    expect(await interruptAfterFirstStep(session, "read a")).toMatchObject({ status: "interrupted", warnings: [] });

    const fork = await session.fork({ atItem: "1", newSessionId: "s-fork" });
    expect(await fork.send("and now, in the fork?")).toMatchObject({ status: "completed", warnings: [] });
    expect((await readAllRows(store, "s-fork")).some((row) => row.meta?.type === "budget-warning")).toBe(false);

    expect((await session.send("and now?")).warnings).toHaveLength(1);
  });

  it("a context agent forks into a context agent with its options", async () => {
    const store = memoryStore();
    const { model, calls } = echoModel();
    const agent = createContextAgent({
      store,
      sessionId: "s",
      model,
      instructions: "be brief",
      budget: { contextLimit: 100_000 },
      ...deterministic(),
    });
    await agent.generate({ prompt: "one" });
    await agent.generate({ prompt: "two" });
    const fork = await agent.fork({ atItem: "2", newSessionId: "s-alt" });
    expect(fork.session.sessionId).toBe("s-alt");
    const result = await fork.generate({ prompt: "two again" });
    expect(result.text).toBe("answer to user: two again");
    expect(calls.at(-1)!.system).toContain("be brief");
    expect(calls.at(-1)!.text).not.toContain("user: two\n");

    const edit = await agent.edit({ itemId: "3", input: "TWO", newSessionId: "s-edit" });
    expect(edit).toMatchObject({ editedItemId: "3", result: { status: "completed", text: "answer to user: TWO" } });
    expect(edit.agent.session.sessionId).toBe("s-edit");
  });
});

describe("session.edit", () => {
  it("forks just before the message and sends the edited text as the new turn; the original is not changed", async () => {
    const store = memoryStore();
    const { session, calls } = await conversation(store);
    const before = await readAllRows(store, "s");

    const edit = await session.edit({ itemId: "3", input: "TWO, edited", newSessionId: "s-edit" });
    expect(edit.editedItemId).toBe("3");
    expect(edit.session.sessionId).toBe("s-edit");
    expect(edit.result).toMatchObject({ status: "completed", text: "answer to user: TWO, edited" });
    expect((await store.session("s-edit"))?.forkOf).toEqual({ sessionId: "s", atSeq: 2 });
    const request = calls
      .at(-1)!
      .text.split("\n")
      .filter((line) => !line.startsWith("system:"));
    expect(request).toEqual(["user: one", "assistant: answer to user: one", "user: TWO, edited"]);
    expect(await readAllRows(store, "s")).toEqual(before);

    // The session goes on in the fork.
    expect(await edit.session.send("four")).toMatchObject({ status: "completed" });
  });

  it("on SQLite: the edit's fork reads the shared rows, and a new session object on the same store sees the same", async () => {
    const opened = sqliteStore();
    try {
      const { session } = await conversation(opened.store);
      const edit = await session.edit({ itemId: "5", input: "THREE", newSessionId: "s-edit" });
      expect(edit.result.status).toBe("completed");
      const reopened = createAgentSession({
        store: opened.store,
        sessionId: "s-edit",
        model: echoModel().model,
        budget: { contextLimit: 100_000 },
        ...deterministic("again"),
      });
      expect(await reopened.send("four")).toMatchObject({ status: "completed" });
      expect((await readAllRows(opened.store, "s-edit")).map(rowText)).toEqual([
        "one",
        "answer to user: one",
        "two",
        "answer to user: two",
        "THREE",
        "answer to user: THREE",
        "four",
        "answer to user: four",
      ]);
      expect((await readAllRows(opened.store, "s")).map(rowText).at(-2)).toBe("three");
    } finally {
      await opened.cleanup();
    }
  });

  it("editing the first message starts a new session that shares nothing", async () => {
    const store = memoryStore();
    const { session } = await conversation(store);
    const edit = await session.edit({ itemId: "1", input: "ONE", newSessionId: "s-first" });
    expect(edit.result.status).toBe("completed");
    expect((await store.session("s-first"))?.forkOf).toBeUndefined();
    expect((await readAllRows(store, "s-first")).map(rowText)).toEqual(["ONE", "answer to user: ONE"]);
  });

  it("refuses an unknown item, a row that is not the user's message and an item behind the privacy floor, writing nothing", async () => {
    const store = memoryStore();
    const { session } = await conversation(store);
    await session.clear({ soft: true });
    await session.send("after the clear");
    const before = await snapshot(store);

    const reasons: unknown[] = [];
    for (const itemId of ["99", "0", "x", "2", "7", "3"]) {
      const error = await session.edit({ itemId, input: "edited" }).catch((caught: unknown) => caught);
      reasons.push(EditRefusedError.isInstance(error) ? error.reason : error);
    }
    expect(reasons).toEqual([
      "unknown-item",
      "unknown-item",
      "unknown-item",
      "behind-floor",
      "behind-floor",
      "behind-floor",
    ]);
    const assistantRow = (await readAllRows(store, "s")).find((row) => row.role === "assistant" && row.seq > 7)!;
    const error = await session
      .edit({ itemId: String(assistantRow.seq), input: "edited" })
      .catch((caught: unknown) => caught);
    expect(EditRefusedError.isInstance(error) && error.reason).toBe("not-user-input");
    expect(await snapshot(store)).toEqual(before);

    // The first message after the clear can be edited: nothing before it was visible, so nothing is shared.
    const edit = await session.edit({ itemId: "8", input: "after the clear, edited", newSessionId: "s-after" });
    expect(edit.result.status).toBe("completed");
    expect((await readAllRows(store, "s-after")).map(rowText)).toEqual([
      "after the clear, edited",
      "answer to user: after the clear, edited",
    ]);
  });

  it("an id in use is refused before anything is written", async () => {
    const store = memoryStore();
    const { session } = await conversation(store);
    await session.fork({ newSessionId: "taken" });
    const before = await snapshot(store);
    const error = await session
      .edit({ itemId: "3", input: "x", newSessionId: "taken" })
      .catch((caught: unknown) => caught);
    expect(ForkRefusedError.isInstance(error) && error.reason).toBe("session-exists");
    expect(await snapshot(store)).toEqual(before);
  });
});
