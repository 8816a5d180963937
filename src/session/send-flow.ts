/**
 * The send loop (docs/design.md §6). `send` queues the input and drives the queue until its own turns
 * (the input and every continuation or warning turn it queued) have run. Turns run one at a time
 * under the session lock. Each turn: start (maybe a rollover, in one append) → stream → act on
 * the settled-step decision by latching and queueing, never by rolling over from a callback.
 * A send's `signal` interrupts it: its running turn stops, its queued turns are dropped, and a
 * budget decision already made stays latched for the next send (docs/adr/0011).
 */
import { InvalidArgumentError } from "../core/errors.js";
import { fileDataProblem } from "../core/file-data.js";
import type { RowPart } from "../core/row.js";
import { ContextExceededError, SendInterruptedError } from "./errors.js";
import { startTurn, type TurnStart, type TurnTrigger } from "./rollover-transaction.js";
import { runNotesFlush } from "./notes-flush.js";
import { runTurn, type TurnRun, type TurnStop } from "./run-turn.js";
import { primaryModel, requestFrame, type SessionContext } from "./session-context.js";
import type { createSessionLock } from "./session-lock.js";
import { createSendCollector, type SendCollector } from "./send-result.js";
import type { SendInput, SendOptions, SendResult } from "./session-types.js";
import type { TurnSink } from "./session-events.js";
import type { PendingRollover, QueueEntry, TurnOwner, TurnQueue } from "./turn-queue.js";

export interface SendFlowOptions {
  context: SessionContext;
  queue: TurnQueue;
  lock: ReturnType<typeof createSessionLock>;
  maxTurnsPerSend: number;
}

const interrupted = { status: "interrupted" } as const;

/**
 * @example
 * const send = createSendFlow({ context, queue, lock, maxTurnsPerSend: 25 });
 * const result = await send("hello", { signal: controller.signal });
 */
export function createSendFlow({ context, queue, lock, maxTurnsPerSend }: SendFlowOptions) {
  const collectors = new Map<TurnOwner, SendCollector>();
  /** The turn running under the lock (whichever send's loop runs it). */
  let running: { owner: TurnOwner; done: Promise<void> } | undefined;

  /** Runs one queued turn; an unexpected failure (hot memories unreadable, a bug) ends its send as `failed`. */
  async function runEntry(entry: QueueEntry): Promise<void> {
    const collector = collectors.get(entry.owner);
    if (collector === undefined) return;
    // Interrupted before this turn started: nothing of it is stored.
    if (entry.owner.signal?.aborted === true) return endWith(collector, entry.owner, interrupted);
    const turnId = context.generateId();
    // Turns run one at a time: while this one runs, its send's sink sees the session's output.
    context.activeSink = entry.owner.sink;
    try {
      context.events.emit("turn-start", { turnId });
      try {
        await runTurnOf(entry, collector, turnId);
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        context.events.emit("error", { error: failure });
        endWith(collector, entry.owner, { status: "failed", error: failure });
      }
      context.events.emit("turn-end", { turnId, status: collector.status ?? "completed" });
    } finally {
      context.activeSink = undefined;
    }
  }

  async function runTurnOf(entry: QueueEntry, collector: SendCollector, turnId: string): Promise<void> {
    const { signal } = entry.owner;
    const model = primaryModel(context);
    const frame = await requestFrame(context, model);
    const trigger: TurnTrigger =
      entry.kind === "user"
        ? { kind: "user", parts: entry.parts, ...(entry.metadata === undefined ? {} : { metadata: entry.metadata }) }
        : { kind: entry.kind };
    const warningAhead = entry.kind === "user" && queue.pendingWarning !== undefined;
    const start = await startOrEnd(collector, entry.owner, () =>
      startTurn(context, {
        trigger,
        latch: entry.kind === "warning" ? undefined : queue.pendingRollover,
        warningAhead,
        operationId: `${turnId}:start`,
        model,
        frame,
        signal,
      }),
    );
    if (start === undefined) return;
    if (start.latchConsumed) queue.clearRollover();
    if (warningAhead) queue.clearWarning();
    let run = await runTurn(context, { windowId: start.windowId, rows: start.rows, turnId, signal });
    if (run.status === "context-exceeded" && signal?.aborted === true) run = { ...run, status: "interrupted" };
    if (run.status === "context-exceeded") {
      const retryTrigger: TurnTrigger =
        entry.kind === "user" && run.steps.length === 0
          ? { kind: "user", parts: entry.parts, metadata: { ...entry.metadata, retryOfSeq: start.trigger.seq } }
          : { kind: "continue" };
      const emergency = await startOrEnd(collector, entry.owner, () =>
        startTurn(context, {
          trigger: retryTrigger,
          latch: undefined,
          warningAhead: false,
          forced: { reason: "context-exceeded", ...(run.steps.length === 0 ? { triggerSeq: start.trigger.seq } : {}) },
          operationId: `${turnId}:emergency`,
          model,
          frame,
        }),
      );
      if (emergency === undefined) {
        if (!collector.ended) failContextExceeded(collector, entry.owner, run, { afterRollover: false });
        return;
      }
      collector.addTurn(run.steps, run.text);
      run = await runTurn(context, {
        windowId: emergency.windowId,
        rows: emergency.rows,
        turnId: `${turnId}:retry`,
        signal,
      });
      if (run.status === "context-exceeded") {
        collector.addTurn(run.steps, run.text);
        failContextExceeded(collector, entry.owner, run, { afterRollover: true });
        return;
      }
    }
    collector.addTurn(run.steps, run.text);
    await afterRun(collector, entry.owner, run, turnId);
  }

  /** Starts a turn; on a block or failure, ends the owner's send and returns `undefined`. */
  async function startOrEnd(
    collector: SendCollector,
    owner: TurnOwner,
    start: () => Promise<TurnStart>,
  ): Promise<Extract<TurnStart, { status: "ready" }> | undefined> {
    let outcome: TurnStart;
    try {
      outcome = await start();
    } catch (error) {
      if (SendInterruptedError.isInstance(error)) {
        endWith(collector, owner, interrupted);
        return undefined;
      }
      const failure = error instanceof Error ? error : new Error(String(error));
      context.events.emit("error", { error: failure });
      endWith(collector, owner, { status: "failed", error: failure });
      return undefined;
    }
    if (outcome.status === "blocked") {
      context.events.emit("blocked", {
        reason: outcome.reason,
        estimatedTokens: outcome.estimatedTokens,
        hardCeiling: outcome.hardCeiling,
      });
      endWith(collector, owner, { status: "blocked", reason: outcome.reason });
      return undefined;
    }
    if (outcome.status === "already-fresh") return undefined;
    if (outcome.rollover !== undefined) {
      collector.addRollover(outcome.rollover);
      context.events.emit("rollover", outcome.rollover);
    }
    if (outcome.compaction !== undefined) {
      collector.addCompaction(outcome.compaction);
      context.events.emit("compaction", outcome.compaction);
    }
    if (outcome.warning !== undefined) {
      collector.addWarning(outcome.warning);
      context.events.emit("budget-warning", outcome.warning);
    }
    return outcome;
  }

  async function afterRun(collector: SendCollector, owner: TurnOwner, run: TurnRun, turnId: string): Promise<void> {
    if (run.status === "interrupted") {
      keepBudgetDecision(run, owner);
      return endWith(collector, owner, interrupted);
    }
    if (run.status === "failed")
      return endWith(collector, owner, { status: "failed", ...(run.error === undefined ? {} : { error: run.error }) });
    if (run.status === "blocked") {
      const reason = run.reason ?? "The request does not fit the context window.";
      context.events.emit("blocked", { reason });
      return endWith(collector, owner, { status: "blocked", reason });
    }
    const stop = run.stop;
    if (stop === undefined) return;
    if (stop.decision === "rollover" && stop.requested !== undefined) {
      // The agent chose the moment (and could write its notes before): no flush step is given.
      queue.latchRollover(requestedLatch(stop), owner);
    } else if (stop.decision === "rollover") {
      const { evaluation } = stop;
      // The agent's one step to update its notes in the old window, when it is due (ADR 0024).
      const flush = await runNotesFlush(context, { stop, turnId, signal: owner.signal });
      if (flush !== undefined) collector.addTurn(flush.run.steps, "");
      const flushed = flush?.run.status === "completed";
      queue.latchRollover(
        {
          reason: "mid-stream",
          flushOpportunity: evaluation.flushOpportunity || flushed,
          contextTokens: evaluation.projected,
          maxTokens: stop.contextLimit,
          windowId: stop.windowId,
        },
        owner,
      );
      if (flush?.run.status === "interrupted") {
        return endWith(collector, owner, interrupted);
      }
    } else if (stop.decision === "warn") {
      queue.requestWarning({ windowId: stop.windowId }, owner);
    } else {
      const reason =
        `The context window is full (about ${stop.evaluation.projected.toLocaleString("en-US")} tokens, ` +
        `ceiling ${stop.evaluation.hardCeiling.toLocaleString("en-US")}) and rollovers are off. ` +
        "Clear or compact the session, or use a model with a larger context.";
      context.events.emit("blocked", {
        reason,
        estimatedTokens: stop.evaluation.projected,
        hardCeiling: stop.evaluation.hardCeiling,
      });
      endWith(collector, owner, { status: "blocked", reason });
    }
  }

  /**
   * An interrupted turn whose last settled step decided a rollover or a warning: the decision
   * stands (the window's pressure did not change), but the continuation does not run. The rollover
   * stays latched and the warning rides in front of the next user input.
   */
  function keepBudgetDecision(run: TurnRun, owner: TurnOwner): void {
    const stop = run.stop;
    if (stop?.decision === "rollover" && stop.requested !== undefined) {
      queue.latchRollover(requestedLatch(stop), owner);
    } else if (stop?.decision === "rollover") {
      queue.latchRollover(
        {
          reason: "mid-stream",
          flushOpportunity: stop.evaluation.flushOpportunity,
          contextTokens: stop.evaluation.projected,
          maxTokens: stop.contextLimit,
          windowId: stop.windowId,
        },
        owner,
      );
    } else if (stop?.decision === "warn") {
      queue.deferWarning({ windowId: stop.windowId });
    }
  }

  /** Ends the owner's send as failed and tells listeners (`error` event) why. */
  function failWith(collector: SendCollector, owner: TurnOwner, error: Error): void {
    context.events.emit("error", { error });
    endWith(collector, owner, { status: "failed", error });
  }

  /** Fails the owner's send with the provider's refusal of `refused` as too long, before or after a rollover. */
  function failContextExceeded(
    collector: SendCollector,
    owner: TurnOwner,
    refused: TurnRun,
    { afterRollover }: { afterRollover: boolean },
  ): void {
    const error = new ContextExceededError(refused.model ?? "the model", { cause: refused.error, afterRollover });
    failWith(collector, owner, error);
  }

  function endWith(
    collector: SendCollector,
    owner: TurnOwner,
    outcome: Pick<SendResult, "status" | "reason" | "error">,
  ): void {
    collector.end(outcome);
    queue.dropInternalOf(owner);
  }

  /** Runs the entry at the head of the queue, if `owner` still has turns queued. */
  async function runNext(owner: TurnOwner): Promise<void> {
    if (!queue.hasEntriesFor(owner)) return;
    const entry = queue.shift();
    if (entry === undefined) return;
    const done = runEntry(entry);
    running = { owner: entry.owner, done };
    try {
      await done;
    } finally {
      running = undefined;
    }
    const entryCollector = collectors.get(entry.owner);
    if (entryCollector !== undefined && entryCollector.turns >= maxTurnsPerSend) queue.dropInternalOf(entry.owner);
  }

  /** `sink`: where this send's live output goes while its turns run (its UI message stream). */
  return async function send(input: SendInput, { signal }: SendOptions = {}, sink?: TurnSink): Promise<SendResult> {
    const collector = createSendCollector();
    if (signal?.aborted === true) {
      collector.end(interrupted);
      return collector.result();
    }
    const { parts, metadata } = partsOf(input);
    const owner: TurnOwner = {
      id: context.generateId(),
      ...(signal === undefined ? {} : { signal }),
      ...(sink === undefined ? {} : { sink }),
    };
    collectors.set(owner, collector);
    queue.push({ kind: "user", parts, owner, ...(metadata === undefined ? {} : { metadata }) });
    try {
      while (queue.hasEntriesFor(owner)) {
        const outcome = await lock.runUnlessAborted(() => runNext(owner), signal);
        if (outcome.status === "aborted") {
          // Interrupted while waiting for the lock: drop what has not started; a turn of this send
          // that another send's loop is running sees the same signal and ends soon.
          queue.dropAllOf(owner);
          if (running?.owner === owner) await running.done;
          collector.end(interrupted);
        }
      }
      return collector.result();
    } finally {
      collectors.delete(owner);
    }
  };
}

/** The latch of a rollover the agent asked for with `new_context` (docs/adr/0025). */
function requestedLatch(stop: TurnStop): PendingRollover {
  const note = stop.requested?.note;
  return {
    reason: "requested",
    flushOpportunity: true,
    contextTokens: stop.evaluation.projected,
    maxTokens: stop.contextLimit,
    windowId: stop.windowId,
    ...(note === undefined ? {} : { handoffNote: note }),
  };
}

function partsOf(input: SendInput): { parts: RowPart[]; metadata?: Record<string, unknown> } {
  if (typeof input === "string") return { parts: [{ type: "text", text: input }] };
  if ("parts" in input) return { parts: checkedFiles(input.parts) };
  const parts: RowPart[] = [{ type: "text", text: input.text }];
  for (const file of input.files ?? [])
    parts.push({
      type: "file",
      mediaType: file.mediaType,
      url: file.url,
      ...(file.filename === undefined ? {} : { filename: file.filename }),
    });
  return { parts: checkedFiles(parts) };
}

/** A file the provider could not take, or a URL to fetch, is refused before anything is stored (core/file-data.ts). */
function checkedFiles(parts: RowPart[]): RowPart[] {
  for (const part of parts) {
    if (part.type !== "file") continue;
    const { url, mediaType } = part as { url?: unknown; mediaType?: unknown };
    const problem = fileDataProblem({ url: String(url), mediaType: String(mediaType) });
    if (problem !== undefined) throw new InvalidArgumentError(problem);
  }
  return parts;
}
