/**
 * The queue of turns a session runs, and its two latches. A turn that stops at a step boundary
 * for a rollover latches it and queues a `continue` unless real user input is already waiting
 * (that input then receives the rollover). A warning is queued as its own turn, or rides in front
 * of waiting user input. Supersession (clear, compact, a new model) drops both latches and every
 * queued internal turn. Nothing here is persisted: after a restart the next send re-derives the
 * pressure from stored rows.
 */
import type { RolloverReason, RowPart } from "../core/row.js";
import type { TurnSink } from "./session-events.js";

/** Whoever is waiting for a turn's result: one `send` call. */
export interface TurnOwner {
  readonly id: string;
  /** The send's `signal`: its turns stop when it aborts. */
  readonly signal?: AbortSignal;
  /** Where the send's live output goes while its turns run (its UI message stream), if anywhere. */
  readonly sink?: TurnSink;
}

export type QueueEntry =
  | { kind: "user"; parts: RowPart[]; metadata?: Record<string, unknown>; owner: TurnOwner }
  | { kind: "continue"; owner: TurnOwner }
  | { kind: "warning"; owner: TurnOwner };

export interface PendingRollover {
  reason: RolloverReason;
  flushOpportunity: boolean;
  contextTokens: number;
  maxTokens: number;
  /** The window the decision was made in; a latch for another window is stale. */
  windowId: string;
  /** A requested rollover's handoff note, for the lead-in (docs/adr/0025). */
  handoffNote?: string;
}

export interface PendingWarning {
  windowId: string;
}

/**
 * @example
 * const queue = createTurnQueue();
 * queue.push({ kind: "user", parts, owner });
 * queue.latchRollover(pending, owner); // queues a `continue` only if no user input waits
 */
export function createTurnQueue() {
  const entries: QueueEntry[] = [];
  let pendingRollover: PendingRollover | undefined;
  let pendingWarning: PendingWarning | undefined;
  const hasUserInput = () => entries.some((entry) => entry.kind === "user");

  return {
    push(entry: QueueEntry): void {
      entries.push(entry);
    },
    shift(): QueueEntry | undefined {
      return entries.shift();
    },
    hasUserInput,
    hasEntriesFor(owner: TurnOwner): boolean {
      return entries.some((entry) => entry.owner === owner);
    },
    get size(): number {
      return entries.length;
    },
    get pendingRollover(): PendingRollover | undefined {
      return pendingRollover;
    },
    get pendingWarning(): PendingWarning | undefined {
      return pendingWarning;
    },
    /** Latches a rollover; queues a `continue` for `owner` unless user input is waiting. */
    latchRollover(pending: PendingRollover, owner: TurnOwner): void {
      pendingRollover = pending;
      pendingWarning = undefined;
      dropInternal(entries, "warning");
      if (!hasUserInput() && !entries.some((entry) => entry.kind === "continue"))
        entries.push({ kind: "continue", owner });
    },
    /** Queues the warning turn, or latches it in front of the waiting user input. Never with a rollover pending. */
    requestWarning(warning: PendingWarning, owner: TurnOwner): boolean {
      if (pendingRollover !== undefined) return false;
      if (hasUserInput()) pendingWarning = warning;
      else if (!entries.some((entry) => entry.kind === "warning")) entries.push({ kind: "warning", owner });
      return true;
    },
    /**
     * Puts a warning in front of the next user input without queueing a warning turn (the send
     * that decided it was interrupted). Never with a rollover pending.
     */
    deferWarning(warning: PendingWarning): void {
      if (pendingRollover === undefined) pendingWarning = warning;
    },
    /** The rollover latch was executed (or found stale): clear it. */
    clearRollover(): void {
      pendingRollover = undefined;
    },
    clearWarning(): void {
      pendingWarning = undefined;
    },
    /** Clear, compact or a new model: forget both latches and every queued internal turn. */
    supersede(): void {
      pendingRollover = undefined;
      pendingWarning = undefined;
      dropInternal(entries, "continue");
      dropInternal(entries, "warning");
    },
    /** Drops the queued internal turns of one owner (its send ended early). */
    dropInternalOf(owner: TurnOwner): void {
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const entry = entries[index];
        if (entry !== undefined && entry.owner === owner && entry.kind !== "user") entries.splice(index, 1);
      }
    },
    /** Drops every queued turn of one owner, its input included (its send was interrupted before they ran). */
    dropAllOf(owner: TurnOwner): void {
      for (let index = entries.length - 1; index >= 0; index -= 1)
        if (entries[index]?.owner === owner) entries.splice(index, 1);
    },
  };
}

export type TurnQueue = ReturnType<typeof createTurnQueue>;

function dropInternal(entries: QueueEntry[], kind: "continue" | "warning"): void {
  for (let index = entries.length - 1; index >= 0; index -= 1)
    if (entries[index]?.kind === kind) entries.splice(index, 1);
}
