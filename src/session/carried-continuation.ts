/**
 * The `continue` row of a rollover that stops a turn, carrying the turn's input and ledger
 * (docs/adr/0023, 0050). The carry is counted like every row, in the fresh window the rollover
 * opens (system, memories, tools, the rollover's own lead-in): when that window could not hold it
 * under the hard ceiling, it is carried with halved bounds, and at worst not at all.
 */
import { continueRow, leadInRow } from "../core/rollover/rollover-rows.js";
import { carryBounds, deriveTurnCarry } from "../core/rollover/turn-carry.js";
import type { RowInput } from "../core/row.js";
import type { ActiveWindow } from "../store/port.js";
import {
  calibrate,
  overheadTokens,
  rowRequestTokens,
  type RequestFrame,
  type ToolOutputLimits,
} from "./request-assembly.js";
import type { SessionContext } from "./session-context.js";
import type { RolloverInfo } from "./session-types.js";

/**
 * @example
 * const row = carriedContinuation({ context, window, rollover, nextWindowId: "w:12", limit, frame, limits, createdAt });
 */
export function carriedContinuation({
  context,
  window,
  rollover,
  nextWindowId,
  limit,
  frame,
  limits,
  createdAt,
}: {
  context: SessionContext;
  window: ActiveWindow;
  rollover: Omit<RolloverInfo, "windowId" | "rolloverId">;
  nextWindowId: string;
  limit: number;
  frame: RequestFrame;
  limits: ToolOutputLimits;
  createdAt: string;
}): RowInput {
  const rowTokens = (row: RowInput) =>
    rowRequestTokens({ seq: 0, role: row.role, parts: row.parts, tokens: undefined }, frame, limits);
  // The lead-in this rollover writes: its text depends on the reason, the flush and the handoff note.
  const leadIn = leadInRow({
    rolloverId: "preflight",
    windowId: nextWindowId,
    previousWindowId: window.windowId,
    reason: rollover.reason,
    flushOpportunity: rollover.flushOpportunity,
    historyToolAvailable: context.historyToolAvailable,
    ...(context.notesPath === undefined ? {} : { notesPath: context.notesPath }),
    ...(rollover.handoffNote === undefined ? {} : { handoffNote: rollover.handoffNote }),
  });
  const base = overheadTokens(frame) + rowTokens(leadIn);
  const ceiling = context.policy.hardCeiling(limit);
  let bounds = carryBounds(limit);
  while (bounds.inputTokens > 0 || bounds.ledgerTokens > 0) {
    const carry = deriveTurnCarry({
      rows: window.rows,
      windowId: window.windowId,
      bounds,
      countTokens: frame.countTokens,
    });
    if (carry === undefined) break;
    const row = continueRow({ createdAt, carry, historyToolAvailable: context.historyToolAvailable });
    if (calibrate(base + rowTokens(row), frame.calibrationFactor) <= ceiling) return row;
    bounds = { inputTokens: Math.floor(bounds.inputTokens / 2), ledgerTokens: Math.floor(bounds.ledgerTokens / 2) };
  }
  return continueRow({ createdAt });
}
