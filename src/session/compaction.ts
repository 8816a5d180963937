/**
 * Compaction, the classic approach kept for `session.compact()` and strategy `compact`: the model
 * summarizes the active window, and the summary opens the next window as a `compaction` boundary
 * (provider-visible, DESIGN.md §1). Nothing is deleted: the summarized rows stay in the transcript.
 */
import { streamText, type LanguageModel } from "ai";
import type { StoredRow } from "../store/port.js";
import { modelKey } from "./budget-policy.js";
import { compactionSummaryRow } from "../core/rollover/notice-rows.js";
import { isWindowFresh } from "../core/rollover/window-pressure.js";
import { windowIdFor } from "../core/windows.js";
import { CompactionError, ProviderCallError, SendInterruptedError, SessionStoreError } from "./errors.js";
import { assembleRequest, calibrate, type RequestFrame } from "./request-assembly.js";
import { storedRowTokens } from "./row-tokens.js";
import { contextLimitFor, requestFrame, toolOutputLimits, type SessionContext } from "./session-context.js";
import { providerOptionsOf, selfContainedMessages } from "./provider-options.js";

export const COMPACTION_INSTRUCTION = [
  "Write a summary of the conversation so far that lets you continue the work without it.",
  "Keep: the goal and the user's requirements, decisions made and why, the current state of the task,",
  "open questions, and exact names (files, identifiers, numbers) you will need. Leave out pleasantries.",
  "Answer with the summary only.",
].join(" ");

/**
 * Asks `model` for a summary of the window `rows` (the provider slice, as a request would carry it).
 *
 * @example
 * const summary = await summarizeWindow(context, { rows: window.rows, model, frame });
 */
export async function summarizeWindow(
  context: SessionContext,
  { rows, model, frame, signal }: { rows: readonly StoredRow[]; model: LanguageModel; frame: RequestFrame; /** Aborts the call; the summary is then not used (`SendInterruptedError`). */ signal?: AbortSignal | undefined },
): Promise<string> {
  const limits = toolOutputLimits(context, model);
  const request = await assembleRequest({ rows, frame, limits });
  const instructionTokens = calibrate(frame.countTokens(COMPACTION_INSTRUCTION), frame.calibrationFactor);
  const limit = contextLimitFor(context, model);
  if (limit !== undefined && request.estimatedTokens + instructionTokens > context.policy.hardCeiling(limit)) {
    throw new CompactionError(
      `The window is too large to summarize with ${modelKey(model)} (about ${request.estimatedTokens + instructionTokens} tokens, ceiling ${context.policy.hardCeiling(limit)}). Clear the session instead.`,
    );
  }
  let failure: unknown;
  const result = streamText({
    model,
    ...(request.system === undefined ? {} : { system: request.system }),
    messages: [...selfContainedMessages({ messages: request.messages, model, providerStore: context.providerStore }), { role: "user", content: COMPACTION_INSTRUCTION }],
    tools: frame.tools,
    toolChoice: "none",
    maxRetries: context.maxRetries,
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
  if (summary.length === 0) throw new CompactionError(`${modelKey(model)} returned an empty summary; nothing was compacted.`);
  return summary;
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
export async function compactActiveWindow(context: SessionContext, { operationId }: { operationId: string }): Promise<CompactResult> {
  const model = context.models[0];
  if (model === undefined) return { status: "failed", error: new CompactionError("The session has no model to summarize with.") };
  const window = await context.store.activeWindow(context.sessionId);
  if (isWindowFresh(window.rows)) return { status: "skipped", windowId: window.windowId, reason: "The active window holds nothing to summarize." };
  try {
    const frame = await requestFrame(context, model);
    const summary = await summarizeWindow(context, { rows: window.rows, model, frame });
    const row = compactionSummaryRow({ summary, previousWindowId: window.windowId, createdAt: context.now().toISOString() });
    const tokens = storedRowTokens(row);
    let stored;
    try {
      stored = await context.store.append(context.sessionId, [{ ...row, tokens }], { expectLastSeq: window.lastSeq, operationId });
    } catch (error) {
      throw new SessionStoreError("the compaction summary", error);
    }
    return { status: "completed", windowId: windowIdFor(stored[0]?.seq ?? window.lastSeq + 1), previousWindowId: window.windowId, summary };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    context.events.emit("error", { error: failure });
    return { status: "failed", error: failure };
  }
}
