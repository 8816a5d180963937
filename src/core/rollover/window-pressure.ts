/**
 * How full the active window is, derived from stored rows alone: the input tokens the provider
 * last reported plus everything the window gained since that request (the step's own output, its
 * trailing tool results, later rows). A new session object after a restart reaches the same number
 * as the one that wrote the rows.
 */
import { isProviderEligible, isSubstantive, type VisibilityFields } from "../visibility.js";
import { readStepMetadata } from "./step-usage.js";

export interface PressureRow extends VisibilityFields {
  seq: number;
  role: string;
  metadata?: unknown;
}

export interface WindowPressure {
  /** Estimated tokens of a request built from the window now (without a new input). */
  contextTokens: number;
  /** Seq of the row whose reported usage anchors the figure, if any. */
  anchorSeq: number | undefined;
  /** Tokens added after the anchor's request (its output, tool results, later rows). */
  tailTokens: number;
}

export interface WindowPressureOptions<T extends PressureRow> {
  /** Every row of the active window, in seq order. */
  rows: readonly T[];
  /** Tokens of one row as it is sent (cached `row.tokens` when present). */
  rowTokens: (row: T) => number;
  /** Tokens of the request around the rows: system prompt, hot memories, tool schemas. */
  overheadTokens: number;
  /**
   * Multiplier for our own estimates (not for the provider's reported figure), learned by
   * calibration against reported input tokens; default 1.
   */
  calibrationFactor?: number;
}

/**
 * @example
 * deriveWindowPressure({ rows: window.rows, rowTokens: (row) => row.tokens ?? 0, overheadTokens: 1_200 })
 */
export function deriveWindowPressure<T extends PressureRow>({
  rows,
  rowTokens,
  overheadTokens,
  calibrationFactor = 1,
}: WindowPressureOptions<T>): WindowPressure {
  const calibrated = (estimate: number) =>
    calibrationFactor === 1 ? estimate : Math.ceil(estimate * calibrationFactor - 1e-9);
  const eligible = rows.filter(isProviderEligible);
  let anchorIndex = -1;
  let reported: number | undefined;
  for (let index = eligible.length - 1; index >= 0; index -= 1) {
    const row = eligible[index];
    if (row === undefined || row.role !== "assistant") continue;
    const inputTokens = readStepMetadata(row)?.usage.inputTokens;
    if (inputTokens !== undefined && inputTokens > 0) {
      anchorIndex = index;
      reported = inputTokens;
      break;
    }
  }
  if (reported === undefined) {
    const total = calibrated(eligible.reduce((sum, row) => sum + rowTokens(row), 0));
    return { contextTokens: calibrated(overheadTokens) + total, anchorSeq: undefined, tailTokens: total };
  }
  let tailTokens = 0;
  for (let index = anchorIndex; index < eligible.length; index += 1) {
    const row = eligible[index];
    if (row !== undefined) tailTokens += rowTokens(row);
  }
  tailTokens = calibrated(tailTokens);
  return { contextTokens: reported + tailTokens, anchorSeq: eligible[anchorIndex]?.seq, tailTokens };
}

/**
 * A window with no substantive row (only a boundary, lead-in, warnings, `continue`) is already
 * fresh: it must never receive a second boundary.
 *
 * @example
 * isWindowFresh(window.rows) // true right after a rollover
 */
export function isWindowFresh(rows: readonly VisibilityFields[]): boolean {
  return !rows.some(isSubstantive);
}

/**
 * Whether the window already holds a budget warning (at most one per window).
 *
 * @example
 * if (!hasBudgetWarning(window.rows)) queueWarning()
 */
export function hasBudgetWarning(rows: readonly VisibilityFields[]): boolean {
  return rows.some((row) => row.meta?.type === "budget-warning");
}
