/**
 * A scripted OpenAI-compatible server for tests: `POST /v1/chat/completions` on 127.0.0.1 (an
 * ephemeral port), answering each request with the next response of a script, as server-sent
 * events in the Chat Completions streaming format (`stream: true`) or as one JSON completion.
 * Every request body it receives is recorded, so a test can assert what a real provider sent.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedServerUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ScriptedServerToolCall {
  /** Default: `call_<request>_<position>`. */
  id?: string;
  name: string;
  /** An object (sent as JSON) or the raw arguments string. */
  arguments: unknown;
}

/** The OpenAI error body `{ error: { message, type, code } }` with an HTTP status. */
export interface ScriptedServerError {
  status: number;
  message: string;
  type?: string;
  code?: string;
}

export type ScriptedServerResponse =
  | { text: string; usage?: ScriptedServerUsage }
  | { toolCalls: ScriptedServerToolCall[]; text?: string; usage?: ScriptedServerUsage }
  | { error: ScriptedServerError };

/** A request as the server received it. */
export interface ReceivedRequest {
  index: number;
  path: string;
  /** The parsed JSON body. */
  body: ChatCompletionRequestBody;
  /** The usage the server reported in its answer (absent for an error, or a stream without `include_usage`). */
  reportedUsage?: ScriptedServerUsage;
}

/** The fields of a Chat Completions request body that tests look at; the rest is kept as sent. */
export interface ChatCompletionRequestBody {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages: ChatMessage[];
  tools?: unknown[];
  [field: string]: unknown;
}

export interface ChatMessage {
  role: string;
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export type ServerScript = readonly ScriptedServerResponse[] | ((request: ReceivedRequest) => ScriptedServerResponse);

export interface OpenAICompatibleServer {
  /** `http://127.0.0.1:<port>/v1`, the `baseURL` of `createOpenAICompatible`. */
  baseURL: string;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * The error an OpenAI server answers when the prompt does not fit the model.
 *
 * @example
 * startOpenAICompatibleServer({ script: [contextLengthExceeded({ limit: 4096, requested: 5120 })] })
 */
export function contextLengthExceeded({
  limit = 8192,
  requested = limit + 1,
}: { limit?: number; requested?: number } = {}): { error: ScriptedServerError } {
  return {
    error: {
      status: 400,
      message:
        `This model's maximum context length is ${limit} tokens. ` +
        `However, your messages resulted in ${requested} tokens. Please reduce the length of the messages.`,
      type: "invalid_request_error",
      code: "context_length_exceeded",
    },
  };
}

/**
 * Characters of a request's message contents, tool calls and tool definitions, divided by four:
 * the prompt tokens reported when a scripted response names none.
 *
 * @example promptTokensOf({ messages: [{ role: "user", content: "hello world!" }] }) // 3
 */
export function promptTokensOf(body: ChatCompletionRequestBody): number {
  let characters = body.tools === undefined ? 0 : JSON.stringify(body.tools).length;
  for (const message of body.messages) {
    characters += textOf(message).length;
    for (const call of message.tool_calls ?? [])
      characters += call.function.name.length + call.function.arguments.length;
  }
  return Math.ceil(characters / 4);
}

/** The text of a message's content (string or text parts). */
export function textOf(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  return (message.content ?? []).map((part) => part.text ?? "").join("");
}

/**
 * Starts the server; an exhausted script answers 400 `script_exhausted`.
 *
 * @example
 * const server = await startOpenAICompatibleServer({ script: [{ text: "hello" }] });
 * const provider = createOpenAICompatible({ name: "local", baseURL: server.baseURL, includeUsage: true });
 * await server.close();
 */
export async function startOpenAICompatibleServer({
  script,
  chunkSize = 16,
  chunkDelayMs = 0,
}: {
  script: ServerScript;
  /** Characters per streamed delta. */
  chunkSize?: number;
  /** Pause before each streamed event after the first, for a slow stream a client can interrupt (it stops when the client disconnects). */
  chunkDelayMs?: number;
}): Promise<OpenAICompatibleServer> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      if (request.method !== "POST" || path !== "/v1/chat/completions")
        return sendJson(
          response,
          404,
          errorBody({ status: 404, message: `No route for ${request.method} ${path}`, type: "not_found" }),
        );
      let body: ChatCompletionRequestBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatCompletionRequestBody;
      } catch {
        return sendJson(
          response,
          400,
          errorBody({ status: 400, message: "The body is not JSON.", type: "invalid_request_error" }),
        );
      }
      const received: ReceivedRequest = { index: requests.length, path, body };
      requests.push(received);
      const scripted = typeof script === "function" ? script(received) : script[received.index];
      const answer = scripted ?? {
        error: {
          status: 400,
          message: `The script has no response for request ${received.index}.`,
          type: "invalid_request_error",
          code: "script_exhausted",
        },
      };
      if ("error" in answer) return sendJson(response, answer.error.status, errorBody(answer.error));
      const completion = completionOf(answer, received);
      const includeUsage = body.stream !== true || body.stream_options?.include_usage === true;
      if (includeUsage) received.reportedUsage = completion.usage;
      if (body.stream === true) {
        sendEvents(response, streamChunks(completion, { includeUsage, chunkSize }), chunkDelayMs).catch(
          (error: unknown) => response.destroy(error instanceof Error ? error : new Error(String(error))),
        );
        return;
      }
      sendJson(response, 200, completionJson(completion));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}

interface Completion {
  id: string;
  model: string;
  text: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  usage: ScriptedServerUsage;
}

function completionOf(
  answer: Exclude<ScriptedServerResponse, { error: ScriptedServerError }>,
  received: ReceivedRequest,
): Completion {
  const toolCalls = ("toolCalls" in answer ? answer.toolCalls : []).map((call, position) => ({
    id: call.id ?? `call_${received.index}_${position}`,
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
  }));
  const text = answer.text ?? "";
  return {
    id: `chatcmpl-${received.index}`,
    model: received.body.model ?? "scripted",
    text,
    toolCalls,
    usage: answer.usage ?? {
      promptTokens: promptTokensOf(received.body),
      completionTokens: Math.ceil((text.length + toolCalls.reduce((sum, call) => sum + call.arguments.length, 0)) / 4),
    },
  };
}

function usageJson(usage: ScriptedServerUsage) {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}

function finishReasonOf(completion: Completion): string {
  return completion.toolCalls.length > 0 ? "tool_calls" : "stop";
}

/** The `chat.completion.chunk` objects of a streamed answer, in order. */
function streamChunks(
  completion: Completion,
  { includeUsage, chunkSize }: { includeUsage: boolean; chunkSize: number },
): unknown[] {
  const frame = (choices: unknown[]) => ({
    id: completion.id,
    object: "chat.completion.chunk",
    created: 1_767_225_600,
    model: completion.model,
    choices,
  });
  const delta = (content: Record<string, unknown>) => frame([{ index: 0, delta: content, finish_reason: null }]);
  const chunks: unknown[] = [delta({ role: "assistant", content: "" })];
  for (const piece of pieces(completion.text, chunkSize)) chunks.push(delta({ content: piece }));
  completion.toolCalls.forEach((call, index) => {
    chunks.push(
      delta({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    for (const piece of pieces(call.arguments, chunkSize))
      chunks.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(frame([{ index: 0, delta: {}, finish_reason: finishReasonOf(completion) }]));
  if (includeUsage) chunks.push({ ...frame([]), usage: usageJson(completion.usage) });
  return chunks;
}

function completionJson(completion: Completion) {
  const toolCalls = completion.toolCalls.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: completion.id,
    object: "chat.completion",
    created: 1_767_225_600,
    model: completion.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: completion.text.length > 0 ? completion.text : null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: finishReasonOf(completion),
      },
    ],
    usage: usageJson(completion.usage),
  };
}

function pieces(text: string, size: number): string[] {
  const result: string[] = [];
  for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
  return result;
}

function errorBody(error: ScriptedServerError) {
  return {
    error: {
      message: error.message,
      type: error.type ?? "invalid_request_error",
      param: null,
      code: error.code ?? null,
    },
  };
}

function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

async function sendEvents(response: http.ServerResponse, chunks: readonly unknown[], delayMs: number): Promise<void> {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  for (const [index, chunk] of chunks.entries()) {
    if (delayMs > 0 && index > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    // The client went away (an aborted request): stop writing.
    if (response.destroyed) return;
    response.write(`data: ${JSON.stringify(chunk)}\n\n`);
  }
  response.end("data: [DONE]\n\n");
}
