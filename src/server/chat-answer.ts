/**
 * One answer of the web chat: a `useChat` request answered as the AI SDK's route helper for
 * node:http (`pipeAgentUIStreamToResponse`) answers it, by a `createContextAgent` agent, with
 * ctxwin's data parts kept (ADR 0077). The AI SDK validates the client's messages; the agent
 * takes only the new user message and checks the rest against the store (ADR 0057). Anything
 * refused before the answer starts is a 400 with nothing written. The answer's last byte waits for
 * `idle`: a client that has read the whole answer may send its next message at once (ADR 0070).
 */
import type { ServerResponse } from "node:http";
import {
  AISDKError,
  convertToModelMessages,
  pipeUIMessageStreamToResponse,
  validateUIMessages,
  type UIMessageChunk,
} from "ai";
import { fileDataProblem } from "../core/file-data.js";
import { AgentInputError } from "../session/context-agent/agent-input.js";
import type { ContextAgent } from "../session/context-agent/create-context-agent.js";
import type { ContextStreamResult } from "../session/context-agent/agent-results.js";
import type { SendResult } from "../session/session-types.js";
import type { CtxwinUIMessage } from "../session/ui-message-stream.js";
import { badRequest } from "./api-error.js";
import { SECURITY_HEADERS } from "./http-io.js";

/** Largest body of a chat request: room for a long message list; a message over the input cap is a clear 400. */
export const MAX_CHAT_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Streams the agent's answer to `uiMessages` on `response` and returns, once the answer has
 * started, how the send ends (`onStart` is called first) and how the writing of the answer ends
 * (`written`). Throws a 400 `ApiError` (nothing written, no header sent) when the AI SDK or the
 * agent refuses the messages.
 *
 * @example const { ended } = await pipeChatAnswer({ agent, uiMessages, response, signal }); await ended;
 */
export async function pipeChatAnswer({
  agent,
  uiMessages,
  response,
  signal,
  onStart = () => undefined,
  idle = Promise.resolve(),
}: {
  agent: ContextAgent;
  uiMessages: unknown[];
  response: ServerResponse;
  signal: AbortSignal;
  /** The messages were taken and the send started. */
  onStart?: () => void;
  /** Settles when the session can take its next turn; the answer's stream closes after it. */
  idle?: Promise<void>;
}): Promise<{ ended: Promise<SendResult>; written: Promise<void> }> {
  let outcome: Promise<SendResult> | undefined;
  let streaming!: () => void;
  const started = new Promise<void>((resolve) => (streaming = resolve));
  // What `pipeAgentUIStreamToResponse` does (validate, convert, `agent.stream`), but the answer is
  // written from the result's own UI message stream: AI SDK 7's helper reads `result.stream`, where
  // ctxwin's data parts can only travel as `custom` parts, and the page draws the data parts.
  const written = (async () => {
    checkNewFileParts(uiMessages);
    const validated = await validateUIMessages<CtxwinUIMessage>({ messages: uiMessages });
    const prompt = await convertToModelMessages(validated, { tools: agent.tools });
    const result = (await agent.stream({ prompt, abortSignal: signal })) as unknown as ContextStreamResult;
    outcome = result.ctxwin;
    onStart();
    streaming();
    // Held open until `idle`: the answer ends before the turn's bookkeeping (the stored rows'
    // notice, the usage, `turn-end`), so without this a client that sends right after the answer's
    // end could find the session still busy (409).
    const stream = result
      .toUIMessageStream({ originalMessages: validated })
      .pipeThrough(new TransformStream<UIMessageChunk, UIMessageChunk>({ flush: () => idle }));
    await pipeUIMessageStreamToResponse({
      response,
      stream,
      headers: { ...SECURITY_HEADERS, "Cache-Control": "no-store" },
    });
  })();
  try {
    await Promise.race([started, written]);
  } catch (error) {
    throw refusal(error);
  }
  if (outcome === undefined) throw new Error("The chat answer started without a send.");
  return { ended: outcome, written };
}

/**
 * The file parts of the new (last) message, checked on the client's UI message before the AI SDK
 * validates and converts it (ADR 0082, core/file-data.ts): a file travels as a base64 `data:` URL
 * of an allowed media type; a URL (`file:`, `https:`, …) is refused with ctxwin's own message
 * before anything is stored or fetched. A part the SDK's validation would refuse anyway (no `url`
 * text) is left to it.
 */
function checkNewFileParts(uiMessages: unknown[]): void {
  const last = uiMessages.at(-1);
  if (typeof last !== "object" || last === null) return;
  const parts = (last as { parts?: unknown }).parts;
  if (!Array.isArray(parts)) return;
  for (const part of parts) {
    if (typeof part !== "object" || part === null || (part as { type?: unknown }).type !== "file") continue;
    const { url, mediaType } = part as { url?: unknown; mediaType?: unknown };
    if (typeof url !== "string" || typeof mediaType !== "string") continue;
    const problem = fileDataProblem({ url, mediaType });
    if (problem !== undefined) throw new AgentInputError(problem);
  }
}

/** A request the AI SDK's validation or the agent refused: the client's fault, a 400. */
function refusal(error: unknown): unknown {
  if (AgentInputError.isInstance(error)) return badRequest(error.message);
  if (AISDKError.isInstance(error)) return badRequest(`The chat messages are not valid: ${error.message}`);
  return error;
}
