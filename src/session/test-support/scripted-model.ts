/**
 * A scripted `MockLanguageModelV4` for session tests: each call's answer comes from a script, and
 * every request the provider received is recorded, flattened to text for assertions.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";

export interface ScriptedToolCall {
  toolName: string;
  input: unknown;
  /** The call's id; default `call-<request>-<position>` (a provider may repeat ids, e.g. `call_0`). */
  toolCallId?: string;
}

export interface ScriptedStep {
  text?: string;
  /** Text streamed as these deltas, one chunk each (after `text`, if both are given). */
  textChunks?: string[];
  toolCalls?: ScriptedToolCall[];
  /** Reported input tokens; default: characters of the prompt / 3, rounded up. */
  inputTokens?: number;
  outputTokens?: number;
  /** Thrown by the provider before anything streams. */
  error?: unknown;
  /**
   * Sent as an `error` part after the text (its text part never ends), then the stream finishes
   * with reason `error`: a provider's failure after output began (an SSE `error` event).
   */
  errorMidStream?: unknown;
  /**
   * After its text and tool calls, the stream stalls until the call's abort signal fires, then
   * fails with the signal's reason (like an HTTP response cut by `fetch`'s abort). It never finishes.
   */
  stallUntilAborted?: boolean;
}

export interface RecordedCall {
  index: number;
  prompt: LanguageModelV4Prompt;
  /** Every message flattened to `role: text` lines (tool calls and results as JSON). */
  text: string;
  system: string;
  toolNames: string[];
  /** The tool definitions and call-level provider options as the model received them. */
  tools: NonNullable<LanguageModelV4CallOptions["tools"]>;
  providerOptions: LanguageModelV4CallOptions["providerOptions"];
}

export type Script = ScriptedStep[] | ((call: RecordedCall) => ScriptedStep);

/**
 * @example
 * const { model, calls } = scriptedModel({ script: [{ text: "hello" }] });
 */
export function scriptedModel({
  script,
  provider = "mock",
  modelId = "scripted",
  beforeAnswer,
}: {
  script: Script;
  provider?: string;
  modelId?: string;
  /** Runs when a request arrives, before the script answers (e.g. to look at the store at that moment). */
  beforeAnswer?: (call: RecordedCall) => Promise<void>;
}) {
  const calls: RecordedCall[] = [];
  const model = new MockLanguageModelV4({
    provider,
    modelId,
    doStream: async (options: LanguageModelV4CallOptions) => {
      const call = recordCall(calls.length, options);
      calls.push(call);
      await beforeAnswer?.(call);
      const step = typeof script === "function" ? script(call) : (script[call.index] ?? { text: "(script ended)" });
      if (step.error !== undefined) throw step.error;
      if (step.stallUntilAborted === true)
        return {
          stream: stalledStream(
            streamParts(call, step).filter((part) => part.type !== "finish"),
            options.abortSignal,
          ),
        };
      return { stream: convertArrayToReadableStream(streamParts(call, step)) };
    },
  });
  return { model, calls };
}

function recordCall(index: number, options: LanguageModelV4CallOptions): RecordedCall {
  const lines: string[] = [];
  let system = "";
  for (const message of options.prompt) {
    if (message.role === "system") {
      system += message.content;
      lines.push(`system: ${message.content}`);
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") lines.push(`${message.role}: ${part.text}`);
      else if (part.type === "tool-call")
        lines.push(`${message.role}: call ${part.toolName} ${JSON.stringify(part.input)}`);
      else if (part.type === "tool-result")
        lines.push(`${message.role}: result ${part.toolName} ${JSON.stringify(part.output)}`);
      else if (part.type === "file") lines.push(`${message.role}: [file ${part.mediaType}]`);
    }
  }
  const toolNames = (options.tools ?? []).map((tool) => tool.name);
  return {
    index,
    prompt: options.prompt,
    text: lines.join("\n"),
    system,
    toolNames,
    tools: options.tools ?? [],
    providerOptions: options.providerOptions,
  };
}

function streamParts(call: RecordedCall, step: ScriptedStep): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  const deltas = [...(step.text === undefined ? [] : [step.text]), ...(step.textChunks ?? [])];
  if (deltas.length > 0) {
    const id = `text-${call.index}`;
    parts.push(
      { type: "text-start", id },
      ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: "text-delta", id, delta })),
    );
    // A stalled answer is cut mid-text: its text part never ends.
    if (step.stallUntilAborted !== true && step.errorMidStream === undefined) parts.push({ type: "text-end", id });
  }
  if (step.errorMidStream !== undefined) {
    parts.push(
      { type: "error", error: step.errorMidStream },
      {
        type: "finish",
        finishReason: { unified: "error", raw: undefined },
        usage: {
          inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: undefined, text: undefined, reasoning: undefined },
        },
      },
    );
    return parts;
  }
  (step.toolCalls ?? []).forEach((toolCall, position) => {
    parts.push({
      type: "tool-call",
      toolCallId: toolCall.toolCallId ?? `call-${call.index}-${position}`,
      toolName: toolCall.toolName,
      input: JSON.stringify(toolCall.input),
    });
  });
  const inputTokens = step.inputTokens ?? Math.ceil(call.text.length / 3);
  const outputTokens = step.outputTokens ?? 10;
  parts.push({
    type: "finish",
    finishReason: { unified: (step.toolCalls ?? []).length > 0 ? "tool-calls" : "stop", raw: undefined },
    usage: {
      inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
    },
  });
  return parts;
}

/** Streams `parts`, then waits for `signal` and fails with its reason. */
function stalledStream(
  parts: readonly LanguageModelV4StreamPart[],
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  if (signal === undefined)
    throw new Error("stallUntilAborted needs a call with an abort signal (send with { signal })");
  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      const fail = () => controller.error(signal.reason);
      if (signal.aborted) fail();
      else signal.addEventListener("abort", fail, { once: true });
    },
  });
}
