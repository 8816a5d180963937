/**
 * One turn on `streamText`: the window view is applied on every step (`prepareStep`; with the AI SDK a
 * messages override holds for one step only), each settled step is stored before the next request
 * is built, and after each settled step the budget decides whether the turn stops at that step
 * boundary (`stopWhen`). A rollover is never performed here: the decision is returned to the send
 * flow, which latches it.
 */
import { isStepCount, streamText, type LanguageModel, type ModelMessage } from "ai";
import { deriveWindowPressure, hasBudgetWarning } from "../core/rollover/window-pressure.js";
import type { StoredRow } from "../store/port.js";
import { modelKey, type BudgetEvaluation } from "./budget-policy.js";
import { isContextExceededError } from "./context-exceeded.js";
import { ProviderCallError, RequestOverCeilingError, SessionStoreError } from "./errors.js";
import {
  assembleRequest,
  overheadTokens,
  rowRequestTokens,
  type AssembledRequest,
  type RequestFrame,
  type ToolOutputLimits,
} from "./request-assembly.js";
import { storedRowTokens } from "./row-tokens.js";
import { contextLimitFor, requestFrame, toolOutputLimits, type SessionContext } from "./session-context.js";
import { providerErrorText } from "./provider-error-text.js";
import { providerOptionsOf, selfContainedMessages } from "./provider-options.js";
import { neverFetchUrls } from "./no-url-downloads.js";
import { isTransientProviderError } from "./transient-error.js";
import { createStepRecorder, type StoredStep } from "./step-recorder.js";
import { takeNewContextRequest } from "./new-context.js";
import { applyCallerPrepareStep, loopContexts, mergeProviderOptions, stopConditions } from "./loop-settings.js";
import { chunkForwarder } from "./stream-chunks.js";
import { cacheHintedModel } from "./cache-hints.js";
import { flushStepTools } from "./flush-tools.js";
import { requestSpend } from "./session-usage.js";

export interface TurnStop {
  decision: "warn" | "rollover" | "block";
  evaluation: BudgetEvaluation;
  windowId: string;
  contextLimit: number;
  /** The agent asked for this rollover with `new_context` (docs/adr/0025). */
  requested?: { note: string | undefined };
}

export interface TurnRun {
  /**
   * `interrupted`: the turn's signal aborted it; what streamed of the current step is stored.
   * `context-exceeded`: the provider refused a request as too long before it produced anything;
   * `steps` holds the settled steps before it (none when the first request was refused).
   */
  status: "completed" | "failed" | "context-exceeded" | "blocked" | "interrupted";
  text: string;
  steps: StoredStep[];
  stop?: TurnStop;
  error?: Error;
  reason?: string;
  /** Whether anything was produced (and stored) before a failure. */
  streamedAnything: boolean;
  model?: string;
}

export interface RunTurnOptions {
  windowId: string;
  rows: StoredRow[];
  turnId: string;
  /** Aborts the provider call (and tools); the turn then ends `interrupted`, no fallback is tried. */
  signal?: AbortSignal | undefined;
  /**
   * A notes-flush step (ADR 0024): one step, a short output limit, no budget decision; every tool
   * is offered as in the window's other requests (its cached prefix, ADR 0055), only these run.
   */
  flush?: { runnableTools: string[]; maxOutputTokens: number } | undefined;
}

/**
 * Runs a turn over the active window `rows` (its trigger already stored), trying the primary model
 * and then each fallback that fits its own ceiling.
 *
 * @example
 * const run = await runTurn(context, { windowId: start.windowId, rows: start.rows, turnId, signal });
 */
export async function runTurn(
  context: SessionContext,
  { windowId, rows, turnId, signal, flush }: RunTurnOptions,
): Promise<TurnRun> {
  // A `new_context` request lives only in the turn that made it: one left by a step cut before it settled is dropped.
  context.newContextRequest = undefined;
  const skipped: string[] = [];
  let lastFailure: TurnRun | undefined;
  for (const [index, model] of context.models.entries()) {
    if (signal?.aborted === true) return { status: "interrupted", text: "", steps: [], streamedAnything: false };
    const limit = contextLimitFor(context, model);
    const frame = await requestFrame(context, model, { windowId });
    const limits = toolOutputLimits(context, model);
    const request = await assembleRequest({ rows, frame, limits });
    if (limit !== undefined && request.estimatedTokens > context.policy.hardCeiling(limit)) {
      skipped.push(
        `${modelKey(model)} (about ${request.estimatedTokens} tokens, ceiling ${context.policy.hardCeiling(limit)})`,
      );
      continue;
    }
    const run = await attemptWithRetries(context, {
      model,
      limit,
      frame,
      limits,
      request,
      rows,
      windowId,
      operationPrefix: `${turnId}:attempt-${index}`,
      signal,
      flush,
      retriesLeft: context.maxRetries,
    });
    if (run.status !== "failed" || run.streamedAnything) return run;
    lastFailure = run;
  }
  if (lastFailure !== undefined) return lastFailure;
  return {
    status: "blocked",
    text: "",
    steps: [],
    streamedAnything: false,
    reason:
      `The request does not fit under the hard ceiling of any model: ${skipped.join("; ")}. ` +
      "Clear or compact the session, or use a model with a larger context.",
  };
}

interface AttemptOptions {
  model: LanguageModel;
  limit: number | undefined;
  frame: RequestFrame;
  limits: ToolOutputLimits;
  request: AssembledRequest;
  rows: StoredRow[];
  windowId: string;
  operationPrefix: string;
  signal: AbortSignal | undefined;
  flush: RunTurnOptions["flush"];
  /** Transient failures after the answer began that may still be retried in this turn. */
  retriesLeft: number;
}

/** An attempt that failed after its step began streaming, with a failure worth another try. */
interface RetryableRun extends TurnRun {
  retry: { error: Error; discardedText: string };
}

/**
 * Streams the turn on one model; a transient failure after the answer began (an overloaded server
 * mid-stream) is retried like the SDK retries one before the stream: the cut step is not stored,
 * and the turn goes on from its settled steps after a backoff, at most `retriesLeft` times. The
 * last failure stores what streamed (the interrupt rules, docs/adr/0011) and fails the turn.
 */
async function attemptWithRetries(context: SessionContext, options: AttemptOptions): Promise<TurnRun> {
  const settled: StoredStep[] = [];
  let attempt = options;
  for (let retry = 1; ; retry += 1) {
    const run = await streamAttempt(context, attempt);
    if (!isRetryableRun(run))
      return settled.length === 0 ? run : { ...run, steps: [...settled, ...run.steps], streamedAnything: true };
    settled.push(...run.steps);
    context.events.emit("retry", { error: run.retry.error, retry, discardedText: run.retry.discardedText });
    // A `new_context` call in the discarded step is discarded with it.
    context.newContextRequest = undefined;
    const waited = await waitOrAbort(context.retryDelay(retry), options.signal);
    const rows = [...options.rows, ...settled.map((step) => step.row)];
    if (!waited)
      return {
        status: "interrupted",
        text: lastText(settled),
        steps: settled,
        streamedAnything: true,
        model: modelKey(options.model),
      };
    const request = await assembleRequest({
      rows,
      frame: await requestFrame(context, options.model, { windowId: options.windowId }),
      limits: options.limits,
    });
    attempt = {
      ...options,
      rows,
      request,
      operationPrefix: `${options.operationPrefix}:retry-${retry}`,
      retriesLeft: options.retriesLeft - retry,
    };
  }
}

function isRetryableRun(run: TurnRun): run is RetryableRun {
  return (run as Partial<RetryableRun>).retry !== undefined;
}

/** Resolves `true` after `milliseconds`, or `false` as soon as `signal` aborts. */
function waitOrAbort(milliseconds: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (waited: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(waited);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), milliseconds);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

async function streamAttempt(
  context: SessionContext,
  { model, limit, frame, limits, request, rows, windowId, operationPrefix, signal, flush, retriesLeft }: AttemptOptions,
): Promise<TurnRun> {
  const key = modelKey(model);
  const steps: StoredStep[] = [];
  const estimates: number[] = [request.rawEstimatedTokens];
  const checkedEstimates: number[] = [request.estimatedTokens];
  // Each step's request estimate reuses the previous one: only the rows stored since are counted.
  let previous = request.estimate;
  const recorder = createStepRecorder({
    store: context.store,
    sessionId: context.sessionId,
    generateId: context.generateId,
    operationPrefix,
    tokensOf: (parts) => storedRowTokens({ role: "assistant", parts }),
    estimateOf: (stepIndex) => estimates[stepIndex],
    checkedEstimateOf: (stepIndex) => checkedEstimates[stepIndex],
    contextLimit: limit,
    onStored: (step) => {
      steps.push(step);
      if (step.estimatedInputTokens !== undefined)
        context.calibration.learn(model, { estimated: step.estimatedInputTokens, reported: step.reportedInputTokens });
      context.events.emit("step-end", {
        row: step.row,
        stepIndex: step.stepIndex,
        usage: step.usage,
        model: step.model,
      });
      // A partial step (interrupted, or cut by a failure) has no reported usage: no new budget figure.
      if (step.reportedInputTokens === undefined) return;
      const contextTokens = step.usage.inputTokens;
      context.events.emit("usage", {
        windowId,
        contextTokens,
        contextLimit: limit,
        percent: limit === undefined ? undefined : (contextTokens / limit) * 100,
        ...requestSpend(step.row),
      });
    },
    onTextDelta: (delta, stepIndex) => context.events.emit("text-delta", { delta, stepIndex }),
    onChunk: chunkForwarder(context),
    keepPartial: () => !retryable(streamError),
  });
  let stop: TurnStop | undefined;
  let streamError: unknown;
  const retryable = (failure: unknown): boolean =>
    retriesLeft > 0 && signal?.aborted !== true && failure !== undefined && isTransientProviderError(failure);
  /** The next step's request, assembled when the previous step was evaluated. */
  let prepared: { stepNumber: number; request: AssembledRequest } | undefined;
  // The signal fired between steps: the SDK would still start the next one.
  let stoppedByAbort = false;
  const abortedBetweenSteps = (): boolean => (stoppedByAbort ||= signal?.aborted === true);

  const prepareNextStep = async (stepNumber: number): Promise<{ messages: ModelMessage[]; instructions?: string }> => {
    const next =
      prepared?.stepNumber === stepNumber
        ? prepared.request
        : await assembleRequest({
            rows: [...rows, ...recorder.rows],
            frame: await requestFrame(context, model, { windowId }),
            limits,
            previous,
          });
    prepared = undefined;
    previous = next.estimate;
    estimates[stepNumber] = next.rawEstimatedTokens;
    checkedEstimates[stepNumber] = next.estimatedTokens;
    if (limit !== undefined && next.estimatedTokens > context.policy.hardCeiling(limit))
      throw new RequestOverCeilingError(key, next.estimatedTokens, context.policy.hardCeiling(limit));
    return {
      messages: selfContainedMessages({ messages: next.messages, model, providerStore: context.providerStore }),
      ...(next.system === undefined ? {} : { instructions: next.system }),
    };
  };

  const evaluateSettledStep = async (stepIndex: number): Promise<boolean> => {
    await recorder.stored(stepIndex);
    if (flush !== undefined) return true;
    // A `new_context` call of this step: the turn stops here and the window rolls over.
    const requested = takeNewContextRequest(context, windowId);
    if (limit === undefined) return false;
    const all = [...rows, ...recorder.rows];
    const pressure = deriveWindowPressure({
      rows: all,
      rowTokens: (row) => rowRequestTokens(row, frame, limits),
      overheadTokens: overheadTokens(frame),
      calibrationFactor: context.calibration.factor(model),
    });
    // The request the next step would send, built now (prepareStep reuses it): the reported anchor
    // of the pressure figure cannot see a frame that grew since (notes written by a memory step) nor
    // a provider that counts lower than our estimate, and the next request must never pass the ceiling.
    const nextFrame = await requestFrame(context, model, { windowId });
    const next = await assembleRequest({ rows: all, frame: nextFrame, limits, previous });
    prepared = { stepNumber: stepIndex + 1, request: next };
    const projected = Math.max(pressure.contextTokens, next.estimatedTokens);
    const evaluation = context.policy.evaluate({
      moment: "after-step",
      projected,
      contextLimit: limit,
      warningEmitted: hasBudgetWarning(all),
      strategy: context.strategy,
    });
    if (requested !== undefined) {
      stop = { decision: "rollover", evaluation, windowId, contextLimit: limit, requested: { note: requested.note } };
      return true;
    }
    if (context.strategy === "off" || evaluation.decision === "block") {
      if (projected < evaluation.hardCeiling) return false;
      stop = { decision: "block", evaluation, windowId, contextLimit: limit };
      return true;
    }
    if (evaluation.decision === "continue") return false;
    stop = {
      decision: evaluation.decision === "warn" ? "warn" : "rollover",
      evaluation,
      windowId,
      contextLimit: limit,
    };
    return true;
  };

  const firstMessages = selfContainedMessages({
    messages: request.messages,
    model,
    providerStore: context.providerStore,
  });
  const { loop } = context;
  const result = streamText({
    ...loop.callSettings,
    model: cacheHintedModel(context, model, { windowId }),
    ...(request.system === undefined ? {} : { instructions: request.system }),
    messages: firstMessages,
    // The messages are the store's window: its system rows (an imported session's notes) are ctxwin's
    // own records, never a caller's input (a call brings only its new user message).
    allowSystemInMessages: true,
    tools: flush === undefined ? frame.tools : flushStepTools({ tools: frame.tools, runnable: flush.runnableTools }),
    ...(loop.toolChoice === undefined ? {} : { toolChoice: loop.toolChoice }),
    // The budget's output reserve is what the request asks for (every later step's input stays
    // under the hard ceiling, so the same limit fits it too).
    ...outputLimitOf(context, { model, limit, inputTokens: request.estimatedTokens, flush }),
    maxRetries: context.maxRetries,
    experimental_download: neverFetchUrls,
    ...mergeProviderOptions(providerOptionsOf(context, model).providerOptions, loop.providerOptions),
    ...(signal === undefined ? {} : { abortSignal: signal }),
    stopWhen: stopConditions(
      [
        isStepCount(flush === undefined ? context.maxSteps : 1),
        async ({ steps: settled }) => {
          const stopHere = await evaluateSettledStep(settled.length - 1);
          // Asked once the step is stored (its step-end listeners have run), so an abort from them counts.
          return abortedBetweenSteps() || stopHere;
        },
      ],
      // A notes-flush step is one step whatever the caller's conditions say.
      flush === undefined ? loop : {},
    ),
    ...loopContexts(loop),
    prepareStep: async (step) => {
      const ours = step.stepNumber === 0 ? undefined : await prepareNextStep(step.stepNumber);
      // The caller's own prepareStep never changes a notes-flush step (only the memory tool runs).
      if (flush !== undefined) return ours;
      const messages = ours?.messages ?? firstMessages;
      const instructions = ours === undefined ? request.system : ours.instructions;
      return applyCallerPrepareStep({
        loop,
        step: { ...step, messages, instructions },
        ours,
        warnOnce: context.warnOnce,
      });
    },
    // Each step's own result (AI SDK 7: `step.response.messages` holds that step's messages only;
    // the recorder takes the step's content and usage, never the messages).
    onStepEnd: async (step) => {
      recorder.acceptStepResult(step);
      await context.activeSink?.step(step);
      await loop.onStepEnd?.(step);
    },
    onError: ({ error }) => {
      streamError ??= error;
    },
  });

  let consumeError: unknown;
  try {
    await recorder.consume(result.toUIMessageStream({ onError: providerErrorText }), { model: key });
  } catch (error) {
    consumeError = error;
  }
  const text = lastText(steps);
  const failure = consumeError ?? streamError;
  // An abort is the caller's choice, not a provider failure: no error event, no fallback. Only a
  // failure to store what streamed still fails the turn.
  const interrupted = recorder.aborted || stoppedByAbort || (failure !== undefined && signal?.aborted === true);
  if (interrupted && !SessionStoreError.isInstance(consumeError))
    return {
      status: "interrupted",
      text,
      steps,
      streamedAnything: recorder.streamedAnything,
      model: key,
      ...(stop === undefined ? {} : { stop }),
    };
  if (failure === undefined)
    return {
      status: "completed",
      text,
      steps,
      streamedAnything: recorder.streamedAnything,
      model: key,
      ...(stop === undefined ? {} : { stop }),
    };
  if (consumeError === undefined && recorder.cutStep && retryable(streamError)) {
    const retrying: RetryableRun = {
      status: "failed",
      text,
      steps,
      streamedAnything: true,
      model: key,
      retry: { error: new ProviderCallError(key, streamError), discardedText: recorder.discardedText },
    };
    return retrying;
  }
  // Refused as too long before the failing request produced anything: the steps before it (if any)
  // are stored and settled, so the turn can roll over and continue (issue 15 item 4).
  if (isContextExceededError(failure) && !recorder.partialStored && !SessionStoreError.isInstance(failure)) {
    return {
      status: "context-exceeded",
      text,
      steps,
      streamedAnything: recorder.streamedAnything,
      model: key,
      error: asError(failure),
    };
  }
  const error =
    SessionStoreError.isInstance(failure) || RequestOverCeilingError.isInstance(failure)
      ? failure
      : new ProviderCallError(key, failure);
  context.events.emit("error", { error });
  return { status: "failed", text, steps, streamedAnything: recorder.streamedAnything, model: key, error };
}

/** The output limit a request asks for: the budget's reserve, and for a notes flush at most its own short limit. */
function outputLimitOf(
  context: SessionContext,
  {
    model,
    limit,
    inputTokens,
    flush,
  }: { model: LanguageModel; limit: number | undefined; inputTokens: number; flush: RunTurnOptions["flush"] },
): { maxOutputTokens?: number } {
  const budgeted = context.policy.outputLimit?.({ model, contextLimit: limit, inputTokens });
  if (flush === undefined) return budgeted === undefined ? {} : { maxOutputTokens: budgeted };
  return { maxOutputTokens: Math.min(budgeted ?? flush.maxOutputTokens, flush.maxOutputTokens) };
}

function lastText(steps: readonly StoredStep[]): string {
  for (let index = steps.length - 1; index >= 0; index -= 1) {
    const parts = steps[index]?.row.parts ?? [];
    const text = parts
      .filter((part): part is { type: "text"; text: string } => part.type === "text")
      .map((part) => part.text)
      .join("");
    if (text.length > 0) return text;
  }
  return "";
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
