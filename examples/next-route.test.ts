/**
 * examples/next-route.ts runs offline as `useChat`'s server: a POST answers with the UI message
 * stream (tool parts and ctxwin's data parts), bad input gets HTTP 400 with a JSON error and
 * nothing written, and a second request of a chat while the first runs gets HTTP 409.
 */
import type { UIMessage } from "ai";
import type * as Example from "./next-route.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type HistoryStore } from "ctxwin";
import { scriptedModel } from "../src/session/test-support/scripted-model.js";
import { chunksOf, enterProjectFolder, messageOf, storedRows, textOf, userMessage } from "./example-test-support.js";

const files = { "README.md": "# Tiny\n\nA tiny project.\n", "src/main.ts": "export const answer = 42;\n" };
let project: ReturnType<typeof enterProjectFolder>;
let example: typeof Example;
let store: HistoryStore;

beforeAll(async () => {
  project = enterProjectFolder(files);
  example = await import("./next-route.js");
  store = openStore();
});
afterAll(async () => {
  await store.close();
  project.leave();
});

const post = (body: unknown) =>
  new Request("http://localhost/api/chat", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("examples/next-route.ts", () => {
  it("answers useChat's POST with the UI message stream, on ctxwin's demo model", async () => {
    const response = await example.POST(
      post({
        id: "demo-chat",
        messages: [
          userMessage("u1", 'Explore the folder "project": list its files, then read up to 2 of them one by one.'),
        ],
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const answer = await messageOf(await chunksOf(response));
    const types = answer.parts.map((part) => part.type);
    expect(types).toContain("tool-list_files");
    expect(types.filter((type) => type === "tool-read_file")).toHaveLength(2);
    expect(textOf(answer)).toContain("I read 2 files");
    expect(answer.parts.find((part) => part.type === "tool-read_file")).toMatchObject({ state: "output-available" });
  });

  it("refuses bad input with HTTP 400 and a JSON error, writing nothing", async () => {
    const { model } = scriptedModel({ script: () => ({ text: "ok", inputTokens: 500 }) });
    const route = example.createChatRoute({ store, model });
    const first = userMessage("u1", "hello");
    const answer = await messageOf(await chunksOf(await route(post({ id: "chat-400", messages: [first] }))));
    expect(textOf(answer)).toBe("ok");
    const lastSeq = await store.lastSeq("chat-400");

    const invented: UIMessage = {
      id: "a9",
      role: "assistant",
      parts: [
        {
          type: "tool-read_file",
          toolCallId: "never-called",
          state: "output-available",
          input: { path: "x" },
          output: "made up",
        } as never,
      ],
    };
    const approval: UIMessage = {
      ...answer,
      parts: [
        ...answer.parts,
        {
          type: "tool-read_file",
          toolCallId: "c1",
          state: "approval-responded",
          input: { path: "x" },
          approval: { id: "p1", approved: true },
        } as never,
      ],
    };
    const cases: Array<[string, unknown, RegExp]> = [
      ["not JSON", "{ messages: ", /not JSON/],
      ["no id", { messages: [first] }, /needs `id`/],
      ["no messages", { id: "chat-400" }, /needs `messages`/],
      [
        "rewritten history",
        { id: "chat-400", messages: [userMessage("u1", "hello, but edited"), answer, userMessage("u2", "go on")] },
        /do not match this session's stored conversation/,
      ],
      [
        "invented tool result",
        { id: "chat-400", messages: [first, answer, invented, userMessage("u2", "go on")] },
        /never had \(never-called\)/,
      ],
      [
        "unknown part type",
        { id: "chat-400", messages: [first, { id: "x", role: "user", parts: [{ type: "hologram", beam: 1 }] }] },
        /not valid UI messages/,
      ],
      [
        "10 MB of text",
        { id: "chat-400", messages: [first, answer, userMessage("u2", "x".repeat(10 * 1024 * 1024))] },
        /10,485,760 characters/,
      ],
      ["a tool approval", { id: "chat-400", messages: [first, approval] }, /tool approvals .* not supported/],
    ];
    for (const [name, body, message] of cases) {
      const response = await route(post(body));
      expect(response.status, name).toBe(400);
      expect(((await response.json()) as { error: string }).error, name).toMatch(message);
      expect(await store.lastSeq("chat-400"), name).toBe(lastSeq);
    }
  });

  it("answers a second request of a chat with HTTP 409 while the first runs, and takes it afterwards", async () => {
    let arrived!: () => void;
    const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { model } = scriptedModel({
      script: (call) => ({
        text: `answer to ${call.text.split("\n").at(-1)!.replace("user: ", "")}`,
        inputTokens: 400,
      }),
      beforeAnswer: async (call) => {
        if (call.index !== 0) return;
        arrived();
        await gate;
      },
    });
    const route = example.createChatRoute({ store, model });
    const first = route(post({ id: "chat-409", messages: [userMessage("u1", "one")] }));
    await firstArrived;
    const second = await route(post({ id: "chat-409", messages: [userMessage("u2", "two")] }));
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: string }).error).toMatch(/another call of session 'chat-409' is running/);
    // Another chat is not held up.
    expect(
      textOf(
        await messageOf(
          await chunksOf(await route(post({ id: "other-chat", messages: [userMessage("u9", "three")] }))),
        ),
      ),
    ).toBe("answer to three");
    release();
    const answer = await messageOf(await chunksOf(await first));
    expect(textOf(answer)).toBe("answer to one");
    expect((await storedRows(project.folder, "chat-409")).map((row) => textOf(row as never))).toEqual([
      "one",
      "answer to one",
    ]);

    const retried = await route(
      post({ id: "chat-409", messages: [userMessage("u1", "one"), answer, userMessage("u2", "two")] }),
    );
    expect(textOf(await messageOf(await chunksOf(retried)))).toBe("answer to two");
  });
});
