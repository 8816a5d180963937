/**
 * Interrupting a send through the real `@ai-sdk/openai-compatible` provider: the local server
 * streams slowly, the send's signal aborts the HTTP request mid-answer, what streamed is stored,
 * and the next request the server receives is a valid history holding that partial answer.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { describe, expect, it } from "vitest";
import { startOpenAICompatibleServer, textOf } from "./test-support/openai-compatible-server.js";
import { closeAfterEach, providerSession } from "./test-support/provider-session.js";
import { rowText } from "./test-support/session-fixture.js";
import { readAllRows, sessionProblems } from "./test-support/session-invariants.js";

const closedAfterTest = closeAfterEach();

const longAnswer = Array.from({ length: 100 }, (_, index) => `word${index}`).join(" ");

describe("interrupting a send through @ai-sdk/openai-compatible", () => {
  it("aborts the streaming HTTP request, stores the partial answer, and the next request carries it as a valid history", async () => {
    const server = closedAfterTest(
      await startOpenAICompatibleServer({
        script: [{ text: longAnswer }, { text: "Continuing." }],
        chunkSize: 8,
        chunkDelayMs: 20,
      }),
    );
    const provider = createOpenAICompatible({ name: "local", baseURL: server.baseURL, includeUsage: true });
    const { session, store } = providerSession({
      model: provider.chatModel("test-model"),
      budget: { contextLimit: 100_000 },
    });
    const controller = new AbortController();
    let streamed = "";
    const errors: Error[] = [];
    session.on("error", (event) => errors.push(event.error));
    session.on("text-delta", (event) => {
      streamed += event.delta;
      controller.abort();
    });

    const result = await session.send("Write a long answer.", { signal: controller.signal });

    expect(result.status).toBe("interrupted");
    expect(errors).toEqual([]);
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.text.length).toBeLessThan(longAnswer.length);
    expect(longAnswer.startsWith(result.text)).toBe(true);
    expect(result.text).toBe(streamed);
    const rows = await readAllRows(store, "s");
    expect(rows.map((row) => [row.role, rowText(row)])).toEqual([
      ["user", "Write a long answer."],
      ["assistant", result.text],
    ]);

    const next = await session.send("Go on.");
    expect(next).toMatchObject({ status: "completed", text: "Continuing." });
    expect(server.requests).toHaveLength(2);
    const messages = server.requests[1]!.body.messages;
    expect(messages.map((message) => [message.role, textOf(message)])).toEqual([
      ["user", "Write a long answer."],
      ["assistant", result.text],
      ["user", "Go on."],
    ]);
    expect(sessionProblems(await readAllRows(store, "s"), (await store.activeWindow("s")).lastSeq)).toEqual([]);
  });
});
