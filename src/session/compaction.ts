/**
 * Compaction, the classic approach kept for `session.compact()` and strategy `compact`: the model
 * summarizes the active window, and the summary opens the next window as a `compaction` boundary
 * (provider-visible, docs/design.md §1). Nothing is deleted: the summarized rows stay in the transcript.
 */
import { streamText, type LanguageModel } from "ai";
import type { StoredRow } from "../store/port.js";
import { modelKey } from "./budget-policy.js";
import { compactionSummaryRow } from "../core/rollover/notice-rows.js";
import { isWindowFresh } from "../core/rollover/window-pressure.js";
import type { RowInput } from "../core/row.js";
import { itemIdFor, windowIdFor } from "../core/windows.js";
import { CompactionError, ProviderCallError, SendInterruptedError, SessionStoreError } from "./errors.js";
import {
  assembleRequest,
  calibrate,
  overheadTokens,
  rowRequestTokens,
  type AssembledRequest,
  type RequestFrame,
} from "./request-assembly.js";
import { storedRowTokens } from "./row-tokens.js";
import { contextLimitFor, requestFrame, toolOutputLimits, type SessionContext } from "./session-context.js";
import { providerOptionsOf, selfContainedMessages } from "./provider-options.js";
import { neverFetchUrls } from "./no-url-downloads.js";

export const COMPACTION_INSTRUCTION = [
  "Write a summary of the conversation so far that lets you continue the work without it.",
  "Keep: the goal and the user's requirements, decisions made and why, the current state of the task,",
  "open questions, and exact names (files, identifiers, numbers) you will need. Leave out pleasantries.",
  "Answer with the summary only.",
].join(" ");

/** The rows a summary request carries, or why none fits under the hard ceiling. */
export type SummaryPlan =
  | {
      status: "ready";
      /** The window's rows the summary covers: all of them, or its oldest rows that fit. */
      rows: StoredRow[];
      request: AssembledRequest;
      /** Item ids of the first and last row left out (a step that pushed the window past what a summary request holds). */
      leftOut?: { firstItemId: string; lastItemId: string };
    }
  | { status: "too-large"; reason: string; estimatedTokens: number; hardCeiling: number };

/**
 * The summary request for the window `rows`: the whole window when it fits under the hard ceiling
 * with the instruction, else its longest run of oldest rows that does (whole rows, so a tool call
 * stays with its result). `too-large` when not even the first substantive row fits.
 *
 * @example
 * const plan = await planSummary(context, { rows: window.rows, model, frame });
 */
export async function planSummary(
  context: SessionContext,
  { rows, model, frame }: { rows: readonly StoredRow[]; model: LanguageModel; frame: RequestFrame },
): Promise<SummaryPlan> {
  const limits = toolOutputLimits(context, model);
  const instructionTokens = calibrate(frame.countTokens(COMPACTION_INSTRUCTION), frame.calibrationFactor);
  const whole = await assembleRequest({ rows, frame, limits });
  const limit = contextLimitFor(context, model);
  if (limit === undefined) return { status: "ready", rows: [...rows], request: whole };
  const ceiling = context.policy.hardCeiling(limit);
  const fits = (request: AssembledRequest) => request.estimatedTokens + instructionTokens <= ceiling;
  if (fits(whole)) return { status: "ready", rows: [...rows], request: whole };
  // The longest prefix by the rows' own counts, then confirmed (and shortened) by the request's estimate.
  let total = overheadTokens(frame);
  let count = 0;
  while (
    count < rows.length &&
    calibrate(total + rowRequestTokens(rows[count]!, frame, limits), frame.calibrationFactor) + instructionTokens <=
      ceiling
  ) {
    total += rowRequestTokens(rows[count]!, frame, limits);
    count += 1;
  }
  for (; count > 0; count -= 1) {
    const covered = rows.slice(0, count);
    if (isWindowFresh(covered)) break;
    const request = await assembleRequest({ rows: covered, frame, limits });
    if (!fits(request)) continue;
    const first = rows[count];
    const last = rows.at(-1);
    return {
      status: "ready",
      rows: covered,
      request,
      ...(first === undefined || last === undefined
        ? {}
        : { leftOut: { firstItemId: itemIdFor(first.seq), lastItemId: itemIdFor(last.seq) } }),
    };
  }
  const estimatedTokens = whole.estimatedTokens + instructionTokens;
  return {
    status: "too-large",
    estimatedTokens,
    hardCeiling: ceiling,
    reason:
      `The window cannot be summarized with ${modelKey(model)}: ` +
      "even its first message does not fit a summary request under the hard ceiling " +
      `(the whole window is about ${estimatedTokens.toLocaleString("en-US")} tokens, ` +
      `ceiling ${ceiling.toLocaleString("en-US")}). Clear the session, or use a model with a larger context.`,
  };
}

/**
 * Asks `model` for a summary of the rows of a `ready` plan (the provider slice, as a request would
 * carry it), asking for at most the output the budget reserves.
 *
 * @example
 * const plan = await planSummary(context, { rows: window.rows, model, frame });
 * if (plan.status === "ready") summary = await summarizeWindow(context, { plan, model, frame });
 */
export async function summarizeWindow(
  context: SessionContext,
  {
    plan,
    model,
    frame,
    signal,
  }: {
    plan: Extract<SummaryPlan, { status: "ready" }>;
    model: LanguageModel;
    frame: RequestFrame;
    /** Aborts the call; the summary is then not used (`SendInterruptedError`). */ signal?: AbortSignal | undefined;
  },
): Promise<string> {
  const { request } = plan;
  const limit = contextLimitFor(context, model);
  const outputLimit = context.policy.outputLimit?.({
    model,
    contextLimit: limit,
    inputTokens: request.estimatedTokens,
  });
  let failure: unknown;
  const result = streamText({
    model,
    ...(request.system === undefined ? {} : { system: request.system }),
    messages: [
      ...selfContainedMessages({ messages: request.messages, model, providerStore: context.providerStore }),
      { role: "user", content: COMPACTION_INSTRUCTION },
    ],
    tools: frame.tools,
    toolChoice: "none",
    ...(outputLimit === undefined ? {} : { maxOutputTokens: outputLimit }),
    maxRetries: context.maxRetries,
    experimental_download: neverFetchUrls,
    ...providerOptionsOf(context, model),
    ...(signal === undefined ? {} : { abortSignal: signal }),
    onError: ({ error }) => {
      failure ??= error;
    },
  });
  let text = "";
  try {
    for await (const delta of result.textStream) text += delta;
  } catch (error) {
    if (signal?.aborted !== true) throw error;
  }
  // A cut summary would lose what it did not get to: nothing of it is kept.
  if (signal?.aborted === true) throw new SendInterruptedError("the compaction summary");
  if (failure !== undefined) throw new ProviderCallError(modelKey(model), failure);
  const summary = text.trim();
  if (summary.length === 0)
    throw new CompactionError(`${modelKey(model)} returned an empty summary; nothing was compacted.`);
  return summary;
}

/**
 * The compaction boundary row for a summary of `plan`'s rows; it names the rows left out, if any.
 *
 * @example summaryRow(context, { plan, summary, previousWindowId: "w:0", createdAt })
 */
export function summaryRow(
  context: SessionContext,
  {
    plan,
    summary,
    previousWindowId,
    createdAt,
  }: { plan: Extract<SummaryPlan, { status: "ready" }>; summary: string; previousWindowId: string; createdAt: string },
): RowInput {
  const unsummarized =
    plan.leftOut === undefined ? undefined : { ...plan.leftOut, historyToolAvailable: context.historyToolAvailable };
  return compactionSummaryRow({
    summary,
    previousWindowId,
    createdAt,
    ...(unsummarized === undefined ? {} : { unsummarized }),
  });
}

export type CompactResult =
  | { status: "completed"; windowId: string; previousWindowId: string; summary: string }
  | { status: "skipped"; windowId: string; reason: string }
  | { status: "failed"; error: Error };

/**
 * `session.compact()`: summarizes the active window into a `compaction` boundary in one append.
 * A window with nothing substantive to summarize is left alone.
 *
 * @example
 * const result = await compactActiveWindow(context, { operationId: "op-1" });
 */
export async function compactActiveWindow(
  context: SessionContext,
  { operationId }: { operationId: string },
): Promise<CompactResult> {
  const model = context.models[0];
  if (model === undefined)
    return { status: "failed", error: new CompactionError("The session has no model to summarize with.") };
  const window = await context.store.activeWindow(context.sessionId);
  if (isWindowFresh(window.rows))
    return { status: "skipped", windowId: window.windowId, reason: "The active window holds nothing to summarize." };
  try {
    const frame = await requestFrame(context, model);
    const plan = await planSummary(context, { rows: window.rows, model, frame });
    if (plan.status === "too-large") throw new CompactionError(plan.reason);
    const summary = await summarizeWindow(context, { plan, model, frame });
    const row = summaryRow(context, {
      plan,
      summary,
      previousWindowId: window.windowId,
      createdAt: context.now().toISOString(),
    });
    const tokens = storedRowTokens(row);
    let stored;
    try {
      stored = await context.store.append(context.sessionId, [{ ...row, tokens }], {
        expectLastSeq: window.lastSeq,
        operationId,
      });
    } catch (error) {
      throw new SessionStoreError("the compaction summary", error);
    }
    return {
      status: "completed",
      windowId: windowIdFor(stored[0]?.seq ?? window.lastSeq + 1),
      previousWindowId: window.windowId,
      summary,
    };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    context.events.emit("error", { error: failure });
    return { status: "failed", error: failure };
  }
}
