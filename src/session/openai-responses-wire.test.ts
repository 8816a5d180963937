/**
 * The session through the real `@ai-sdk/openai` package (the Responses API, its default) against a
 * local fake of `POST /v1/responses`: every request is self-contained (`store: false`, earlier
 * output sent as content, never `item_reference` ids, reasoning carried as encrypted content), asks
 * for the budget's output reserve, alternates roles and keeps each tool call with its output.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgentSession } from "./create-agent-session.js";
import { startOpenAIResponsesServer, type OpenAIResponsesServer, type ResponsesRequestBody, type ResponsesScriptedResponse } from "./test-support/openai-responses-server.js";
import { deterministic, memoryStore } from "./test-support/session-fixture.js";

let server: OpenAIResponsesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const readFile = tool({
  description: "Reads a file",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `contents of ${path}`,
});

async function responsesSession(script: readonly ResponsesScriptedResponse[], { modelId = "gpt-4.1", providerStore }: { modelId?: string; providerStore?: boolean } = {}) {
  server = await startOpenAIResponsesServer({ script });
  const provider = createOpenAI({ baseURL: server.baseURL, apiKey: "test-key" });
  const session = createAgentSession({
    store: memoryStore(),
    sessionId: "s",
    model: provider(modelId),
    tools: { read_file: readFile },
    maxRetries: 0,
    ...(providerStore === undefined ? {} : { providerStore }),
    ...deterministic(),
  });
  return { session, server };
}

/** The kinds of input items in order: `user`, `assistant` for messages, the item type otherwise. */
function itemKinds(body: ResponsesRequestBody): string[] {
  return body.input.map((item) => (item.role === "user" || item.role === "assistant" ? item.role : String(item.type)));
}

describe("session through @ai-sdk/openai (Responses API) against a local server", () => {
  it("sends store: false and the earlier answer as content, never an item_reference or item id, with the budget's output limit", async () => {
    const { session, server } = await responsesSession([{ text: "The first answer." }, { text: "The second answer." }]);
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
    const { session, server } = await responsesSession([{ toolCall: { name: "read_file", arguments: { path: "a.txt" } } }, { text: "It says hello." }]);
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
    const { session, server } = await responsesSession([{ text: "Forty-two.", reasoning }, { text: "Still forty-two." }], { modelId: "o4-mini" });
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
    expect(second.input[1]).toMatchObject({ type: "reasoning", encrypted_content: "gAAAA-opaque-blob", summary: [{ type: "summary_text", text: reasoning.summary }] });
    expect(JSON.stringify(second.input)).not.toMatch(/"(rs|msg)_1"/);
  });

  it("lets a session opt in to server storage (providerStore: true): then earlier output may be referenced", async () => {
    const { session, server } = await responsesSession([{ text: "Stored answer." }, { text: "Next." }], { providerStore: true });
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
    const { session, server } = await responsesSession([{ text: "First answer." }, { status: 400, error: refusal }, { text: "After the rollover." }]);
    await session.send("First question.");
    const result = await session.send("Second question.");
    expect(result).toMatchObject({ status: "completed", text: "After the rollover." });
    expect(result.rollovers).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
    expect(JSON.stringify(server.requests[2]!.input)).not.toContain("First answer.");
    expect(server.requests[2]!.store).toBe(false);
  });
});
