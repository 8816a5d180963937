/**
 * A local fake of the OpenAI Responses API (`POST /v1/responses`, streaming SSE) for tests that
 * drive the real `@ai-sdk/openai` package: it records every request body and answers each one from
 * a script with the events the API streams (response.created, response.output_item.added/done,
 * response.output_text.delta, response.function_call_arguments.delta, reasoning summary events,
 * response.completed), its `response.failed` event after output started, and its HTTP error bodies.
 */
import type { ServerResponse } from "node:http";
import { startRecordingServer, streamedPieces, type ProviderScript } from "./fake-provider-server.js";

export interface ResponsesScriptedReasoning {
  summary: string;
  /** The opaque blob the API returns when `include` asks for `reasoning.encrypted_content`. */
  encryptedContent: string;
}

export type ResponsesScriptedResponse =
  | {
      text: string;
      /** A reasoning item before the message (reasoning models). */
      reasoning?: ResponsesScriptedReasoning;
      inputTokens?: number;
      outputTokens?: number;
      /** `usage.input_tokens_details.cached_tokens` (part of `inputTokens`). */
      cachedTokens?: number;
    }
  | { toolCall: { name: string; arguments: unknown }; inputTokens?: number }
  /** Streams `text`, then `response.failed` with this error (the API's mid-stream failure). */
  | { text: string; failed: { code: string; message: string } }
  /** Streams `text`, then the API's generic `error` event (no `response.failed` follows). */
  | { text: string; errorEvent: { code: string; message: string } }
  /** A refusal before the stream: an HTTP status with the API's error body. */
  | { status: number; error: { message: string; type: string; code?: string; param?: string } };

/** The fields of a Responses request body that tests look at; the rest is kept as sent. */
export interface ResponsesRequestBody {
  model: string;
  input: Array<{ type?: string; role?: string; id?: string; content?: unknown; [field: string]: unknown }>;
  store?: boolean;
  include?: string[];
  max_output_tokens?: number;
  stream?: boolean;
  [field: string]: unknown;
}

export interface OpenAIResponsesServer {
  /** `http://127.0.0.1:<port>/v1`, the `baseURL` of `createOpenAI`. */
  baseURL: string;
  requests: ResponsesRequestBody[];
  close(): Promise<void>;
}

/**
 * Starts the fake on 127.0.0.1 with a random port.
 *
 * @example
 * const server = await startOpenAIResponsesServer({ script: [{ text: "Hi." }] });
 * createOpenAI({ baseURL: server.baseURL, apiKey: "test" })("gpt-4.1");
 */
export async function startOpenAIResponsesServer({
  script,
}: {
  script: ProviderScript<ResponsesRequestBody, ResponsesScriptedResponse>;
}): Promise<OpenAIResponsesServer> {
  return startRecordingServer(script, respond);
}

/** Answers the `number`th request (from 1) with `answer`. */
function respond(
  response: ServerResponse,
  body: ResponsesRequestBody,
  number: number,
  answer: ResponsesScriptedResponse,
): void {
  if ("status" in answer) {
    response.writeHead(answer.status, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { param: null, code: null, ...answer.error } }));
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let sequence = 0;
  const send = (data: Record<string, unknown>) => {
    response.write(
      `event: ${String(data["type"])}\ndata: ${JSON.stringify({ ...data, sequence_number: sequence })}\n\n`,
    );
    sequence += 1;
  };
  const responseId = `resp_${number}`;
  send({
    type: "response.created",
    response: {
      id: responseId,
      object: "response",
      created_at: 1_700_000_000,
      model: body.model,
      status: "in_progress",
      output: [],
    },
  });
  let outputIndex = 0;
  if ("toolCall" in answer) {
    const item = {
      type: "function_call",
      id: `fc_${number}`,
      call_id: `call_${number}`,
      name: answer.toolCall.name,
      arguments: "",
    };
    const argumentsText = JSON.stringify(answer.toolCall.arguments);
    send({ type: "response.output_item.added", output_index: 0, item });
    send({ type: "response.function_call_arguments.delta", item_id: item.id, output_index: 0, delta: argumentsText });
    send({
      type: "response.function_call_arguments.done",
      item_id: item.id,
      output_index: 0,
      arguments: argumentsText,
    });
    send({
      type: "response.output_item.done",
      output_index: 0,
      item: { ...item, arguments: argumentsText, status: "completed" },
    });
    send(completed(responseId, answer.inputTokens ?? 100, 10));
    response.end();
    return;
  }
  if ("reasoning" in answer && answer.reasoning !== undefined) {
    const item = {
      type: "reasoning",
      id: `rs_${number}`,
      encrypted_content: null as string | null,
      summary: [] as unknown[],
    };
    // The blob is only returned when the request asked for it.
    const encrypted =
      body.include?.includes("reasoning.encrypted_content") === true ? answer.reasoning.encryptedContent : null;
    send({
      type: "response.output_item.added",
      output_index: outputIndex,
      item: { ...item, encrypted_content: encrypted },
    });
    send({
      type: "response.reasoning_summary_part.added",
      item_id: item.id,
      output_index: outputIndex,
      summary_index: 0,
      part: { type: "summary_text", text: "" },
    });
    send({
      type: "response.reasoning_summary_text.delta",
      item_id: item.id,
      output_index: outputIndex,
      summary_index: 0,
      delta: answer.reasoning.summary,
    });
    send({
      type: "response.reasoning_summary_part.done",
      item_id: item.id,
      output_index: outputIndex,
      summary_index: 0,
      part: { type: "summary_text", text: answer.reasoning.summary },
    });
    send({
      type: "response.output_item.done",
      output_index: outputIndex,
      item: {
        ...item,
        encrypted_content: encrypted,
        summary: [{ type: "summary_text", text: answer.reasoning.summary }],
      },
    });
    outputIndex += 1;
  }
  const message = {
    type: "message",
    id: `msg_${number}`,
    role: "assistant",
    status: "in_progress",
    content: [] as unknown[],
  };
  send({ type: "response.output_item.added", output_index: outputIndex, item: message });
  send({
    type: "response.content_part.added",
    item_id: message.id,
    output_index: outputIndex,
    content_index: 0,
    part: { type: "output_text", text: "", annotations: [] },
  });
  for (const piece of streamedPieces(answer.text)) {
    send({
      type: "response.output_text.delta",
      item_id: message.id,
      output_index: outputIndex,
      content_index: 0,
      delta: piece,
      logprobs: [],
    });
  }
  if ("errorEvent" in answer) {
    send({ type: "error", code: answer.errorEvent.code, message: answer.errorEvent.message, param: null });
    response.end();
    return;
  }
  if ("failed" in answer) {
    send({
      type: "response.failed",
      response: {
        id: responseId,
        object: "response",
        created_at: 1_700_000_000,
        model: body.model,
        status: "failed",
        error: answer.failed,
        output: [],
      },
    });
    response.end();
    return;
  }
  send({
    type: "response.output_text.done",
    item_id: message.id,
    output_index: outputIndex,
    content_index: 0,
    text: answer.text,
    logprobs: [],
  });
  send({
    type: "response.output_item.done",
    output_index: outputIndex,
    item: { ...message, status: "completed", content: [{ type: "output_text", text: answer.text, annotations: [] }] },
  });
  send(
    completed(
      responseId,
      answer.inputTokens ?? 100,
      answer.outputTokens ?? 10,
      "cachedTokens" in answer ? (answer.cachedTokens ?? 0) : 0,
    ),
  );
  response.end();
}

function completed(
  responseId: string,
  inputTokens: number,
  outputTokens: number,
  cachedTokens = 0,
): Record<string, unknown> {
  return {
    type: "response.completed",
    response: {
      id: responseId,
      object: "response",
      status: "completed",
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: cachedTokens },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: inputTokens + outputTokens,
      },
    },
  };
}
