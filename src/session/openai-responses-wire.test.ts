/**
 * The session through the real `@ai-sdk/openai` package (the Responses API, its default) against a
 * local fake of `POST /v1/responses`: every request is self-contained (`store: false`, earlier
 * output sent as content, never `item_reference` ids, reasoning carried as encrypted content), asks
 * for the budget's output reserve, alternates roles and keeps each tool call with its output.
 */
import { describe, expect, it } from "vitest";
import type { ResponsesRequestBody, ResponsesScriptedResponse } from "./test-support/openai-responses-server.js";
import { responsesSession } from "./test-support/openai-responses-session.js";
import { activeTurns, readFileTool } from "./test-support/provider-session.js";
import { recordEvents } from "./test-support/session-fixture.js";
import { expectRolloverOnRefusal, refusedAfterFirstAnswer } from "./test-support/context-refusal.js";

/** A Responses session with a `read_file` tool. */
const readFileSession = (
  script: readonly ResponsesScriptedResponse[],
  options: Omit<Parameters<typeof responsesSession>[1], "tools"> = {},
) => responsesSession(script, { tools: { read_file: readFileTool }, ...options });

/** The kinds of input items in order: `user`, `assistant` for messages, the item type otherwise. */
function itemKinds(body: ResponsesRequestBody): string[] {
  return body.input.map((item) => (item.role === "user" || item.role === "assistant" ? item.role : String(item.type)));
}

describe("session through @ai-sdk/openai (Responses API) against a local server", () => {
  it("sends store: false and the earlier answer as content, never an item_reference or item id, with the budget's output limit", async () => {
    const { session, server } = await readFileSession([{ text: "The first answer." }, { text: "The second answer." }]);
    expect(await session.send("First question.")).toMatchObject({ status: "completed", text: "The first answer." });
    expect(await session.send("Second question.")).toMatchObject({ status: "completed", text: "The second answer." });
    expect(server.requests).toHaveLength(2);
    for (const body of server.requests) {
      expect(body.store).toBe(false);
      expect(body.max_output_tokens).toBe(8192);
      expect(JSON.stringify(body.input)).not.toContain("item_reference");
    }
    const second = server.requests[1]!;
    expect(itemKinds(second)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(second.input[1]!.content)).toContain("The first answer.");
    // Not even the id of the earlier message: no request names an item the server may not have.
    expect(second.input[1]!.id).toBeUndefined();
    expect(JSON.stringify(second.input)).not.toContain("msg_1");
  });

  it("keeps a function call and its output together, next to each other, in the following request", async () => {
    const { session, server } = await readFileSession([
      { toolCall: { name: "read_file", arguments: { path: "a.txt" } } },
      { text: "It says hello." },
    ]);
    expect(await session.send("What is in a.txt?")).toMatchObject({ status: "completed", text: "It says hello." });
    expect(server.requests).toHaveLength(2);
    const second = server.requests[1]!;
    expect(itemKinds(second)).toEqual(["user", "function_call", "function_call_output"]);
    expect(second.input[1]).toMatchObject({ call_id: "call_1", name: "read_file" });
    expect(second.input[2]).toMatchObject({ call_id: "call_1" });
    expect(JSON.stringify(second.input[2])).toContain("contents of a.txt");
    expect(second.store).toBe(false);
    expect(JSON.stringify(second.input)).not.toContain("item_reference");
  });

  it("asks a reasoning model for encrypted reasoning and carries it in the next request without server state", async () => {
    const reasoning = { summary: "Thinking about the question.", encryptedContent: "gAAAA-opaque-blob" };
    const { session, server } = await readFileSession(
      [{ text: "Forty-two.", reasoning }, { text: "Still forty-two." }],
      { modelId: "o4-mini" },
    );
    await session.send("What is the answer?");
    await session.send("Are you sure?");
    expect(server.requests).toHaveLength(2);
    for (const body of server.requests) {
      expect(body.store).toBe(false);
      expect(body.include).toContain("reasoning.encrypted_content");
    }
    const second = server.requests[1]!;
    expect(JSON.stringify(second.input)).not.toContain("item_reference");
    expect(itemKinds(second)).toEqual(["user", "reasoning", "assistant", "user"]);
    expect(second.input[1]).toMatchObject({
      type: "reasoning",
      encrypted_content: "gAAAA-opaque-blob",
      summary: [{ type: "summary_text", text: reasoning.summary }],
    });
    expect(JSON.stringify(second.input)).not.toMatch(/"(rs|msg)_1"/);
  });

  it("lets a session opt in to server storage (providerStore: true): then earlier output may be referenced", async () => {
    const { session, server } = await readFileSession([{ text: "Stored answer." }, { text: "Next." }], {
      providerStore: true,
    });
    await session.send("First.");
    await session.send("Second.");
    expect(server.requests.map((body) => body.store)).toEqual([true, true]);
    expect(server.requests[1]!.input[1]).toEqual({ type: "item_reference", id: "msg_1" });
  });

  it("treats the Responses API's context_length_exceeded refusal as context-exceeded: one emergency rollover and one retry", async () => {
    const refusal = {
      message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
      type: "invalid_request_error",
      code: "context_length_exceeded",
      param: "input",
    };
    const { session, server } = await readFileSession(refusedAfterFirstAnswer({ status: 400, error: refusal }));
    await expectRolloverOnRefusal(session);
    expect(server.requests).toHaveLength(3);
    expect(JSON.stringify(server.requests[2]!.input)).not.toContain("First answer.");
    expect(server.requests[2]!.store).toBe(false);
  });

  it("retries a response.failed with a retryable code after output began: settled steps kept, the cut step not stored, the request repeated", async () => {
    const { session, server, store } = await readFileSession(
      [
        { toolCall: { name: "read_file", arguments: { path: "a.txt" } } },
        {
          text: "It say",
          failed: { code: "server_error", message: "The server had an error while processing your request." },
        },
        { text: "It says hello." },
      ],
      { maxRetries: 2 },
    );
    const retries = recordEvents(session, "retry");
    const result = await session.send("What is in a.txt?");
    expect(result).toMatchObject({ status: "completed", text: "It says hello." });
    expect(retries).toHaveLength(1);
    expect(retries[0]!.discardedText).toBe("It say");
    expect(retries[0]!.error.message).toContain("The server had an error");
    expect(retries[0]!.error.message).not.toContain("[object Object]");
    expect(server.requests).toHaveLength(3);
    // The repeated request is the cut one: the tool call with its output, no partial text.
    expect(server.requests[2]!.input).toEqual(server.requests[1]!.input);
    expect(itemKinds(server.requests[2]!)).toEqual(["user", "function_call", "function_call_output"]);
    expect(server.requests[2]!.store).toBe(false);
    expect(await activeTurns(store)).toEqual([
      ["user", "What is in a.txt?"],
      ["assistant", ""],
      ["assistant", "It says hello."],
    ]);
  });

  it("fails at once on a response.failed another try cannot fix (insufficient_quota): one readable line, the partial answer stored", async () => {
    const { session, server, store } = await readFileSession(
      [
        {
          text: "Partial",
          failed: {
            code: "insufficient_quota",
            message: "You exceeded your current quota, please check your plan and billing details.",
          },
        },
      ],
      { maxRetries: 2 },
    );
    const retries = recordEvents(session, "retry");
    const result = await session.send("Hi.");
    expect(result.status).toBe("failed");
    expect(result.error?.message).toContain("You exceeded your current quota");
    expect(result.error?.message).not.toContain("[object Object]");
    expect(retries).toEqual([]);
    expect(server.requests).toHaveLength(1);
    expect(await activeTurns(store)).toEqual([
      ["user", "Hi."],
      ["assistant", "Partial"],
    ]);
    // The next request carries the stored partial answer as content.
    await session.send("Again.");
    expect(itemKinds(server.requests[1]!)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(server.requests[1]!.input[1]!.content)).toContain("Partial");
  });

  it("retries the generic error event with a transient code after output began, with its own message", async () => {
    const { session, server } = await readFileSession(
      [
        {
          text: "Half",
          errorEvent: { code: "server_error", message: "The server had an error while processing your request." },
        },
        { text: "Whole answer." },
      ],
      {
        maxRetries: 2,
      },
    );
    const retries = recordEvents(session, "retry");
    expect(await session.send("Hi.")).toMatchObject({ status: "completed", text: "Whole answer." });
    expect(retries).toHaveLength(1);
    expect(retries[0]!.error.message).toContain("The server had an error");
    expect(retries[0]!.error.message).not.toContain("[object Object]");
    expect(server.requests).toHaveLength(2);
  });

  it("fails at once on a generic error event another try cannot fix, with its message", async () => {
    const { session, server } = await readFileSession(
      [{ text: "Half", errorEvent: { code: "invalid_prompt", message: "Invalid prompt: your prompt was flagged." } }],
      { maxRetries: 2 },
    );
    const result = await session.send("Hi.");
    expect(result.status).toBe("failed");
    expect(result.error?.message).toContain("Invalid prompt: your prompt was flagged.");
    expect(result.error?.message).not.toContain("[object Object]");
    expect(server.requests).toHaveLength(1);
  });

  it("an abort during the backoff ends the send interrupted without another request", async () => {
    const { session, server, store } = await readFileSession(
      [
        { text: "Partial", failed: { code: "server_error", message: "The server had an error." } },
        { text: "Never sent." },
      ],
      {
        maxRetries: 2,
        retryDelay: () => 3_600_000,
      },
    );
    const controller = new AbortController();
    session.on("retry", () => controller.abort());
    const result = await session.send("Hi.", { signal: controller.signal });
    expect(result.status).toBe("interrupted");
    expect(server.requests).toHaveLength(1);
    expect((await store.activeWindow("s")).rows.map((row) => row.role)).toEqual(["user"]);
  });
});
