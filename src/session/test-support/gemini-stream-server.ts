/**
 * A local fake of the Gemini API's streaming endpoint (`POST /v1beta/models/<id>:streamGenerateContent?alt=sse`)
 * for tests that drive the real `@ai-sdk/google` package: it records every request body and
 * answers each one from a script with the chunks the API streams (`data:` lines of
 * `GenerateContentResponse`: candidates with content parts, `finishReason` and `usageMetadata` on
 * the last one), an `error` chunk after output started, and its HTTP error bodies.
 */
import type { ServerResponse } from "node:http";
import { listenLocally, scriptedAnswer, streamedPieces } from "./fake-provider-server.js";

/** The API's error object: `{ code, message, status }` (e.g. 400 / `INVALID_ARGUMENT`). */
export interface GeminiError {
  code: number;
  message: string;
  status: string;
}

export type GeminiScriptedResponse =
  | { text: string; promptTokens?: number; outputTokens?: number }
  /** A function call; `thoughtSignature` is the opaque blob thinking models attach to it. */
  | { functionCall: { name: string; args: Record<string, unknown> }; thoughtSignature?: string; promptTokens?: number }
  /** Streams `text`, then a chunk with `error` (the API's failure after output started). */
  | { text: string; midStreamError: GeminiError }
  /** A refusal before the stream: the HTTP status of `error.code` with the API's error body. */
  | { error: GeminiError };

/** A `Content` of a Gemini request: a role and its parts. */
export interface GeminiContent {
  role: string;
  parts: Array<{
    text?: string;
    functionCall?: { name: string; args?: unknown };
    functionResponse?: { name: string; response?: unknown };
    [field: string]: unknown;
  }>;
}

export interface GeminiRequestBody {
  contents: GeminiContent[];
  systemInstruction?: { parts: Array<{ text: string }> };
  generationConfig?: { maxOutputTokens?: number; [field: string]: unknown };
  tools?: unknown;
  [field: string]: unknown;
}

export interface GeminiRequest {
  /** The model id from the path (`gemini-2.5-flash`). */
  model: string;
  body: GeminiRequestBody;
}

export interface GeminiStreamServer {
  /** `http://127.0.0.1:<port>/v1beta`, the `baseURL` of `createGoogleGenerativeAI`. */
  baseURL: string;
  requests: GeminiRequest[];
  close(): Promise<void>;
}

const STREAM_PATH = /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/;

/**
 * Starts the fake on 127.0.0.1 with a random port.
 *
 * @example
 * const server = await startGeminiStreamServer({ script: [{ text: "Hi." }] });
 * createGoogleGenerativeAI({ baseURL: server.baseURL, apiKey: "test" })("gemini-2.5-flash");
 */
export async function startGeminiStreamServer({
  script,
}: {
  script: readonly GeminiScriptedResponse[];
}): Promise<GeminiStreamServer> {
  const requests: GeminiRequest[] = [];
  const server = await listenLocally("/v1beta", (request, text, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const model = STREAM_PATH.exec(url.pathname)?.[1];
    if (request.method !== "POST" || model === undefined || url.searchParams.get("alt") !== "sse") {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          error: { code: 404, message: `no route for ${request.method} ${url.pathname}`, status: "NOT_FOUND" },
        }),
      );
      return;
    }
    const body = JSON.parse(text) as GeminiRequestBody;
    requests.push({ model, body });
    respond(response, model, requests.length, scriptedAnswer(script, body, requests.length - 1));
  });
  return { ...server, requests };
}

/** Answers the `number`th request (from 1), for `model`, with `answer`. */
function respond(response: ServerResponse, model: string, number: number, answer: GeminiScriptedResponse): void {
  if ("error" in answer) {
    response.writeHead(answer.error.code, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: answer.error }));
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (data: unknown) => response.write(`data: ${JSON.stringify(data)}\r\n\r\n`);
  const responseId = `gemini-response-${number}`;
  const promptTokens = "promptTokens" in answer ? (answer.promptTokens ?? 100) : 100;
  if ("functionCall" in answer) {
    const signature = answer.thoughtSignature === undefined ? {} : { thoughtSignature: answer.thoughtSignature };
    const parts = [{ functionCall: { name: answer.functionCall.name, args: answer.functionCall.args }, ...signature }];
    send(chunkOf({ responseId, model, parts, finishReason: "STOP", usage: usageOf(promptTokens, 10) }));
    response.end();
    return;
  }
  const pieces = streamedPieces(answer.text);
  const last = pieces.length - 1;
  for (const [index, piece] of pieces.entries()) {
    const finished = index === last && !("midStreamError" in answer);
    const outputTokens = "outputTokens" in answer ? (answer.outputTokens ?? 10) : 10;
    send(
      chunkOf({
        responseId,
        model,
        parts: [{ text: piece }],
        ...(finished ? { finishReason: "STOP", usage: usageOf(promptTokens, outputTokens) } : {}),
      }),
    );
  }
  if ("midStreamError" in answer) send({ error: answer.midStreamError });
  response.end();
}

function chunkOf({
  responseId,
  model,
  parts,
  finishReason,
  usage,
}: {
  responseId: string;
  model: string;
  parts: unknown[];
  finishReason?: string;
  usage?: Record<string, number>;
}): Record<string, unknown> {
  return {
    candidates: [
      { content: { role: "model", parts }, index: 0, ...(finishReason === undefined ? {} : { finishReason }) },
    ],
    ...(usage === undefined ? {} : { usageMetadata: usage }),
    modelVersion: model,
    responseId,
  };
}

function usageOf(promptTokens: number, outputTokens: number): Record<string, number> {
  return {
    promptTokenCount: promptTokens,
    candidatesTokenCount: outputTokens,
    totalTokenCount: promptTokens + outputTokens,
  };
}
