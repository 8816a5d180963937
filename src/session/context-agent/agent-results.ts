/**
 * What `createContextAgent`'s `stream` and `generate` return: the members of the AI SDK's
 * `StreamTextResult` and `GenerateTextResult` that an agent's callers use (`toUIMessageStream`,
 * `toUIMessageStreamResponse`, `pipeUIMessageStreamToResponse`, `textStream`, `text`, `steps`,
 * `usage`, `finalStep`, `finishReason`, …), built from the send's chunks, plus `ctxwin` (the
 * send's result: rollovers, warnings, status). Members of those types not listed here are not
 * provided (`fullStream`, structured `output`, …). As in AI SDK 7, `usage`, `content`, `toolCalls`
 * and `toolResults` cover every step of the call (`totalUsage` is the deprecated name of `usage`);
 * `finalStep` is the last step.
 */
import {
  createTextStreamResponse,
  createUIMessageStreamResponse,
  pipeUIMessageStreamToResponse,
  type FinishReason,
  type LanguageModelUsage,
  type StepResult,
  type TextStreamPart,
  type ToolSet,
  type UIMessageChunk,
} from "ai";
import type { ServerResponse } from "node:http";
import type { SendResult } from "../session-types.js";
import { uiMessageStreamOf, type SendChunks, type UIMessageStreamOptions } from "../ui-message-stream.js";
import { agentStreamOf } from "./agent-stream-parts.js";

type StreamOptions = Omit<UIMessageStreamOptions, "signal">;
type UIMessageStreamResponseInit = ResponseInit & { keepAliveMs?: number };

export interface ContextStreamResult {
  toUIMessageStream(options?: StreamOptions): ReadableStream<UIMessageChunk>;
  toUIMessageStreamResponse(options?: StreamOptions & UIMessageStreamResponseInit): Response;
  pipeUIMessageStreamToResponse(response: ServerResponse, options?: StreamOptions & UIMessageStreamResponseInit): void;
  toTextStreamResponse(init?: ResponseInit): Response;
  readonly textStream: ReadableStream<string>;
  /**
   * The send as AI SDK 7's stream parts: what `createAgentUIStreamResponse` reads; ctxwin's data
   * parts come as `custom` parts of kind `ctxwin.<name>` (agent-stream-parts.ts).
   */
  readonly stream: ReadableStream<TextStreamPart<ToolSet>>;
  readonly text: Promise<string>;
  readonly finishReason: Promise<FinishReason>;
  /** Usage of every step of the send, summed (AI SDK 7: all steps). */
  readonly usage: Promise<LanguageModelUsage>;
  /** @deprecated The same as `usage` (AI SDK 7). */
  readonly totalUsage: Promise<LanguageModelUsage>;
  readonly steps: Promise<Array<StepResult<ToolSet>>>;
  /** The last step (undefined when the send settled none). */
  readonly finalStep: Promise<StepResult<ToolSet> | undefined>;
  consumeStream(): Promise<void>;
  /** How the send ended: status, rollovers, warnings, compactions, ctxwin's usage figures. */
  readonly ctxwin: Promise<SendResult>;
}

/**
 * @example const result = streamResultOf(chunks); return result.toUIMessageStreamResponse();
 */
export function streamResultOf(chunks: SendChunks): ContextStreamResult {
  const settled = chunks.result.then((result) => ({ result, steps: chunks.steps }));
  // A caller that reads only the stream must not see an unhandled rejection from the promises it never awaited.
  settled.catch(() => undefined);
  const result: ContextStreamResult = {
    toUIMessageStream: (options = {}) => uiMessageStreamOf(chunks, options),
    toUIMessageStreamResponse: ({ status, statusText, headers, ...options } = {}) =>
      createUIMessageStreamResponse({
        stream: uiMessageStreamOf(chunks, options),
        ...responseInit({ status, statusText, headers }),
      }),
    pipeUIMessageStreamToResponse: (response, { status, statusText, headers, ...options } = {}) =>
      void pipeUIMessageStreamToResponse({
        response,
        stream: uiMessageStreamOf(chunks, options),
        ...responseInit({ status, statusText, headers }),
      }),
    toTextStreamResponse: (init = {}) => createTextStreamResponse({ stream: textStreamOf(chunks), ...init }),
    get textStream() {
      return textStreamOf(chunks);
    },
    get stream() {
      return agentStreamOf(chunks);
    },
    text: settled.then(({ result }) => result.text),
    finishReason: settled.then(({ result, steps }) => finishReasonOf(result, steps)),
    usage: settled.then(({ steps }) => sumUsage(steps.map((step) => step.usage))),
    totalUsage: settled.then(({ steps }) => sumUsage(steps.map((step) => step.usage))),
    steps: settled.then(({ steps }) => [...steps]),
    finalStep: settled.then(({ steps }) => steps.at(-1)),
    consumeStream: () => settled.then(() => undefined),
    ctxwin: chunks.result,
  };
  return result;
}

export interface ContextGenerateResult {
  readonly text: string;
  readonly finishReason: FinishReason;
  /** Of every step, summed (AI SDK 7). */
  readonly usage: LanguageModelUsage;
  /** @deprecated The same as `usage` (AI SDK 7). */
  readonly totalUsage: LanguageModelUsage;
  readonly steps: Array<StepResult<ToolSet>>;
  /** The last step (undefined when the send settled none). */
  readonly finalStep: StepResult<ToolSet> | undefined;
  /** Of every step, in order, as AI SDK 7 reports them. */
  readonly content: StepResult<ToolSet>["content"];
  readonly toolCalls: StepResult<ToolSet>["toolCalls"];
  readonly toolResults: StepResult<ToolSet>["toolResults"];
  /** Of the last step (deprecated in AI SDK 7 for `finalStep.response`). */
  readonly response: StepResult<ToolSet>["response"] | undefined;
  readonly ctxwin: SendResult;
}

/**
 * @example const { text, ctxwin } = await generateResultOf(chunks);
 */
export async function generateResultOf(chunks: SendChunks): Promise<ContextGenerateResult> {
  const outcome = await chunks.result;
  const steps = [...chunks.steps];
  const last = steps.at(-1);
  const usage = sumUsage(steps.map((step) => step.usage));
  return {
    text: outcome.text,
    finishReason: finishReasonOf(outcome, steps),
    usage,
    totalUsage: usage,
    steps,
    finalStep: last,
    content: steps.flatMap((step) => step.content),
    toolCalls: steps.flatMap((step) => step.toolCalls),
    toolResults: steps.flatMap((step) => step.toolResults),
    response: last?.response,
    ctxwin: outcome,
  };
}

function finishReasonOf(result: SendResult, steps: ReadonlyArray<StepResult<ToolSet>>): FinishReason {
  if (result.status === "completed") return steps.at(-1)?.finishReason ?? "stop";
  return result.status === "blocked" ? "other" : "error";
}

function textStreamOf(chunks: SendChunks): ReadableStream<string> {
  return chunks.stream().pipeThrough(
    new TransformStream<UIMessageChunk, string>({
      transform(chunk, controller) {
        if (chunk.type === "text-delta") controller.enqueue(chunk.delta);
      },
    }),
  );
}

function responseInit({ status, statusText, headers }: ResponseInit): ResponseInit {
  return {
    ...(status === undefined ? {} : { status }),
    ...(statusText === undefined ? {} : { statusText }),
    ...(headers === undefined ? {} : { headers }),
  };
}

/** Usage of several steps added up, field by field (a field no step reported stays undefined). */
export function sumUsage(usages: readonly LanguageModelUsage[]): LanguageModelUsage {
  const add = (pick: (usage: LanguageModelUsage) => number | undefined): number | undefined =>
    usages.reduce<number | undefined>(
      (total, usage) => (pick(usage) === undefined ? total : (total ?? 0) + pick(usage)!),
      undefined,
    );
  return {
    inputTokens: add((usage) => usage.inputTokens),
    inputTokenDetails: {
      noCacheTokens: add((usage) => usage.inputTokenDetails?.noCacheTokens),
      cacheReadTokens: add((usage) => usage.inputTokenDetails?.cacheReadTokens),
      cacheWriteTokens: add((usage) => usage.inputTokenDetails?.cacheWriteTokens),
    },
    outputTokens: add((usage) => usage.outputTokens),
    outputTokenDetails: {
      textTokens: add((usage) => usage.outputTokenDetails?.textTokens),
      reasoningTokens: add((usage) => usage.outputTokenDetails?.reasoningTokens),
    },
    totalTokens: add((usage) => usage.totalTokens),
  };
}
