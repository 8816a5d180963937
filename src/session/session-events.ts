/**
 * Typed events of an agent session: `turn-start`, `step-start`, `text-delta`, `reasoning-delta`,
 * `tool-call`, `tool-result`, `step-end`, `usage`, `budget-warning`, `rollover`, `blocked`, `error`,
 * `retry`, `turn-end`. Listeners run synchronously; one that throws does not stop the session. The
 * send whose turn is running may also have a sink (its UI message stream) that sees every event.
 */
import type { StepResult, ToolSet, UIMessageChunk } from "ai";
import type { StoredRow } from "../store/port.js";
import type { SendResult, StepUsageSummary } from "./session-types.js";
import type {
  BlockedInfo,
  CompactionInfo,
  NotesFlushInfo,
  RolloverInfo,
  UsageInfo,
  WarningInfo,
} from "./ui-data-parts.js";

export interface SessionEventMap {
  /** A turn begins: the send's input, or a continuation or warning turn it queued. */
  "turn-start": { turnId: string };
  /**
   * Assistant text as it streams, before its step is stored. The deltas of a step concatenate to
   * the text parts of its stored row (an interrupted step included: what streamed is what is stored).
   */
  "text-delta": { delta: string; stepIndex: number };
  /** A step's request was sent: what follows belongs to step `stepIndex` of the turn. */
  "step-start": { stepIndex: number };
  /** Reasoning as it streams (providers that send it); never stored in search or sent back. */
  "reasoning-delta": { delta: string; stepIndex: number };
  /** The model called a tool; its input is complete. */
  "tool-call": { toolCallId: string; toolName: string; input: unknown; stepIndex: number };
  /** A tool call settled: its output, or the error or denial that ended it. */
  "tool-result": { toolCallId: string; toolName: string; stepIndex: number } & (
    { output: unknown } | { errorText: string } | { denied: true }
  );
  "step-end": { row: StoredRow; stepIndex: number; usage: StepUsageSummary; model: string };
  /**
   * After each step whose provider reported input tokens (not after a partial, interrupted step):
   * the window's context figure, and what the step's request spent (its cache reads and writes,
   * the share of its input read from the cache, its cost at the catalog's prices or `null`).
   */
  usage: UsageInfo;
  "budget-warning": WarningInfo;
  /** A mid-turn rollover is about to happen: the agent gets one step to update its notes first (ADR 0024). */
  "notes-flush": NotesFlushInfo;
  rollover: RolloverInfo;
  /** Strategy `compact` replaced the window with a summary (before the input that triggered it is answered). */
  compaction: CompactionInfo;
  blocked: BlockedInfo;
  error: { error: Error };
  /**
   * A step failed after its answer began streaming, with a failure worth another try (an
   * overloaded server): what streamed of it (`discardedText`, already sent as `text-delta`) is not
   * stored, and the step is requested again after a backoff. `retry` counts from 1.
   */
  retry: { error: Error; retry: number; discardedText: string };
  /** A turn ended; `status` is how its send ends (`completed` while the send goes on). */
  "turn-end": { turnId: string; status: SendResult["status"] };
}

export type SessionEventName = keyof SessionEventMap;
export type SessionListener<Name extends SessionEventName> = (event: SessionEventMap[Name]) => void;

/**
 * Where the running send's live output goes besides the session's listeners: the UI message
 * stream of `toUIMessageStream` and of the agent face (`createContextAgent`).
 */
export interface TurnSink {
  event<Name extends SessionEventName>(name: Name, event: SessionEventMap[Name]): void;
  /** A chunk of the SDK's UI message stream of a step (text, reasoning, tool parts, step framing). */
  chunk(chunk: UIMessageChunk): void;
  /** A settled step as the AI SDK reports it (`onStepEnd`); the next step waits for it. */
  step(step: StepResult<ToolSet>): void | PromiseLike<void>;
}

/**
 * @example
 * const events = createSessionEvents();
 * const off = events.on("rollover", (event) => console.log(event.windowId));
 */
export function createSessionEvents({
  onListenerError = (error) => console.error("ctxwin: a session event listener threw:", error),
  sink = () => undefined,
}: {
  onListenerError?: (error: unknown) => void;
  /** The sink of the send whose turn is running, if it has one. */
  sink?: () => TurnSink | undefined;
} = {}) {
  const listeners = new Map<SessionEventName, Set<(event: never) => void>>();
  return {
    on<Name extends SessionEventName>(name: Name, listener: SessionListener<Name>): () => void {
      const set = listeners.get(name) ?? new Set();
      set.add(listener as (event: never) => void);
      listeners.set(name, set);
      return () => set.delete(listener as (event: never) => void);
    },
    emit<Name extends SessionEventName>(name: Name, event: SessionEventMap[Name]): void {
      try {
        sink()?.event(name, event);
      } catch (error) {
        onListenerError(error);
      }
      for (const listener of listeners.get(name) ?? []) {
        try {
          (listener as SessionListener<Name>)(event);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
  };
}

export type SessionEvents = ReturnType<typeof createSessionEvents>;
