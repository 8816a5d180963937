/**
 * The start of every turn, and the only place a rollover happens (docs/design.md §6): derive the
 * window's pressure from stored rows, preflight the input against a fresh window, decide, and
 * write boundary + hidden lead-in + the triggering input (or just the input, maybe behind a
 * warning) in ONE atomic append. A window with no substantive row never gets a second boundary.
 */
import type { LanguageModel } from "ai";
import { notesWarningSentence } from "../core/hot-memories/notes-guidance.js";
import { budgetWarningText } from "../core/rollover/budget-warning-text.js";
import { budgetWarningRow, rejectedInputRow } from "../core/rollover/notice-rows.js";
import { continueRow, leadInRow, rolloverTransactionRows, userInputRow } from "../core/rollover/rollover-rows.js";
import { deriveWindowPressure, hasBudgetWarning, isWindowFresh } from "../core/rollover/window-pressure.js";
import type { RolloverReason, RowInput, RowPart } from "../core/row.js";
import { windowIdFor } from "../core/windows.js";
import { CtxwinError, RowValidationError } from "../core/errors.js";
import { cutRowToBytes } from "../core/rollover/input-cut.js";
import { planSummary, summarizeWindow, summaryRow } from "./compaction.js";
import { AppendConflictError } from "../store/errors.js";
import type { ActiveWindow, StoredRow } from "../store/port.js";
import { modelKey } from "./budget-policy.js";
import { SessionStoreError } from "./errors.js";
import { carriedContinuation } from "./carried-continuation.js";
import { calibrate, overheadTokens, rowRequestTokens, type RequestFrame } from "./request-assembly.js";
import { storedRowTokens } from "./row-tokens.js";
import { contextLimitFor, toolOutputLimits, type SessionContext } from "./session-context.js";
import type { CompactionInfo, RolloverInfo, WarningInfo } from "./session-types.js";
import type { PendingRollover } from "./turn-queue.js";

export type TurnTrigger =
  { kind: "user"; parts: RowPart[]; metadata?: Record<string, unknown> } | { kind: "continue" } | { kind: "warning" };

export interface TurnStartRequest {
  trigger: TurnTrigger;
  /** A rollover decided after a settled step, waiting for this send. */
  latch: PendingRollover | undefined;
  /** Put the budget warning in front of this input. */
  warningAhead: boolean;
  /**
   * An emergency rollover (the provider refused the request as too long). `triggerSeq` is the row
   * being retried: a window whose only substantive row is that one is as fresh as it gets.
   */
  forced?: { reason: RolloverReason; triggerSeq?: number };
  operationId: string;
  model: LanguageModel;
  frame: RequestFrame;
  /** The send's signal, for the one provider call a turn start can make (strategy `compact`'s summary). */
  signal?: AbortSignal | undefined;
}

export type TurnStart =
  | {
      status: "ready";
      windowId: string;
      /** The active window after the append, trigger included. */
      rows: StoredRow[];
      trigger: StoredRow;
      rollover?: RolloverInfo;
      warning?: WarningInfo;
      /** Strategy `compact`: the window was summarized into a compaction boundary instead. */
      compaction?: CompactionInfo;
      /** The rollover latch was consumed (executed, or found stale on a fresh window). */
      latchConsumed: boolean;
    }
  | { status: "blocked"; reason: string; estimatedTokens: number; hardCeiling: number; rejected?: StoredRow }
  | { status: "already-fresh" };

const MAX_CONFLICT_RETRIES = 3;

/**
 * @example
 * const start = await startTurn(context, { trigger: { kind: "user", parts }, latch, warningAhead: false, operationId, model, frame });
 */
export async function startTurn(context: SessionContext, request: TurnStartRequest): Promise<TurnStart> {
  for (let attempt = 0; ; attempt += 1) {
    const window = await context.store.activeWindow(context.sessionId);
    try {
      return await planAndAppend(context, request, window);
    } catch (error) {
      if (AppendConflictError.isInstance(error) && attempt < MAX_CONFLICT_RETRIES) continue;
      if (CtxwinError.isInstance(error) && !AppendConflictError.isInstance(error)) throw error;
      throw new SessionStoreError("the turn's input", error);
    }
  }
}

async function planAndAppend(
  context: SessionContext,
  request: TurnStartRequest,
  window: ActiveWindow,
): Promise<TurnStart> {
  const { model, frame, trigger } = request;
  const limits = toolOutputLimits(context, model);
  const rowTokens = (row: StoredRow) => rowRequestTokens(row, frame, limits);
  const overhead = overheadTokens(frame);
  context.calibration.seedOnce(window.rows);
  const factor = frame.calibrationFactor;
  const pressure = deriveWindowPressure({
    rows: window.rows,
    rowTokens,
    overheadTokens: overhead,
    calibrationFactor: factor,
  });
  const retried = request.forced?.triggerSeq;
  const fresh = isWindowFresh(retried === undefined ? window.rows : window.rows.filter((row) => row.seq !== retried));
  const warned = hasBudgetWarning(window.rows);
  const limit = contextLimitFor(context, model);
  const createdAt = context.now().toISOString();

  const triggerRow = triggerRowFor(trigger, { createdAt });
  const triggerTokens =
    triggerRow === undefined
      ? 0
      : calibrate(
          rowRequestTokens(
            { seq: 0, role: triggerRow.role, parts: triggerRow.parts, tokens: undefined },
            frame,
            limits,
          ),
          factor,
        );
  const projected = pressure.contextTokens + triggerTokens;
  const nextWindowId = windowIdFor(window.lastSeq + 1);

  let rollover: Omit<RolloverInfo, "windowId" | "rolloverId"> | undefined;
  let warningDue = false;
  let rolloverAt: number | undefined;
  const latchConsumed = request.latch !== undefined;
  if (limit !== undefined) {
    const ceiling = context.policy.hardCeiling(limit);
    // A latched handoff note rides in the lead-in: it counts toward the fresh window like the rest.
    const handoffNote = request.latch?.windowId === window.windowId ? request.latch.handoffNote : undefined;
    const leadIn = leadInRow({
      rolloverId: "preflight",
      windowId: nextWindowId,
      previousWindowId: window.windowId,
      reason: "on-send",
      flushOpportunity: false,
      historyToolAvailable: context.historyToolAvailable,
      ...notes(context),
      ...(handoffNote === undefined ? {} : { handoffNote }),
    });
    const freshBase = calibrate(
      overhead + rowRequestTokens({ seq: 0, role: leadIn.role, parts: leadIn.parts, tokens: undefined }, frame, limits),
      factor,
    );
    const freshEstimate = freshBase + triggerTokens;
    if (freshEstimate > ceiling && trigger.kind === "user") {
      const reason =
        `This message does not fit even a fresh context window of ${modelKey(model)}: ` +
        `about ${freshEstimate.toLocaleString("en-US")} tokens with the system prompt, ` +
        `memories and tools, over the ceiling of ${ceiling.toLocaleString("en-US")}. ` +
        "Shorten it, remove attachments, or use a model with a larger context.";
      return reject(context, request, {
        reason,
        estimatedTokens: freshEstimate,
        hardCeiling: ceiling,
        parts: trigger.parts,
        metadata: trigger.metadata,
      });
    }
    const evaluation = context.policy.evaluate({
      moment: "on-send",
      projected,
      contextLimit: limit,
      warningEmitted: warned,
    });
    rolloverAt = evaluation.rolloverAt;
    // A latch from another window is stale: that window already rolled over (or was cleared).
    const latch = request.latch !== undefined && request.latch.windowId === window.windowId ? request.latch : undefined;
    // The agent asked for this window to end (`new_context`): its own decision, whatever the budget says.
    if (latch?.reason === "requested" && request.forced === undefined) {
      rollover = {
        reason: "requested",
        previousWindowId: window.windowId,
        flushOpportunity: latch.flushOpportunity,
        contextTokens: latch.contextTokens,
        maxTokens: latch.maxTokens,
        ...(latch.handoffNote === undefined ? {} : { handoffNote: latch.handoffNote }),
      };
    } else if (context.strategy === "off" || evaluation.decision === "block") {
      // Strategy `off`, or a threshold ≥ 1 (proactive action disabled): only the hard ceiling applies.
      if (projected > ceiling && trigger.kind === "user") {
        const reason =
          `The context window is full (about ${projected.toLocaleString("en-US")} tokens, ` +
          `ceiling ${ceiling.toLocaleString("en-US")}) and rollovers are off. ` +
          "Clear or compact the session, or use a model with a larger context.";
        return reject(context, request, {
          reason,
          estimatedTokens: projected,
          hardCeiling: ceiling,
          parts: trigger.parts,
          metadata: trigger.metadata,
        });
      }
    } else if (request.forced !== undefined) {
      rollover = {
        reason: request.forced.reason,
        previousWindowId: window.windowId,
        flushOpportunity: false,
        contextTokens: pressure.contextTokens,
        maxTokens: limit,
      };
    } else if (latch !== undefined) {
      rollover = {
        reason: latch.reason,
        previousWindowId: window.windowId,
        flushOpportunity: latch.flushOpportunity,
        contextTokens: latch.contextTokens,
        maxTokens: latch.maxTokens,
      };
    } else if (trigger.kind === "warning" ? projected >= ceiling : evaluation.decision === "rollover") {
      rollover = {
        reason: "on-send",
        previousWindowId: window.windowId,
        flushOpportunity: trigger.kind === "warning" ? false : evaluation.flushOpportunity,
        contextTokens: pressure.contextTokens,
        maxTokens: limit,
      };
    } else if (trigger.kind === "user" && !warned && (request.warningAhead || evaluation.decision === "warn")) {
      warningDue = true;
    }
    if (rollover !== undefined && fresh) {
      if (request.forced !== undefined) return { status: "already-fresh" };
      rollover = undefined;
    }
    if (rollover !== undefined && context.strategy !== "compact" && !context.historyToolAvailable) {
      const reason =
        "The context window is at its budget " +
        `(about ${pressure.contextTokens.toLocaleString("en-US")} of ${limit.toLocaleString("en-US")} tokens), ` +
        "and this session's tool policy does not grant session_history, " +
        "so a rollover would make earlier context unrecoverable. " +
        "Grant session_history, compact the session, or clear it.";
      if (trigger.kind !== "user")
        return { status: "blocked", reason, estimatedTokens: projected, hardCeiling: ceiling };
      return reject(context, request, {
        reason,
        estimatedTokens: projected,
        hardCeiling: ceiling,
        parts: trigger.parts,
        metadata: trigger.metadata,
      });
    }
  }

  // Strategy `compact`: the model summarizes the window and the summary opens the next one.
  // An emergency (the provider refused the request) cannot be summarized by that provider: it rolls over.
  const compacting = rollover !== undefined && context.strategy === "compact" && request.forced === undefined;
  // A turn stopped by this rollover continues in the new window with its task and its calls' outcomes.
  const continuation =
    rollover !== undefined && !compacting && trigger.kind !== "user" && context.continuity.carry && limit !== undefined
      ? carriedContinuation({ context, window, rollover, nextWindowId, limit, frame, limits, createdAt })
      : triggerRow;
  let summary: RowInput | undefined;
  if (compacting) {
    const plan = await planSummary(context, { rows: window.rows, model, frame });
    if (plan.status === "too-large") {
      if (trigger.kind !== "user")
        return {
          status: "blocked",
          reason: plan.reason,
          estimatedTokens: plan.estimatedTokens,
          hardCeiling: plan.hardCeiling,
        };
      return reject(context, request, {
        reason: plan.reason,
        estimatedTokens: plan.estimatedTokens,
        hardCeiling: plan.hardCeiling,
        parts: trigger.parts,
        metadata: trigger.metadata,
      });
    }
    summary = summaryRow(context, {
      plan,
      summary: await summarizeWindow(context, { plan, model, frame, signal: request.signal }),
      previousWindowId: window.windowId,
      createdAt,
    });
  }
  const rows =
    summary !== undefined
      ? {
          rows: [summary, triggerRow ?? continueRow({ createdAt })],
          compaction: { windowId: nextWindowId, previousWindowId: window.windowId },
        }
      : rowsToAppend({
          context,
          request,
          window,
          triggerRow: continuation,
          rollover,
          warningDue,
          warned,
          projected,
          limit,
          rolloverAt,
          nextWindowId,
          createdAt,
        });
  let stored: StoredRow[];
  const withTokens = rows.rows.map((row) => ({ ...row, tokens: storedRowTokens(row) }));
  try {
    stored = await context.store.append(context.sessionId, withTokens, {
      expectLastSeq: window.lastSeq,
      operationId: request.operationId,
    });
  } catch (error) {
    if (AppendConflictError.isInstance(error)) throw error;
    // The user's input fits the window but not the store's row limit: it is kept as a rejected input.
    const overLimit = rowLimitOf(error, withTokens.length - 1);
    if (overLimit !== undefined && trigger.kind === "user") {
      const reason =
        "This message is too large to store: " +
        `its row is over the store's limit of ${overLimit.toLocaleString("en-US")} bytes ` +
        "(maxRowBytes). Shorten it or remove attachments.";
      const ceiling = limit === undefined ? 0 : context.policy.hardCeiling(limit);
      return reject(context, request, {
        reason,
        estimatedTokens: triggerTokens,
        hardCeiling: ceiling,
        parts: trigger.parts,
        metadata: trigger.metadata,
      });
    }
    throw new SessionStoreError(
      rollover === undefined ? "the turn's input" : "the rollover (boundary, lead-in and input)",
      error,
    );
  }
  const triggerStored = stored[stored.length - 1];
  if (triggerStored === undefined)
    throw new SessionStoreError("the turn's input", new Error("the store returned no rows"));
  const newWindow = rollover !== undefined;
  const activeRows = newWindow ? stored : [...window.rows, ...stored];
  return {
    status: "ready",
    windowId: newWindow ? nextWindowId : window.windowId,
    rows: activeRows,
    trigger: triggerStored,
    latchConsumed,
    ...("rolloverInfo" in rows && rows.rolloverInfo !== undefined ? { rollover: rows.rolloverInfo } : {}),
    ...("warningInfo" in rows && rows.warningInfo !== undefined ? { warning: rows.warningInfo } : {}),
    ...("compaction" in rows ? { compaction: rows.compaction } : {}),
  };
}

function rowsToAppend({
  context,
  request,
  window,
  triggerRow,
  rollover,
  warningDue,
  warned,
  projected,
  limit,
  rolloverAt,
  nextWindowId,
  createdAt,
}: {
  context: SessionContext;
  request: TurnStartRequest;
  window: ActiveWindow;
  triggerRow: RowInput | undefined;
  rollover: Omit<RolloverInfo, "windowId" | "rolloverId"> | undefined;
  warningDue: boolean;
  warned: boolean;
  projected: number;
  limit: number | undefined;
  rolloverAt: number | undefined;
  nextWindowId: string;
  createdAt: string;
}): { rows: RowInput[]; rolloverInfo?: RolloverInfo; warningInfo?: WarningInfo } {
  if (rollover !== undefined) {
    const rolloverId = context.generateId();
    const trigger = triggerRow ?? continueRow({ createdAt });
    const rows = rolloverTransactionRows({
      ...rollover,
      rolloverId,
      windowId: nextWindowId,
      trigger,
      historyToolAvailable: context.historyToolAvailable,
      createdAt,
      ...notes(context),
    });
    return { rows, rolloverInfo: { ...rollover, rolloverId, windowId: nextWindowId } };
  }
  const wantsWarning = request.trigger.kind === "warning" ? !warned : warningDue;
  if (wantsWarning && limit !== undefined && rolloverAt !== undefined) {
    const text = budgetWarningText({
      windowId: window.windowId,
      contextTokens: projected,
      maxTokens: limit,
      rolloverAtTokens: rolloverAt,
      memoryMode: context.hotMemories.mode,
      notesSentence: notesWarningSentence({ mode: context.hotMemories.mode }),
      ...notes(context),
    });
    const warning = budgetWarningRow({
      text,
      windowId: window.windowId,
      contextTokens: projected,
      maxTokens: limit,
      createdAt,
    });
    const warningInfo: WarningInfo = { windowId: window.windowId, contextTokens: projected, maxTokens: limit, text };
    return { rows: triggerRow === undefined ? [warning] : [warning, triggerRow], warningInfo };
  }
  if (triggerRow !== undefined) return { rows: [triggerRow] };
  // A warning turn whose warning is no longer due (already in the window): continue instead.
  return { rows: [continueRow({ createdAt })] };
}

function triggerRowFor(trigger: TurnTrigger, { createdAt }: { createdAt: string }): RowInput | undefined {
  if (trigger.kind === "user")
    return userInputRow({
      parts: trigger.parts,
      createdAt,
      ...(trigger.metadata === undefined ? {} : { metadata: trigger.metadata }),
    });
  if (trigger.kind === "continue") return continueRow({ createdAt });
  return undefined;
}

async function reject(
  context: SessionContext,
  request: TurnStartRequest,
  {
    reason,
    estimatedTokens,
    hardCeiling,
    parts,
    metadata,
  }: {
    reason: string;
    estimatedTokens: number;
    hardCeiling: number;
    parts: RowPart[];
    metadata: Record<string, unknown> | undefined;
  },
): Promise<TurnStart> {
  const row = rejectedInputRow({
    parts,
    reason,
    estimatedTokens,
    hardCeiling,
    model: modelKey(request.model),
    createdAt: context.now().toISOString(),
    ...(metadata === undefined ? {} : { metadata }),
  });
  let stored: StoredRow[];
  try {
    stored = await context.store.append(context.sessionId, [row], { operationId: `${request.operationId}:rejected` });
  } catch (error) {
    // Over the store's row limit: kept as far as the store allows, `meta.cut` says what is missing (ADR 0069).
    const overLimit = rowLimitOf(error, 0);
    if (overLimit === undefined) throw new SessionStoreError("the rejected input", error);
    try {
      stored = await context.store.append(context.sessionId, [cutRowToBytes(row, overLimit)], {
        operationId: `${request.operationId}:rejected-cut`,
      });
    } catch (cutError) {
      throw new SessionStoreError("the rejected input", cutError);
    }
  }
  return {
    status: "blocked",
    reason,
    estimatedTokens,
    hardCeiling,
    ...(stored[0] === undefined ? {} : { rejected: stored[0] }),
  };
}

/** The store's row limit, when `error` refused the row at `index` for its size alone. */
function rowLimitOf(error: unknown, index: number): number | undefined {
  if (!RowValidationError.isInstance(error)) return undefined;
  const [issue, ...others] = error.issues;
  return issue !== undefined && others.length === 0 && issue.index === index ? issue.maxRowBytes : undefined;
}

function notes(context: SessionContext): { notesPath?: string } {
  return context.notesPath === undefined ? {} : { notesPath: context.notesPath };
}
