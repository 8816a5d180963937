import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, generateText, streamText } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import {
  contextLengthExceeded,
  promptTokensOf,
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
} from "./openai-compatible-server.js";

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(body: unknown): Promise<Response> {
  return fetch(`${server!.baseURL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function events(text: string): string[] {
  return text
    .split("\n\n")
    .filter((block) => block.length > 0)
    .map((block) => block.replace(/^data: /, ""));
}

describe("scripted OpenAI-compatible server", () => {
  it("streams text and tool-call deltas as server-sent events, with a usage chunk only when asked, then [DONE]", async () => {
    server = await startOpenAICompatibleServer({
      script: [
        {
          text: "hello there",
          toolCalls: [{ id: "call_a", name: "read", arguments: { path: "a.txt" } }],
          usage: { promptTokens: 40, completionTokens: 6 },
        },
        { text: "plain" },
      ],
      chunkSize: 5,
    });
    const first = await post({
      model: "m",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "hi" }],
    });
    expect(first.headers.get("content-type")).toBe("text/event-stream");
    const sent = events(await first.text());
    expect(sent.at(-1)).toBe("[DONE]");
    const chunks = sent.slice(0, -1).map(
      (data) =>
        JSON.parse(data) as {
          choices: Array<{ delta?: Record<string, unknown>; finish_reason: string | null }>;
          usage?: unknown;
        },
    );
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: "assistant", content: "" });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.["content"] ?? "").join("")).toBe("hello there");
    const toolDeltas = chunks.flatMap(
      (chunk) =>
        (chunk.choices[0]?.delta?.["tool_calls"] as
          Array<{ id?: string; function: { name?: string; arguments: string } }> | undefined) ?? [],
    );
    expect(toolDeltas[0]).toMatchObject({ id: "call_a", function: { name: "read", arguments: "" } });
    expect(toolDeltas.map((delta) => delta.function.arguments).join("")).toBe('{"path":"a.txt"}');
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 40, completion_tokens: 6, total_tokens: 46 },
    });

    const second = events(
      await (await post({ model: "m", stream: true, messages: [{ role: "user", content: "again" }] })).text(),
    );
    expect(second.some((data) => data.includes('"usage"'))).toBe(false);
    expect(server.requests.map((request) => request.reportedUsage)).toEqual([
      { promptTokens: 40, completionTokens: 6 },
      undefined,
    ]);
    expect(server.requests.map((request) => request.body.messages[0]?.content)).toEqual(["hi", "again"]);
  });

  it("answers non-streaming requests with one completion, and reports prompt tokens from the request by default", async () => {
    server = await startOpenAICompatibleServer({ script: [{ text: "fine" }] });
    const provider = createOpenAICompatible({ name: "local", baseURL: server.baseURL });
    const result = await generateText({ model: provider.chatModel("test-model"), prompt: "How are you?" });
    expect(result.text).toBe("fine");
    expect(server.requests[0]!.body.stream).toBeUndefined();
    expect(result.usage.inputTokens).toBe(promptTokensOf(server.requests[0]!.body));
    expect(result.usage.outputTokens).toBe(1);
  });

  it("answers a scripted error with the OpenAI error body, and an exhausted script with an error too", async () => {
    server = await startOpenAICompatibleServer({ script: [contextLengthExceeded({ limit: 4096, requested: 5000 })] });
    const provider = createOpenAICompatible({ name: "local", baseURL: server.baseURL, includeUsage: true });
    let failure: unknown;
    const result = streamText({
      model: provider.chatModel("test-model"),
      prompt: "long",
      onError: ({ error }) => void (failure = error),
    });
    await result.consumeStream();
    expect(APICallError.isInstance(failure)).toBe(true);
    const apiError = failure as APICallError;
    expect(apiError.statusCode).toBe(400);
    expect(apiError.message).toMatch(/maximum context length is 4096 tokens/);
    expect(JSON.parse(apiError.responseBody ?? "{}")).toMatchObject({
      error: { type: "invalid_request_error", code: "context_length_exceeded" },
    });

    const exhausted = await post({ model: "m", messages: [] });
    expect(exhausted.status).toBe(400);
    expect(await exhausted.json()).toMatchObject({ error: { code: "script_exhausted" } });
    expect(server.requests).toHaveLength(2);
  });
});
