/**
 * The session through the real `@ai-sdk/anthropic` package against a local fake of the Messages
 * API: what each request asks for (the output limit) and how refusals and mid-stream failures end.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { describe, expect, it } from "vitest";
import {
  startAnthropicMessagesServer,
  type AnthropicScriptedResponse,
} from "./test-support/anthropic-messages-server.js";
import { activeTurns, closeAfterEach, providerSession } from "./test-support/provider-session.js";
import { recordEvents } from "./test-support/session-fixture.js";
import { expectRolloverOnRefusal, refusedAfterFirstAnswer } from "./test-support/context-refusal.js";

const closedAfterTest = closeAfterEach();

async function anthropicSession(
  script: readonly AnthropicScriptedResponse[],
  {
    budget = {},
    maxRetries = 0,
  }: { budget?: { contextLimit?: number; outputReserve?: number }; maxRetries?: number } = {},
) {
  const server = closedAfterTest(await startAnthropicMessagesServer({ script }));
  const provider = createAnthropic({ baseURL: server.baseURL, apiKey: "test-key" });
  const { session, store } = providerSession({ model: provider("claude-sonnet-4-5"), budget, maxRetries });
  return { session, server, store };
}

const overloaded = { type: "overloaded_error", message: "Overloaded" };

describe("session through @ai-sdk/anthropic against a local Messages API", () => {
  it("asks for the budget's output reserve as max_tokens, not the SDK's default of the model maximum", async () => {
    const { session, server } = await anthropicSession([{ text: "Hello." }]);
    const result = await session.send("Hi.");
    expect(result).toMatchObject({ status: "completed", text: "Hello." });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.max_tokens).toBe(8192);
  });

  it("treats 'input length and max_tokens exceed context limit' as context-exceeded: one emergency rollover and one retry", async () => {
    const refusal = {
      type: "invalid_request_error",
      message:
        "input length and `max_tokens` exceed context limit: 137360 + 64000 > 200000, decrease input length or `max_tokens` and try again",
    };
    const { session, server } = await anthropicSession(refusedAfterFirstAnswer({ status: 400, error: refusal }));
    await expectRolloverOnRefusal(session);
    expect(server.requests).toHaveLength(3);
    expect(JSON.stringify(server.requests[2]!.messages)).not.toContain("First answer.");
  });

  it("ends a send failing mid-stream (overloaded_error after output started) with one readable line, never [object Object], stores what streamed", async () => {
    const { session, store } = await anthropicSession([{ text: "Partial answ", midStreamError: overloaded }]);
    const errors: Error[] = [];
    session.on("error", (event) => errors.push(event.error));
    const result = await session.send("Hi.");
    expect(result.status).toBe("failed");
    const message = result.error?.message ?? "";
    expect(message).toContain("Overloaded");
    expect(message).not.toContain("[object Object]");
    expect(message).not.toContain("\n");
    expect(errors.map((error) => error.message)).toEqual([message]);
    // The interrupt rules: what was shown is stored as a partial step.
    expect(await activeTurns(store)).toEqual([
      ["user", "Hi."],
      ["assistant", "Partial answ"],
    ]);
    const rows = (await store.activeWindow("s")).rows;
    expect(rows[1]!.metadata).toMatchObject({ ctxwinStep: { finishReason: "interrupted" } });
  });

  it("retries an overloaded_error after output started like one before it: the cut step is not stored, a retry event, the same request again", async () => {
    const { session, server, store } = await anthropicSession(
      [{ text: "Partial answ", midStreamError: overloaded }, { text: "The whole answer." }],
      { maxRetries: 2 },
    );
    const retries = recordEvents(session, "retry");
    const errors: Error[] = [];
    session.on("error", (event) => errors.push(event.error));
    const result = await session.send("Hi.");
    expect(result).toMatchObject({ status: "completed", text: "The whole answer." });
    expect(errors).toEqual([]);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ retry: 1, discardedText: "Partial answ" });
    expect(retries[0]!.error.message).toContain("Overloaded");
    expect(server.requests).toHaveLength(2);
    // The retry asks exactly what the cut request asked: the partial text is not in it.
    expect(server.requests[1]!.messages).toEqual(server.requests[0]!.messages);
    expect(server.requests[1]!.max_tokens).toBe(8192);
    expect(await activeTurns(store)).toEqual([
      ["user", "Hi."],
      ["assistant", "The whole answer."],
    ]);
  });

  it("gives up after maxRetries mid-stream failures: the last partial step is stored and the send fails with one line", async () => {
    const { session, server, store } = await anthropicSession([{ text: "Partial answ", midStreamError: overloaded }], {
      maxRetries: 2,
    });
    const retries = recordEvents(session, "retry");
    const result = await session.send("Hi.");
    expect(result.status).toBe("failed");
    expect(result.error?.message).toContain("Overloaded");
    expect(retries.map((event) => event.retry)).toEqual([1, 2]);
    expect(server.requests).toHaveLength(3);
    expect(await activeTurns(store)).toEqual([
      ["user", "Hi."],
      ["assistant", "Partial answ"],
    ]);
    // The next send carries the stored partial answer; roles still alternate.
    const next = await session.send("Try again.");
    expect(next.status).toBe("failed");
    expect(server.requests[3]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
  });

  it("does not retry a mid-stream failure another try cannot fix (invalid_request_error)", async () => {
    const { session, server } = await anthropicSession(
      [
        {
          text: "Partial",
          midStreamError: { type: "invalid_request_error", message: "messages: text content blocks must be non-empty" },
        },
      ],
      { maxRetries: 2 },
    );
    const retries = recordEvents(session, "retry");
    const result = await session.send("Hi.");
    expect(result.status).toBe("failed");
    expect(result.error?.message).toContain("text content blocks must be non-empty");
    expect(retries).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("leaves a failure before the stream to the SDK's retries: a 529 is asked maxRetries + 1 times, no more", async () => {
    const { session, server } = await anthropicSession([{ status: 529, error: overloaded }], { maxRetries: 1 });
    const retries = recordEvents(session, "retry");
    const result = await session.send("Hi.");
    expect(result.status).toBe("failed");
    expect(result.error?.message).toContain("Overloaded");
    expect(server.requests).toHaveLength(2);
    expect(retries).toEqual([]);
  });
});
