/**
 * ctxwin's built-in scripted model for the offline demo (and the web UI's `--demo-model`): an AI SDK
 * `LanguageModelV4` that decides every step only from the request it receives (see decide-step.ts),
 * streams its answer in small pieces, and reports usage as the exact token count of the request.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { countTokens } from "../../core/budget/token-count.js";
import { decideStep, type DemoStep } from "./decide-step.js";
import { observeRequest } from "./observe-request.js";

export const DEMO_MODEL_PROVIDER = "ctxwin-demo";
export const DEMO_MODEL_ID = "scripted-explorer";

export interface DemoModelOptions {
  /** Pause before each step's answer starts, so a person can watch (default 0). */
  stepDelayMilliseconds?: number;
  /** Pause before each streamed word (default 0). */
  chunkDelayMilliseconds?: number;
  /** Called with the token count of every request the model receives. */
  onRequest?: (request: { inputTokens: number; step: DemoStep }) => void;
}

/**
 * @example
 * const session = createWorkspaceAgent({
 *   store,
 *   sessionId: "demo",
 *   model: createDemoModel(),
 *   workspaceRoot: ".",
 *   memoryRoot: ".ctxwin/memory",
 *   contextLimit: 16_000,
 * });
 */
export function createDemoModel({
  stepDelayMilliseconds = 0,
  chunkDelayMilliseconds = 0,
  onRequest,
}: DemoModelOptions = {}): LanguageModelV4 {
  let calls = 0;
  const answer = (options: LanguageModelV4CallOptions) => {
    calls += 1;
    const step = decideStep(observeRequest(options));
    const inputTokens = requestTokens(options);
    onRequest?.({ inputTokens, step });
    const outputText = step.kind === "text" ? step.text : JSON.stringify(step.call.input);
    return { step, usage: usageOf(inputTokens, countTokens(outputText)), id: `demo-${calls}` };
  };
  return {
    specificationVersion: "v4",
    provider: DEMO_MODEL_PROVIDER,
    modelId: DEMO_MODEL_ID,
    supportedUrls: {},
    async doGenerate(options) {
      const { step, usage, id } = answer(options);
      const content =
        step.kind === "text"
          ? [{ type: "text" as const, text: step.text }]
          : [
              {
                type: "tool-call" as const,
                toolCallId: `${id}-call`,
                toolName: step.call.toolName,
                input: JSON.stringify(step.call.input),
              },
            ];
      return {
        content,
        finishReason: { unified: step.kind === "text" ? "stop" : "tool-calls", raw: undefined },
        usage,
        warnings: [],
      };
    },
    async doStream(options) {
      const { step, usage, id } = answer(options);
      const parts = streamParts({ step, usage, id });
      const signal = options.abortSignal;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          const part = parts.shift();
          if (part === undefined) {
            controller.close();
            return;
          }
          if (stepDelayMilliseconds > 0 && part.type === "stream-start") await pause(stepDelayMilliseconds, signal);
          if (chunkDelayMilliseconds > 0 && part.type === "text-delta") await pause(chunkDelayMilliseconds, signal);
          if (signal?.aborted === true) {
            controller.error(signal.reason ?? new DOMException("The operation was aborted.", "AbortError"));
            return;
          }
          controller.enqueue(part);
        },
      });
      return { stream };
    },
  };
}

function streamParts({
  step,
  usage,
  id,
}: {
  step: DemoStep;
  usage: LanguageModelV4Usage;
  id: string;
}): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (step.kind === "text") {
    parts.push({ type: "text-start", id });
    for (const piece of step.text.match(/\S+\s*|\s+/g) ?? []) parts.push({ type: "text-delta", id, delta: piece });
    parts.push({ type: "text-end", id });
  } else {
    parts.push({
      type: "tool-call",
      toolCallId: `${id}-call`,
      toolName: step.call.toolName,
      input: JSON.stringify(step.call.input),
    });
  }
  parts.push({
    type: "finish",
    finishReason: { unified: step.kind === "text" ? "stop" : "tool-calls", raw: undefined },
    usage,
  });
  return parts;
}

/** Tokens of the request as sent: system, messages, tool calls and results, tool definitions. */
function requestTokens(options: LanguageModelV4CallOptions): number {
  let total = 0;
  for (const message of options.prompt) {
    if (message.role === "system") {
      total += countTokens(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") total += countTokens(part.text);
      else if (part.type === "tool-call") total += countTokens(`${part.toolName} ${JSON.stringify(part.input)}`);
      else if (part.type === "tool-result")
        total += countTokens(
          part.output.type === "text" || part.output.type === "error-text"
            ? part.output.value
            : JSON.stringify(part.output),
        );
    }
  }
  for (const tool of options.tools ?? []) total += countTokens(JSON.stringify(tool));
  return total;
}

function usageOf(inputTokens: number, outputTokens: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
  };
}

/** Waits, or stops waiting when the call is aborted; leaves no listener behind either way. */
function pause(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
