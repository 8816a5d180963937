/**
 * Turns the SDK's UI message stream into one assistant row per settled step and stores each one
 * before the next step is requested. The SDK's own reader (`readUIMessageStream`) builds the row,
 * so a tool call and its result always land in one part (docs/design.md §10, invariant 5).
 */
import {
  readUIMessageStream,
  type LanguageModelUsage,
  type StepResult,
  type ToolSet,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import type { RowInput, RowPart } from "../core/row.js";
import { stepMetadata, type StepCacheHints } from "../core/rollover/step-usage.js";
import type { HistoryStore, StoredRow } from "../store/port.js";
import { cacheHintsOf } from "./cache-hints.js";
import { createDeferredList } from "./deferred.js";
import { SessionStoreError } from "./errors.js";
import type { StepUsageSummary } from "./session-types.js";

const framingChunks: ReadonlySet<string> = new Set([
  "start",
  "finish",
  "start-step",
  "finish-step",
  "error",
  "abort",
  "message-metadata",
]);
const settledToolStates: ReadonlySet<string> = new Set(["output-available", "output-error", "output-denied"]);

export interface StoredStep {
  row: StoredRow;
  stepIndex: number;
  usage: StepUsageSummary;
  model: string;
  /** Input tokens the provider reported for the step's request, when it did. */
  reportedInputTokens: number | undefined;
  /** Our raw estimate of that request, when known. */
  estimatedInputTokens: number | undefined;
}

export interface StepRecorderOptions {
  store: HistoryStore;
  sessionId: string;
  generateId: () => string;
  /** Prefix of the operation ids of the step appends (retry-safe). */
  operationPrefix: string;
  /** Tokens of a row with these parts as it is sent (its view). */
  tokensOf: (parts: RowPart[]) => number;
  /** Our raw estimate of the request step `index` answered, kept for calibration. */
  estimateOf?: (stepIndex: number) => number | undefined;
  /** Our calibrated estimate of that request: the figure checked against the hard ceiling. */
  checkedEstimateOf?: (stepIndex: number) => number | undefined;
  onStored: (step: StoredStep) => void;
  /** Assistant text as it streams, with the index of the step it belongs to. */
  onTextDelta?: (delta: string, stepIndex: number) => void;
  /** Every chunk of the stream as it arrives, with the index of the step it belongs to (the UI stream). */
  onChunk?: (chunk: UIMessageChunk, stepIndex: number) => void;
  /** The context limit the turn is budgeted against, stored with each step. */
  contextLimit?: number | undefined;
  /**
   * Asked when the stream ends inside a step: whether what streamed of it is stored as a partial
   * step (default: yes). A step that will be requested again (a transient failure retried) is not.
   */
  keepPartial?: () => boolean;
}

/**
 * @example
 * const recorder = createStepRecorder({ store, sessionId, generateId, operationPrefix: "turn-1", tokensOf, onStored });
 * const result = streamText({ ..., onStepEnd: recorder.acceptStepResult });
 * await recorder.consume(result.toUIMessageStream());
 */
export function createStepRecorder({
  store,
  sessionId,
  generateId,
  operationPrefix,
  tokensOf,
  estimateOf = () => undefined,
  checkedEstimateOf = () => undefined,
  onStored,
  onTextDelta = () => undefined,
  onChunk = () => undefined,
  contextLimit,
  keepPartial = () => true,
}: StepRecorderOptions) {
  const stepResults = createDeferredList<StepResult<ToolSet>>();
  const storedSteps = createDeferredList<StoredStep>();
  const rows: StoredRow[] = [];
  let stepIndex = 0;
  let segment: UIMessageChunk[] | undefined;
  let segmentHasContent = false;
  let aborted = false;
  let partialStored = false;
  let segmentFailed = false;
  let contentSeen = false;
  let discardedText = "";
  let cutStep = false;

  async function storeStep(parts: RowPart[], step: StepFacts): Promise<StoredStep> {
    const estimated = estimateOf(stepIndex);
    const checked = checkedEstimateOf(stepIndex);
    const input: RowInput = {
      id: generateId(),
      role: "assistant",
      parts,
      metadata: stepMetadata({
        usage: { inputTokens: step.reportedInput, outputTokens: step.reportedOutput, ...step.reportedCache },
        ...(step.cache === undefined ? {} : { cache: step.cache }),
        model: step.model,
        finishReason: step.finishReason,
        ...(estimated === undefined ? {} : { estimatedInputTokens: estimated }),
        ...(checked === undefined ? {} : { checkedInputTokens: checked }),
        ...(contextLimit === undefined ? {} : { contextLimit }),
        ...(step.notRunToolCallIds === undefined || step.notRunToolCallIds.length === 0
          ? {}
          : { notRunToolCallIds: step.notRunToolCallIds }),
      }),
      tokens: tokensOf(parts),
    };
    let stored: StoredRow[];
    try {
      stored = await store.append(sessionId, [input], { operationId: `${operationPrefix}:step:${stepIndex}` });
    } catch (error) {
      throw new SessionStoreError(`step ${stepIndex} of the turn`, error);
    }
    const row = stored[0];
    if (row === undefined)
      throw new SessionStoreError(`step ${stepIndex} of the turn`, new Error("the store returned no row"));
    rows.push(row);
    const result: StoredStep = {
      row,
      stepIndex,
      usage: step.usage,
      model: step.model,
      reportedInputTokens: step.reportedInput,
      estimatedInputTokens: estimated,
    };
    onStored(result);
    return result;
  }

  async function finishSegment(chunks: UIMessageChunk[]): Promise<void> {
    const index = stepIndex;
    try {
      const message = await lastMessage(chunks);
      const step = await stepResults.at(index).promise;
      const reportedInput = step.usage.inputTokens;
      const reportedOutput = step.usage.outputTokens;
      const reportedCache = cacheUsageOf(step.usage);
      const cache = cacheHintsOf(step.providerMetadata);
      const stored = await storeStep(message.parts as RowPart[], {
        usage: {
          inputTokens: reportedInput ?? 0,
          outputTokens: reportedOutput ?? 0,
          cacheReadTokens: reportedCache.cacheReadTokens ?? 0,
          cacheWriteTokens: reportedCache.cacheWriteTokens ?? 0,
        },
        model: `${step.model.provider}:${step.model.modelId}`,
        finishReason: step.finishReason,
        reportedInput,
        reportedOutput,
        notRunToolCallIds: refusedToolCallIds(step),
        reportedCache,
        cache,
      });
      storedSteps.at(index).resolve(stored);
    } catch (error) {
      storedSteps.at(index).reject(error);
      throw error;
    } finally {
      stepIndex = index + 1;
    }
  }

  /**
   * A step the stream cut (a failure or an abort before it settled): what it delivered is stored
   * as a partial step (`finishReason: "interrupted"`, tool calls without a settled result dropped),
   * unless `keepPartial` says the step will be requested again.
   */
  async function cutSegment(chunks: UIMessageChunk[], model: string): Promise<void> {
    const index = stepIndex;
    cutStep = true;
    try {
      const message = await lastMessage(chunks);
      const parts = (message.parts as RowPart[]).filter((part) => !isUnsettledTool(part));
      if (!parts.some((part) => part.type !== "step-start")) return;
      if (!keepPartial()) {
        discardedText = parts.map((part) => (part.type === "text" ? (part as { text: string }).text : "")).join("");
        return;
      }
      await storeStep(parts, {
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
        model,
        finishReason: "interrupted",
        reportedInput: undefined,
        reportedOutput: undefined,
        reportedCache: {},
        cache: undefined,
      });
      partialStored = true;
    } finally {
      // No later step may build on a step that did not settle.
      storedSteps.at(index).reject(new Error("the stream failed before this step settled"));
      stepIndex = index + 1;
    }
  }

  return {
    /** Pass as `onStepEnd` of `streamText`. */
    acceptStepResult(step: StepResult<ToolSet>): void {
      stepResults.at(step.stepNumber).resolve(step);
    },
    /** Resolves once step `index` is stored (rejects when storing it failed). */
    stored(index: number): Promise<StoredStep> {
      return storedSteps.at(index).promise;
    },
    /** Rows stored so far in this turn. */
    rows,
    /** Whether the current attempt produced any content (text, reasoning, tool calls). */
    get streamedAnything(): boolean {
      return rows.length > 0 || contentSeen;
    },
    /** Whether the last step was cut before it settled and what it streamed was stored as a partial step. */
    get partialStored(): boolean {
      return partialStored;
    },
    /** Whether a step was cut before it settled, by a failure or an abort (its content stored as partial, discarded, or none). */
    get cutStep(): boolean {
      return cutStep;
    },
    /** Text of a partial step that was not stored (`keepPartial` said no); '' otherwise. */
    get discardedText(): string {
      return discardedText;
    },
    /** Whether the stream ended with an `abort` chunk (the call's abort signal fired). */
    get aborted(): boolean {
      return aborted;
    },
    /** Reads the whole stream; stores each step as it settles and a partial last step, if any. */
    async consume(stream: AsyncIterable<UIMessageChunk>, { model }: { model: string }): Promise<void> {
      try {
        for await (const chunk of stream) {
          onChunk(chunk, stepIndex);
          if (chunk.type === "start-step") {
            segment = [chunk];
            segmentHasContent = false;
            segmentFailed = false;
            continue;
          }
          if (chunk.type === "abort") aborted = true;
          if (segment === undefined) continue;
          // A provider failure inside a step (an SSE `error` event, `response.failed`): the SDK
          // still closes the step, but it did not settle.
          if (chunk.type === "error") {
            segmentFailed = true;
            continue;
          }
          segment.push(chunk);
          if (chunk.type === "text-delta") onTextDelta(chunk.delta, stepIndex);
          if (!framingChunks.has(chunk.type)) segmentHasContent = contentSeen = true;
          if (chunk.type === "finish-step") {
            const chunks = segment;
            const failed = segmentFailed;
            segment = undefined;
            segmentHasContent = false;
            segmentFailed = false;
            await (failed ? cutSegment(chunks, model) : finishSegment(chunks));
          }
        }
      } finally {
        storedSteps.rejectPending(new Error("the stream ended before this step settled"));
      }
      if (segment !== undefined) {
        const chunks = segment;
        segment = undefined;
        if (segmentHasContent || segmentFailed) await cutSegment(chunks, model);
      }
    },
  };
}

export type StepRecorder = ReturnType<typeof createStepRecorder>;

interface StepFacts {
  usage: StepUsageSummary;
  model: string;
  finishReason: string;
  reportedInput: number | undefined;
  reportedOutput: number | undefined;
  /** The cache figures the provider reported (absent when it reported none). */
  reportedCache: { cacheReadTokens?: number; cacheWriteTokens?: number };
  cache: StepCacheHints | undefined;
  /** Tool calls the SDK refused before running them (docs/adr/0050). */
  notRunToolCallIds?: string[];
}

/** The cache reads and writes of a step's usage (the AI SDK's `inputTokenDetails`), only those reported. */
function cacheUsageOf(usage: LanguageModelUsage): { cacheReadTokens?: number; cacheWriteTokens?: number } {
  const read = usage.inputTokenDetails?.cacheReadTokens;
  const write = usage.inputTokenDetails?.cacheWriteTokens;
  return {
    ...(read === undefined ? {} : { cacheReadTokens: read }),
    ...(write === undefined ? {} : { cacheWriteTokens: write }),
  };
}

async function lastMessage(chunks: readonly UIMessageChunk[]): Promise<UIMessage> {
  let last: UIMessage = { id: "", role: "assistant", parts: [] };
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const message of readUIMessageStream({ stream, terminateOnError: true })) last = message;
  return last;
}

/** Calls the SDK refused before running them (unknown or unavailable tool, input its schema rejected). */
function refusedToolCallIds(step: StepResult<ToolSet>): string[] {
  return step.content.flatMap((part) =>
    part.type === "tool-call" && (part as { invalid?: boolean }).invalid === true ? [part.toolCallId] : [],
  );
}

function isUnsettledTool(part: RowPart): boolean {
  const isTool = part.type === "dynamic-tool" || part.type.startsWith("tool-");
  return isTool && !settledToolStates.has(String((part as { state?: unknown }).state));
}
