/**
 * One send as the AI SDK's UI message stream, the stream `useChat` reads: the model's own chunks
 * (steps, text, reasoning, tool calls and results as the SDK's tool parts) of every turn the send
 * runs (continuations after a rollover, the warning turn, a notes-flush step) in one assistant
 * message, and ctxwin's budget facts as typed data parts a page can draw: `data-ctxwin-rollover`,
 * `-compaction`, `-warning`, `-usage`, `-notes-flush`, `-notes` (the notes file was written),
 * `-blocked`, `-retry`.
 */
import {
  createUIMessageStream,
  type FinishReason,
  type StepResult,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
  type UIMessageStreamOnFinishCallback,
} from "ai";
import type { SessionEventMap, SessionEventName, TurnSink } from "./session-events.js";
import type { SendInput, SendOptions, SendResult } from "./session-types.js";
import type { CompactionInfo, CtxwinDataTypes, RolloverInfo, WarningInfo } from "./ui-data-parts.js";

export type { CtxwinDataTypes };

export type CtxwinUIMessage = UIMessage<unknown, CtxwinDataTypes>;

export interface UIMessageStreamOptions {
  /** The client's messages: when the last one is an assistant message, the answer continues it. */
  originalMessages?: CtxwinUIMessage[];
  /** Called once the answer's message is complete (AI SDK 7's name). */
  onEnd?: UIMessageStreamOnFinishCallback<CtxwinUIMessage>;
  /** @deprecated AI SDK 7's name is `onEnd` (used when both are given). */
  onFinish?: UIMessageStreamOnFinishCallback<CtxwinUIMessage>;
  /** Id of the assistant message (default: a new one). */
  generateMessageId?: () => string;
  /** What the client sees of a failure (default: the error's message). */
  onError?: (error: unknown) => string;
  /** Interrupts the send, as `send`'s `signal` does. */
  signal?: AbortSignal;
}

type SendWithSink = (input: SendInput, options: SendOptions, sink: TurnSink) => Promise<SendResult>;

/** A send's chunks as they come, readable from the start by any number of readers. */
export interface SendChunks {
  /** A new stream of every chunk, from the first (`start`) to the last (`finish`, `error` or `abort`). */
  stream(): ReadableStream<UIMessageChunk>;
  /** How the send ended. */
  result: Promise<SendResult>;
  /** Every settled step as the AI SDK reports it, in order. */
  steps: Array<StepResult<ToolSet>>;
}

/**
 * Starts one send and records its output as UI message chunks: `start`, the steps of every turn,
 * ctxwin's data parts, then `finish` (with the last step's finish reason), an `error` chunk before
 * it when the send failed, or `abort` when it was interrupted.
 *
 * @example const chunks = startSendChunks({ send, input: "hi", notesPath: undefined }); await chunks.result;
 */
export function startSendChunks({
  send,
  input,
  notesPath,
  signal,
  onStep,
}: {
  send: SendWithSink;
  input: SendInput;
  notesPath: string | undefined;
  signal?: AbortSignal | undefined;
  /** Each settled step as the AI SDK reports it; the next step waits for it. */
  onStep?: ((step: StepResult<ToolSet>) => void | PromiseLike<void>) | undefined;
}): SendChunks {
  const hub = chunkHub();
  const steps: Array<StepResult<ToolSet>> = [];
  let finishReason: FinishReason = "stop";
  const sink = uiSink({
    write: hub.push,
    notesPath,
    onStep: (step) => {
      steps.push(step);
      finishReason = step.finishReason;
      return onStep?.(step);
    },
  });
  hub.push({ type: "start" });
  const result = send(input, signal === undefined ? {} : { signal }, sink).then(
    (outcome) => {
      if (outcome.status === "interrupted") hub.push({ type: "abort" });
      else {
        if (outcome.status === "failed")
          hub.push({ type: "error", errorText: (outcome.error ?? new Error("The send failed.")).message });
        hub.push({
          type: "finish",
          finishReason:
            outcome.status === "completed" ? finishReason : outcome.status === "blocked" ? "other" : "error",
        });
      }
      hub.close();
      return outcome;
    },
    (error: unknown) => {
      hub.push({ type: "error", errorText: error instanceof Error ? error.message : String(error) });
      hub.close();
      throw error;
    },
  );
  return { stream: hub.stream, result, steps };
}

/**
 * The chunks of a send as the stream `useChat` reads: the message id, `originalMessages` (an answer
 * that continues the client's last assistant message) and `onEnd` handled by the AI SDK.
 *
 * @example return createUIMessageStreamResponse({ stream: uiMessageStreamOf(chunks, { originalMessages }) });
 */
export function uiMessageStreamOf(
  chunks: SendChunks,
  options: Omit<UIMessageStreamOptions, "signal"> = {},
): ReadableStream<UIMessageChunk> {
  return createUIMessageStream<CtxwinUIMessage>({
    ...(options.originalMessages === undefined ? {} : { originalMessages: options.originalMessages }),
    ...((options.onEnd ?? options.onFinish) === undefined ? {} : { onEnd: options.onEnd ?? options.onFinish }),
    ...(options.generateMessageId === undefined ? {} : { generateId: options.generateMessageId }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
    execute: ({ writer }) => writer.merge(chunks.stream() as never),
  });
}

/**
 * @example
 * const stream = sendAsUIMessageStream({ send, input: "Fix the build", notesPath });
 * return createUIMessageStreamResponse({ stream });
 */
export function sendAsUIMessageStream({
  send,
  input,
  notesPath,
  options = {},
}: {
  send: SendWithSink;
  input: SendInput;
  notesPath: string | undefined;
  options?: UIMessageStreamOptions;
}): ReadableStream<UIMessageChunk> {
  return uiMessageStreamOf(startSendChunks({ send, input, notesPath, signal: options.signal }), options);
}

/** An append-only list of chunks that any number of streams read from the start. */
function chunkHub() {
  const chunks: UIMessageChunk[] = [];
  const waiting = new Set<() => void>();
  let closed = false;
  const wake = () => {
    for (const resolve of waiting) resolve();
    waiting.clear();
  };
  return {
    push(chunk: UIMessageChunk): void {
      if (closed) return;
      chunks.push(chunk);
      wake();
    },
    close(): void {
      closed = true;
      wake();
    },
    stream(): ReadableStream<UIMessageChunk> {
      let index = 0;
      return new ReadableStream<UIMessageChunk>({
        async pull(controller) {
          while (index >= chunks.length && !closed) await new Promise<void>((resolve) => waiting.add(resolve));
          if (index < chunks.length) controller.enqueue(chunks[index++]!);
          else controller.close();
        },
      });
    },
  };
}

/** A sink that writes a send's output as UI message chunks. */
function uiSink({
  write,
  notesPath,
  onStep,
}: {
  write: (chunk: UIMessageChunk) => void;
  notesPath: string | undefined;
  onStep: (step: StepResult<ToolSet>) => void | PromiseLike<void>;
}): TurnSink {
  const notesCalls = new Set<string>();
  const data = <Name extends keyof CtxwinDataTypes & string>(
    name: Name,
    value: CtxwinDataTypes[Name],
    extra: { id?: string; transient?: boolean } = {},
  ) => write({ type: `data-${name}`, data: value, ...extra } as UIMessageChunk);
  return {
    chunk(chunk) {
      write(chunk);
      if (notesPath === undefined) return;
      if (chunk.type === "tool-input-available" && writesNotes(chunk.toolName, chunk.input, notesPath))
        notesCalls.add(chunk.toolCallId);
      if (chunk.type === "tool-output-available" && notesCalls.delete(chunk.toolCallId))
        data("ctxwin-notes", { path: notesPath, toolCallId: chunk.toolCallId });
    },
    step: onStep,
    event<Name extends SessionEventName>(name: Name, event: SessionEventMap[Name]) {
      const payload = event as never;
      switch (name) {
        case "rollover":
          return data("ctxwin-rollover", payload, { id: (event as RolloverInfo).rolloverId });
        case "compaction":
          return data("ctxwin-compaction", payload, { id: `compaction:${(event as CompactionInfo).windowId}` });
        case "budget-warning":
          return data("ctxwin-warning", payload, { id: `warning:${(event as WarningInfo).windowId}` });
        case "usage":
          // One part, updated in place: the newest figures.
          return data("ctxwin-usage", payload, { id: "ctxwin-usage" });
        case "notes-flush":
          return data("ctxwin-notes-flush", payload);
        case "blocked":
          return data("ctxwin-blocked", payload);
        case "retry": {
          const retry = event as SessionEventMap["retry"];
          return data(
            "ctxwin-retry",
            { retry: retry.retry, message: retry.error.message, discardedText: retry.discardedText },
            { transient: true },
          );
        }
        default:
          return undefined;
      }
    },
  };
}

/** Whether a call of the memory tool writes the notes file. */
function writesNotes(toolName: string, input: unknown, notesPath: string): boolean {
  if (toolName !== "memory" || typeof input !== "object" || input === null) return false;
  const { command, path, old_path: oldPath, new_path: newPath } = input as Record<string, unknown>;
  if (command === "view") return false;
  return path === notesPath || oldPath === notesPath || newPath === notesPath;
}
