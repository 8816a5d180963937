/**
 * A local fake of the Anthropic Messages API (`POST /v1/messages`, streaming SSE) for tests that
 * drive the real `@ai-sdk/anthropic` package: it records every request body and answers each one
 * from a script, with the event shapes the API sends (message_start, content_block_*, message_delta,
 * message_stop) and its `error` event after output started.
 */
import type { ServerResponse } from "node:http";
import { startRecordingServer, streamedPieces, type ProviderScript } from "./fake-provider-server.js";

export type AnthropicScriptedResponse =
  | {
      text: string;
      /** Uncached input tokens (`usage.input_tokens`). */
      inputTokens?: number;
      outputTokens?: number;
      /** `usage.cache_read_input_tokens` and `usage.cache_creation_input_tokens`, sent only when given. */
      cacheReadTokens?: number;
      cacheWriteTokens?: number;
    }
  /** Streams `text`, then an SSE `error` event (the API's mid-stream failure). */
  | { text: string; midStreamError: { type: string; message: string } }
  /** A refusal before the stream: an HTTP status with the API's error body. */
  | { status: number; error: { type: string; message: string } };

export interface AnthropicRequestBody {
  model: string;
  max_tokens?: number;
  system?: unknown;
  messages: Array<{ role: string; content: unknown }>;
  stream?: boolean;
  [field: string]: unknown;
}

export interface AnthropicMessagesServer {
  baseURL: string;
  requests: AnthropicRequestBody[];
  close(): Promise<void>;
}

/**
 * Starts the fake on 127.0.0.1 with a random port.
 *
 * @example
 * const server = await startAnthropicMessagesServer({ script: [{ text: "Hi." }] });
 * createAnthropic({ baseURL: server.baseURL, apiKey: "test" })("claude-sonnet-4-5");
 */
export async function startAnthropicMessagesServer({
  script,
}: {
  script: ProviderScript<AnthropicRequestBody, AnthropicScriptedResponse>;
}): Promise<AnthropicMessagesServer> {
  return startRecordingServer(script, respond);
}

/** Answers the `number`th request (from 1) with `answer`. */
function respond(
  response: ServerResponse,
  body: AnthropicRequestBody,
  number: number,
  answer: AnthropicScriptedResponse,
): void {
  if ("status" in answer) {
    response.writeHead(answer.status, { "content-type": "application/json" });
    response.end(JSON.stringify({ type: "error", error: answer.error }));
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (event: string, data: unknown) => response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const inputTokens = "inputTokens" in answer ? (answer.inputTokens ?? 100) : 100;
  const cache = {
    ...("cacheReadTokens" in answer && answer.cacheReadTokens !== undefined
      ? { cache_read_input_tokens: answer.cacheReadTokens }
      : {}),
    ...("cacheWriteTokens" in answer && answer.cacheWriteTokens !== undefined
      ? { cache_creation_input_tokens: answer.cacheWriteTokens }
      : {}),
  };
  send("message_start", {
    type: "message_start",
    message: {
      id: `msg_${number}`,
      type: "message",
      role: "assistant",
      model: body.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 1, ...cache },
    },
  });
  send("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
  for (const piece of streamedPieces(answer.text))
    send("content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: piece },
    });
  if ("midStreamError" in answer) {
    send("error", { type: "error", error: answer.midStreamError });
    response.end();
    return;
  }
  send("content_block_stop", { type: "content_block_stop", index: 0 });
  const outputTokens = "outputTokens" in answer ? (answer.outputTokens ?? 10) : 10;
  send("message_delta", {
    type: "message_delta",
    delta: { stop_reason: "end_turn", stop_sequence: null },
    usage: { output_tokens: outputTokens },
  });
  send("message_stop", { type: "message_stop" });
  response.end();
}
