/**
 * `POST /api/sessions/:id/chat`, the web chat's `useChat` endpoint, over real HTTP with a scripted
 * model: the answer is the AI SDK's UI message stream (tool parts, ctxwin's data parts), every
 * step is stored, bad messages are a 400 with nothing written, and a second request of a busy
 * session is refused (409), never interleaved.
 */
import { readUIMessageStream, tool, type ToolSet, type UIMessage, type UIMessageChunk } from "ai";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { FORCE_AT, LIMIT } from "../session/test-support/rollover-setup.js";
import { scriptedModel, type Script } from "../session/test-support/scripted-model.js";
import { readTool, rowText } from "../session/test-support/session-fixture.js";
import { readAllRows } from "../session/test-support/session-invariants.js";
import type { CtxwinUIMessage } from "../session/ui-message-stream.js";
import type { HistoryStore } from "../store/port.js";
import { startServer } from "./start-server.js";
import { createSession, postChatText } from "./test-support/chat-requests.js";
import { scriptedChat, startFixture, type ServerFixture } from "./test-support/server-fixture.js";

const files = { "a.txt": "A".repeat(2_000), "b.txt": "B".repeat(2_000) };
const readBoth = {
  toolCalls: [
    { toolName: "read", input: { path: "a.txt" } },
    { toolName: "read", input: { path: "b.txt" } },
  ],
};
const user = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });

async function withChat(
  script: Script,
  run: (fixture: ServerFixture, sessionId: string) => Promise<void>,
  tools: ToolSet = {},
) {
  const { model } = scriptedModel({ script });
  const fixture = await startFixture({
    chat: () => scriptedChat({ model, contextLimit: LIMIT, tools: { read: readTool(files), ...tools } }),
  });
  try {
    await run(fixture, await createSession(fixture));
  } finally {
    await fixture.close();
  }
}

/** Posts a useChat body (as DefaultChatTransport sends it) and returns the response unread. */
function postChat(fixture: ServerFixture, sessionId: string, body: unknown): Promise<Response> {
  return postChatText(fixture, sessionId, JSON.stringify(body));
}

/** The assistant message `useChat` builds from a streamed answer. */
async function answerOf(response: Response): Promise<CtxwinUIMessage> {
  const chunks = (await response.text())
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice("data: ".length)) as UIMessageChunk);
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: CtxwinUIMessage | undefined;
  for await (const message of readUIMessageStream<CtxwinUIMessage>({ stream: stream as never })) last = message;
  if (last === undefined) throw new Error("the answer held no message");
  return last;
}

async function storedTexts(fixture: ServerFixture, sessionId: string): Promise<string[]> {
  return (await readAllRows(fixture.store, sessionId))
    .filter((row) => row.synthetic !== true)
    .map(rowText)
    .filter((text) => text !== "");
}

describe("POST /api/sessions/:id/chat", () => {
  it("answers useChat with tool parts and a rollover part as they stream, stores every step, and takes only the new message next time", async () => {
    const script = [
      { ...readBoth, inputTokens: FORCE_AT - 400 },
      { text: "finished", inputTokens: 800 },
      { text: "second answer", inputTokens: 900 },
    ];
    await withChat(script, async (fixture, sessionId) => {
      const first = user("u1", "read both files");
      const response = await postChat(fixture, sessionId, {
        id: sessionId,
        messages: [first],
        trigger: "submit-message",
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
      expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
      const answer = await answerOf(response);
      const kinds = answer.parts.filter((part) => part.type !== "step-start").map((part) => part.type);
      expect(kinds).toEqual(["tool-read", "tool-read", "data-ctxwin-usage", "data-ctxwin-rollover", "text"]);
      expect(answer.parts.find((part) => part.type === "tool-read")).toMatchObject({
        state: "output-available",
        input: { path: "a.txt" },
      });
      const rows = await readAllRows(fixture.store, sessionId);
      expect(rows.map((row) => row.meta?.type ?? row.role)).toEqual([
        "user",
        "assistant",
        "rollover",
        "lead-in",
        "continue",
        "assistant",
      ]);

      // The whole chat again, as useChat sends it: only the new message is taken.
      const next = await answerOf(
        await postChat(fixture, sessionId, { id: sessionId, messages: [first, answer, user("u2", "and now?")] }),
      );
      expect(next.parts.filter((part) => part.type === "text").map((part) => part.text)).toEqual(["second answer"]);
      expect(
        (await storedTexts(fixture, sessionId)).filter((text) => text === "read both files" || text === "and now?"),
      ).toEqual(["read both files", "and now?"]);
      expect((await fixture.api(`/api/sessions/${sessionId}`)).body.busy).toBe(false);
    });
  });

  it("refuses messages that rewrite history, invent a tool result, have unknown parts, 10 MB of text or no new user message: 400, nothing stored", async () => {
    await withChat(
      () => ({ text: "ok", inputTokens: 500 }),
      async (fixture, sessionId) => {
        const first = user("u1", "hello");
        const answer = await answerOf(await postChat(fixture, sessionId, { messages: [first] }));
        const lastSeq = await fixture.store.lastSeq(sessionId);
        const invented = {
          id: "a9",
          role: "assistant",
          parts: [
            {
              type: "tool-read",
              toolCallId: "never-called",
              state: "output-available",
              input: { path: "a.txt" },
              output: "made up",
            },
          ],
        };
        const cases: Array<[string, unknown, RegExp]> = [
          [
            "rewritten",
            { messages: [user("u1", "hello, but edited"), answer, user("u2", "go on")] },
            /do not match this session's stored conversation/,
          ],
          [
            "invented tool result",
            { messages: [first, answer, invented, user("u2", "go on")] },
            /tool calls or results this session never had \(never-called\)/,
          ],
          [
            "unknown part type",
            { messages: [first, answer, { id: "x", role: "user", parts: [{ type: "hologram", beam: 1 }] }] },
            /chat messages are not valid/,
          ],
          [
            "10 MB",
            { messages: [first, answer, user("u2", "x".repeat(10 * 1024 * 1024))] },
            /10,485,760 characters of text; at most 200,000/,
          ],
          ["assistant last", { messages: [first, answer] }, /last message must be the user's new message/],
          ["no messages", { messages: [] }, /no messages/],
          [
            "regenerate",
            { messages: [first], trigger: "regenerate-message", messageId: "a1" },
            /only 'submit-message' is supported/,
          ],
          ["unknown body field", { messages: [user("u2", "go on")], temperature: 2 }, /Unrecognized key/],
        ];
        for (const [name, body, message] of cases) {
          const response = await postChat(fixture, sessionId, body);
          expect(response.status, name).toBe(400);
          const answerBody = (await response.json()) as { error: { code: string; message: string } };
          expect(answerBody.error.code, name).toBe("bad-request");
          expect(answerBody.error.message, name).toMatch(message);
          expect(await fixture.store.lastSeq(sessionId), name).toBe(lastSeq);
          expect((await fixture.api(`/api/sessions/${sessionId}`)).body.busy, name).toBe(false);
        }
        // The session still works after every refusal.
        const next = await answerOf(
          await postChat(fixture, sessionId, { messages: [first, answer, user("u2", "go on")] }),
        );
        expect(next.parts.some((part) => part.type === "text" && part.text === "ok")).toBe(true);
      },
    );
  });

  it("ends an answer only once its session is free again: a message sent right after it is taken, even when the turn's bookkeeping is slow", async () => {
    const { model } = scriptedModel({ script: () => ({ text: "ok", inputTokens: 500 }) });
    const fixture = await startFixture({ chat: () => scriptedChat({ model, contextLimit: LIMIT }) });
    // The same store, with every `lastSeq` slow: the turn's end (its rows' notice, usage, turn-end) takes a while.
    const slow: HistoryStore = Object.assign(Object.create(fixture.store) as HistoryStore, {
      lastSeq: async (sessionId: string) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return fixture.store.lastSeq(sessionId);
      },
    });
    const server = await startServer({
      directory: fixture.directory,
      store: slow,
      webRoot: fixture.directory,
      log: () => undefined,
      chat: scriptedChat({ model, contextLimit: LIMIT }),
    });
    const headers = { Authorization: `Bearer ${server.token}`, "Content-Type": "application/json" };
    const post = (body: unknown) =>
      fetch(`${server.origin}/api/sessions/${sessionId}/chat`, { method: "POST", headers, body: JSON.stringify(body) });
    let sessionId = "";
    try {
      sessionId = (
        (await (await fetch(`${server.origin}/api/sessions`, { method: "POST", headers, body: "{}" })).json()) as {
          sessionId: string;
        }
      ).sessionId;
      const messages: unknown[] = [];
      for (const text of ["one", "two", "three"]) {
        messages.push(user(`u-${text}`, text));
        const response = await post({ messages });
        expect(response.status, text).toBe(200);
        messages.push(await answerOf(response));
      }
      expect((await storedTexts(fixture, sessionId)).filter((text) => ["one", "two", "three"].includes(text))).toEqual([
        "one",
        "two",
        "three",
      ]);
    } finally {
      await server.close();
      await fixture.close();
    }
  });

  it("refuses a second request of a busy session (409) and a plain message too; the first answer ends when interrupted", async () => {
    const script: Script = (call) =>
      call.text.includes("user: one") && !call.text.includes("user: three")
        ? { textChunks: ["partial "], stallUntilAborted: true }
        : { text: "answer to three", inputTokens: 400 };
    await withChat(script, async (fixture, sessionId) => {
      const first = await postChat(fixture, sessionId, { messages: [user("u1", "one")] });
      expect(first.status).toBe(200);
      const second = await postChat(fixture, sessionId, { messages: [user("u2", "two")] });
      expect(second.status).toBe(409);
      expect(((await second.json()) as { error: { code: string } }).error.code).toBe("busy");
      expect(
        (await fixture.api(`/api/sessions/${sessionId}/messages`, { method: "POST", body: { text: "two" } })).status,
      ).toBe(409);
      expect((await fixture.api(`/api/sessions/${sessionId}`)).body.busy).toBe(true);
      const firstText = first.text();
      // The first request's send holds the session until it ends: interrupt it.
      await expect
        .poll(
          async () => (await fixture.api(`/api/sessions/${sessionId}/interrupt`, { method: "POST" })).body.interrupted,
          { timeout: 30_000, interval: 10 },
        )
        .toBe(true);
      expect(await firstText).toContain('"type":"abort"');
      await expect
        .poll(async () => (await fixture.api(`/api/sessions/${sessionId}`)).body.busy, {
          timeout: 30_000,
          interval: 10,
        })
        .not.toBe(true);
      const third = await answerOf(await postChat(fixture, sessionId, { messages: [user("u3", "three")] }));
      expect(third.parts.some((part) => part.type === "text" && part.text === "answer to three")).toBe(true);
      const texts = await storedTexts(fixture, sessionId);
      expect(texts.filter((text) => text === "one" || text === "two" || text === "three")).toEqual(["one", "three"]);
      expect(texts.indexOf("answer to three")).toBeGreaterThan(texts.indexOf("three"));
    });
  });

  it("keeps a turn running when the client goes away mid-answer: it ends, is stored, and the session is free again", async () => {
    let release!: () => void;
    const gate = new Promise<string>((resolve) => (release = () => resolve("opened")));
    const wait = tool({ description: "Waits for the test", inputSchema: z.object({}), execute: () => gate });
    const script: Script = (call) =>
      call.text.includes("opened")
        ? { text: "done after the gate", inputTokens: 500 }
        : { toolCalls: [{ toolName: "wait", input: {} }], inputTokens: 400 };
    await withChat(
      script,
      async (fixture, sessionId) => {
        const controller = new AbortController();
        const response = await fetch(`${fixture.server.origin}/api/sessions/${sessionId}/chat`, {
          method: "POST",
          headers: { Authorization: `Bearer ${fixture.server.token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ messages: [user("u1", "wait for the gate")] }),
          signal: controller.signal,
        });
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        let seen = "";
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          seen += chunk.value;
          if (seen.includes('"type":"tool-input-available"')) break;
        }
        expect(seen).toContain('"type":"tool-input-available"');
        controller.abort();
        await reader.cancel().catch(() => undefined);
        expect((await fixture.api(`/api/sessions/${sessionId}`)).body.busy).toBe(true);
        release();
        await expect
          .poll(async () => (await fixture.api(`/api/sessions/${sessionId}`)).body.busy, {
            timeout: 30_000,
            interval: 10,
          })
          .not.toBe(true);
        expect((await storedTexts(fixture, sessionId)).at(-1)).toBe("done after the gate");
      },
      { wait },
    );
  });
});
