/**
 * The session tree over HTTP (ADR 0070), against a real SQLite store: list entries name their
 * parent and fork origin, `GET …/children` lists a session's sub-agent sessions, a `task` call in
 * the transcript names the child it started (also in a fork's shared rows), and `POST …/fork`
 * forks through `store.fork` with its refusals mapped to 400/404/409. A fork is a session the
 * chat route answers in: an edited message sent there leaves the origin as it was.
 */
import type { UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RowInput } from "../core/row.js";
import { resetBoundaryRow } from "../core/rollover/notice-rows.js";
import { scriptedModel, type Script } from "../session/test-support/scripted-model.js";
import { rowText } from "../session/test-support/session-fixture.js";
import { readAllRows } from "../session/test-support/session-invariants.js";
import { createSession, postChatText } from "./test-support/chat-requests.js";
import { scriptedChat, startFixture, type ServerFixture } from "./test-support/server-fixture.js";

const userText = (text: string): RowInput => ({ role: "user", parts: [{ type: "text", text }] });
const assistantText = (text: string): RowInput => ({ role: "assistant", parts: [{ type: "text", text }] });
const taskCall = (toolCallId: string, output?: unknown): RowInput["parts"][number] =>
  output === undefined
    ? {
        type: "tool-task",
        toolCallId,
        state: "input-available",
        input: { agent: "reviewer", prompt: "review the diff" },
      }
    : {
        type: "tool-task",
        toolCallId,
        state: "output-available",
        input: { agent: "reviewer", prompt: "review the diff" },
        output,
      };

/**
 * lead: 1 user, 2 assistant with three task calls (call-1 finished, call-2 still running, call-3
 * naming a session that is no child), 3 assistant, 4 user. Children call-1 and call-2 at item 2.
 */
async function seedTree(store: ServerFixture["store"]): Promise<void> {
  await store.append("lead", [
    userText("delegate the review"),
    {
      role: "assistant",
      parts: [
        taskCall("call-1", {
          status: "completed",
          agent: "reviewer",
          session_id: "lead/reviewer-call-1",
          answer: "looks fine",
          answer_chars: 10,
          truncated: false,
        }),
        taskCall("call-2"),
        taskCall("call-3", {
          status: "completed",
          agent: "reviewer",
          session_id: "plain",
          answer: "",
          answer_chars: 0,
          truncated: false,
        }),
      ],
    },
    assistantText("the reviewer says it looks fine"),
    userText("now ship it"),
  ]);
  await store.append("lead/reviewer-call-1", [userText("review the diff"), assistantText("looks fine")], {
    parent: { sessionId: "lead", itemId: "2" },
  });
  await store.append("lead/reviewer-call-2", [userText("review the diff")], {
    parent: { sessionId: "lead", itemId: "2" },
  });
  await store.append("plain", [userText("a plain session")]);
  await store.append("cleared", [
    userText("before the clear"),
    assistantText("ok"),
    resetBoundaryRow({}),
    userText("after the clear"),
  ]);
}

describe("session lineage over HTTP", () => {
  let fixture: ServerFixture;
  beforeAll(async () => {
    fixture = await startFixture({ seed: seedTree });
  });
  afterAll(() => fixture.close());

  it("lists every session with its parent and fork origin (null when it has none)", async () => {
    await fixture.store.fork("lead", { atSeq: 3, newSessionId: "lead-fork" });
    const { status, body } = await fixture.api("/api/sessions");
    expect(status).toBe(200);
    const byId = Object.fromEntries(
      (body.sessions as Array<{ sessionId: string }>).map((entry) => [entry.sessionId, entry]),
    );
    expect(byId["lead/reviewer-call-1"]).toMatchObject({ parent: { sessionId: "lead", itemId: "2" }, forkOf: null });
    expect(byId["lead-fork"]).toMatchObject({ parent: null, forkOf: { sessionId: "lead", atItem: "3" }, rows: 3 });
    expect(byId["plain"]).toMatchObject({ parent: null, forkOf: null });
    expect((await fixture.api("/api/sessions/lead%2Freviewer-call-2")).body).toMatchObject({
      parent: { sessionId: "lead", itemId: "2" },
      forkOf: null,
    });
    expect((await fixture.api("/api/sessions/lead-fork")).body).toMatchObject({
      forkOf: { sessionId: "lead", atItem: "3" },
      lastSeq: 3,
    });
  });

  it("GET …/children lists the sub-agent sessions in call order; none for a leaf; 404 for an unknown session", async () => {
    const children = await fixture.api("/api/sessions/lead/children");
    expect(children.status).toBe(200);
    expect(
      children.body.sessions.map((entry: { sessionId: string; title: string }) => [entry.sessionId, entry.title]),
    ).toEqual([
      ["lead/reviewer-call-1", "review the diff"],
      ["lead/reviewer-call-2", "review the diff"],
    ]);
    expect((await fixture.api("/api/sessions/plain/children")).body).toEqual({ sessions: [] });
    expect((await fixture.api("/api/sessions/nobody/children")).status).toBe(404);
  });

  it("a task call links to the child it started: by the result's session id, or by the call id while it runs; never to one that is no child", async () => {
    const { body } = await fixture.api("/api/sessions/lead/rows");
    const calls = body.rows.find((row: { seq: number }) => row.seq === 2).parts;
    expect(calls.map((part: { childSessionId?: string }) => part.childSessionId ?? null)).toEqual([
      "lead/reviewer-call-1",
      "lead/reviewer-call-2",
      null,
    ]);
    // A fork that shares item 2 shows the same links; one forked before it has no such row.
    const forked = await fixture.api("/api/sessions/lead-fork/rows");
    expect(forked.body.rows.find((row: { seq: number }) => row.seq === 2).parts[0].childSessionId).toBe(
      "lead/reviewer-call-1",
    );
  });

  it("POST …/fork forks at an item: 201 with the new id, which then reads the origin's rows up to that item", async () => {
    const created = await fixture.api("/api/sessions/lead/fork", {
      method: "POST",
      body: { atItem: "1", newSessionId: "lead-retry" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ sessionId: "lead-retry", forkOf: { sessionId: "lead", atItem: "1" } });
    const rows = await fixture.api("/api/sessions/lead-retry/rows");
    expect(rows.body.rows.map((row: { text: string }) => row.text)).toEqual(["delegate the review"]);
    // Without an id the server picks one; a number is an item id too.
    const picked = await fixture.api("/api/sessions/lead/fork", { method: "POST", body: { atItem: 3 } });
    expect(picked.status).toBe(201);
    expect(picked.body.sessionId).toMatch(/^fork-\d{8}-\d{6}-[0-9a-f-]{8}$/);
    expect((await fixture.api(`/api/sessions/${encodeURIComponent(picked.body.sessionId)}`)).body).toMatchObject({
      lastSeq: 3,
      forkOf: { sessionId: "lead", atItem: "3" },
    });
  });

  it("refuses bad input (400), an unknown session (404) and an id that exists (409 session-exists); nothing is written", async () => {
    const before = (await fixture.api("/api/sessions?limit=500")).body.sessions.length;
    const cases: Array<[string, string, unknown, number, string, RegExp]> = [
      ["no body", "lead", undefined, 400, "bad-request", /Bad body/],
      ["not an item id", "lead", { atItem: "two" }, 400, "bad-request", /item id/],
      ["item 0", "lead", { atItem: 0 }, 400, "bad-request", /atItem/],
      ["past the last item", "lead", { atItem: "99" }, 400, "bad-request", /last item is 4/],
      ["at the privacy floor", "cleared", { atItem: "3" }, 400, "bad-request", /privacy floor/],
      ["unknown key", "lead", { atItem: "1", at: 1 }, 400, "bad-request", /Unrecognized key/],
      [
        "control characters in the id",
        "lead",
        { atItem: "1", newSessionId: "a\u0000b" },
        400,
        "bad-request",
        /control characters/,
      ],
      ["unknown session", "nobody", { atItem: "1" }, 404, "not-found", /Unknown session/],
      ["existing id", "lead", { atItem: "1", newSessionId: "plain" }, 409, "session-exists", /exists/],
    ];
    for (const [name, sessionId, body, status, code, message] of cases) {
      const answer = await fixture.api(`/api/sessions/${sessionId}/fork`, {
        method: "POST",
        ...(body === undefined ? {} : { body }),
      });
      expect(answer.status, name).toBe(status);
      expect(answer.body.error.code, name).toBe(code);
      expect(answer.body.error.message, name).toMatch(message);
    }
    expect((await fixture.api("/api/sessions?limit=500")).body.sessions.length).toBe(before);
    expect(await fixture.store.lastSeq("plain")).toBe(1);
  });
});

describe("forks and the chat route", () => {
  const user = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });
  const script: Script = (call) =>
    call.text.includes("stall")
      ? { textChunks: ["partial "], stallUntilAborted: true }
      : { text: `answer ${call.text.split("user: ").length - 1}`, inputTokens: 400 };
  let fixture: ServerFixture;
  beforeAll(async () => {
    const { model } = scriptedModel({ script });
    fixture = await startFixture({ chat: () => scriptedChat({ model }) });
  });
  afterAll(() => fixture.close());

  const postChat = (sessionId: string, messages: UIMessage[]) =>
    postChatText(fixture, sessionId, JSON.stringify({ messages }));
  const texts = async (sessionId: string) => (await readAllRows(fixture.store, sessionId)).map(rowText);

  it("an edited message sent in a fork made just before it: the fork answers from the shared history, the origin stays as it was", async () => {
    const sessionId = await createSession(fixture);
    await (await postChat(sessionId, [user("u1", "first question")])).text();
    await (await postChat(sessionId, [user("u2", "second question")])).text();
    const origin = await texts(sessionId);
    expect(origin).toEqual(["first question", "answer 1", "second question", "answer 2"]);
    // Edit item 3: fork at item 2 and send the edited text there.
    const fork = await fixture.api(`/api/sessions/${sessionId}/fork`, { method: "POST", body: { atItem: "2" } });
    expect(fork.status).toBe(201);
    const answer = await postChat(fork.body.sessionId, [user("e1", "second question, edited")]);
    expect(answer.status).toBe(200);
    await answer.text();
    expect(await texts(fork.body.sessionId)).toEqual([
      "first question",
      "answer 1",
      "second question, edited",
      "answer 2",
    ]);
    expect(await texts(sessionId)).toEqual(origin);
  });

  it("beforeItem forks where an edit of that user message starts (ADR 0068): before it, or a new session for the first one; refusals are 400s", async () => {
    const sessionId = await createSession(fixture);
    await (await postChat(sessionId, [user("u1", "first question")])).text();
    await (await postChat(sessionId, [user("u2", "second question")])).text();
    const second = await fixture.api(`/api/sessions/${sessionId}/fork`, { method: "POST", body: { beforeItem: "3" } });
    expect(second.status).toBe(201);
    expect(second.body.forkOf).toEqual({ sessionId, atItem: "2" });
    expect(await texts(second.body.sessionId)).toEqual(["first question", "answer 1"]);
    const first = await fixture.api(`/api/sessions/${sessionId}/fork`, {
      method: "POST",
      body: { beforeItem: "1", newSessionId: "edit-first" },
    });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ sessionId: "edit-first", forkOf: null });
    const answer = await postChat("edit-first", [user("e1", "first question, edited")]);
    expect(answer.status).toBe(200);
    await answer.text();
    expect(await texts("edit-first")).toEqual(["first question, edited", "answer 1"]);
    for (const [body, message] of [
      [{ beforeItem: "2" }, /not a message the user typed/],
      [{ beforeItem: "9" }, /no such item/],
      [{ beforeItem: "1", atItem: "1" }, /atItem .* or beforeItem/],
    ] as const) {
      const refused = await fixture.api(`/api/sessions/${sessionId}/fork`, { method: "POST", body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.message, JSON.stringify(body)).toMatch(message);
    }
  });

  it("refuses to fork a session while it runs a turn (409 busy)", async () => {
    const sessionId = await createSession(fixture);
    await (await postChat(sessionId, [user("u1", "hello")])).text();
    const stalled = await postChat(sessionId, [user("u2", "stall here")]);
    expect(stalled.status).toBe(200);
    const refused = await fixture.api(`/api/sessions/${sessionId}/fork`, { method: "POST", body: { atItem: "1" } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("busy");
    expect((await fixture.api(`/api/sessions/${sessionId}/interrupt`, { method: "POST" })).body.interrupted).toBe(true);
    await stalled.text();
    expect(
      (await fixture.api(`/api/sessions/${sessionId}/fork`, { method: "POST", body: { atItem: "1" } })).status,
    ).toBe(201);
  });
});
