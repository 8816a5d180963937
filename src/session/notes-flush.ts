/**
 * The notes-flush step before a mid-turn rollover (docs/adr/0024): when a settled step decides a
 * rollover in the force band, the agent first gets one short step in the old window with only the
 * memory tool running (every tool is offered, so the request keeps the window's cached prefix,
 * ADR 0055), so the notes pinned into the next window hold its latest work. Only when memory is
 * writable, once per window, never when the hard ceiling forced the rollover, and only if that
 * request fits under the hard ceiling.
 */
import { hasNotesFlush, notesFlushRow } from "../core/rollover/notes-flush.js";
import { isWindowFresh } from "../core/rollover/window-pressure.js";
import { AppendConflictError } from "../store/errors.js";
import { calibrate, rowRequestTokens } from "./request-assembly.js";
import { storedRowTokens } from "./row-tokens.js";
import { primaryModel, requestFrame, toolOutputLimits, type SessionContext } from "./session-context.js";
import { runTurn, type TurnRun, type TurnStop } from "./run-turn.js";
import { MEMORY_TOOL_NAME } from "./tool-set.js";
import { SessionStoreError } from "./errors.js";

/** The output limit of the flush step: enough to rewrite a notes file, short enough to stay a step. */
export const NOTES_FLUSH_MAX_OUTPUT_TOKENS = 2_048;

export interface NotesFlush {
  windowId: string;
  /** The flush step's run (its steps count in the send's usage). */
  run: TurnRun;
}

/**
 * Runs the flush step when it is due; `undefined` when it is not (then the rollover happens
 * without it, exactly as before).
 *
 * @example
 * const flush = await runNotesFlush(context, { stop, turnId, signal });
 */
export async function runNotesFlush(
  context: SessionContext,
  { stop, turnId, signal }: { stop: TurnStop; turnId: string; signal?: AbortSignal | undefined },
): Promise<NotesFlush | undefined> {
  const notesPath = context.notesPath;
  if (
    !context.continuity.notesFlush ||
    notesPath === undefined ||
    context.hotMemories.mode !== "read-write" ||
    !(MEMORY_TOOL_NAME in context.tools)
  )
    return undefined;
  const { evaluation } = stop;
  // Forced by the hard ceiling: no request may be sent from this window any more.
  if (evaluation.projected >= evaluation.hardCeiling) return undefined;
  const window = await context.store.activeWindow(context.sessionId);
  if (window.windowId !== stop.windowId || hasNotesFlush(window.rows) || isWindowFresh(window.rows)) return undefined;
  const model = primaryModel(context);
  const frame = await requestFrame(context, model, { windowId: window.windowId });
  const activeTools = [MEMORY_TOOL_NAME];
  const row = notesFlushRow({
    windowId: window.windowId,
    notesPath,
    contextTokens: evaluation.projected,
    maxTokens: stop.contextLimit,
    activeTools,
    createdAt: context.now().toISOString(),
  });
  const rowTokens = calibrate(
    rowRequestTokens(
      { seq: 0, role: row.role, parts: row.parts, tokens: undefined },
      frame,
      toolOutputLimits(context, model),
    ),
    frame.calibrationFactor,
  );
  if (evaluation.projected + rowTokens > evaluation.hardCeiling) return undefined;
  let stored;
  try {
    stored = await context.store.append(context.sessionId, [{ ...row, tokens: storedRowTokens(row) }], {
      expectLastSeq: window.lastSeq,
      operationId: `${turnId}:notes-flush`,
    });
  } catch (error) {
    // Another writer got in first: its rows changed the window, so the flush is not given.
    if (AppendConflictError.isInstance(error)) return undefined;
    throw new SessionStoreError("the notes-flush instruction", error);
  }
  context.events.emit("notes-flush", { windowId: window.windowId, notesPath });
  const run = await runTurn(context, {
    windowId: window.windowId,
    rows: [...window.rows, ...stored],
    turnId: `${turnId}:notes-flush`,
    signal,
    flush: { runnableTools: activeTools, maxOutputTokens: NOTES_FLUSH_MAX_OUTPUT_TOKENS },
  });
  return { windowId: window.windowId, run };
}
