/**
 * Windows and ids. A window runs from one boundary up to the next; its id is `w:0` for the first
 * window and `w:<seq of its boundary>` otherwise. Item ids are `String(seq)`.
 */
import { classifyBoundary, type BoundaryFields } from "./boundary.js";
import type { BoundaryKind } from "./row.js";
import { isProviderEligible, type VisibilityFields } from "./visibility.js";

/** How a window began: `start` for the first window of a session. */
export type WindowKind = "start" | BoundaryKind;

export const FIRST_WINDOW_ID = "w:0";

const windowIdPattern = /^w:(0|[1-9][0-9]{0,15})$/;
const itemIdPattern = /^[1-9][0-9]{0,15}$/;

/** @example windowIdFor(0) // "w:0"; windowIdFor(42) // "w:42" */
export function windowIdFor(boundarySeq: number): string {
  return `w:${boundarySeq}`;
}

/** The boundary seq a window id names, or `undefined` when the id is malformed. */
export function parseWindowId(windowId: unknown): number | undefined {
  if (typeof windowId !== "string") return undefined;
  const match = windowIdPattern.exec(windowId);
  if (match === null) return undefined;
  const seq = Number(match[1]);
  return Number.isSafeInteger(seq) ? seq : undefined;
}

/** @example itemIdFor(7) // "7" */
export function itemIdFor(seq: number): string {
  return String(seq);
}

/** The seq an item id names (a positive integer written plainly), or `undefined`. */
export function parseItemId(itemId: unknown): number | undefined {
  const text = typeof itemId === "number" ? String(itemId) : itemId;
  if (typeof text !== "string" || !itemIdPattern.test(text)) return undefined;
  const seq = Number(text);
  return Number.isSafeInteger(seq) ? seq : undefined;
}

export interface SequencedRow extends VisibilityFields {
  seq: number;
}

/** One window of rows, bucketed from a session's rows. */
export interface WindowBucket<T extends SequencedRow> {
  windowId: string;
  /** Seq of the boundary row (0 for the first window). */
  boundarySeq: number;
  kind: WindowKind;
  rows: T[];
}

/**
 * Buckets rows (any order) into windows, oldest first. A boundary row belongs to the window it
 * opens; whether it is sent to the provider is decided by `providerSlice`.
 *
 * @example
 * bucketWindows(rows).map((window) => window.windowId) // ["w:0", "w:12", "w:30"]
 */
export function bucketWindows<T extends SequencedRow>(rows: readonly T[]): WindowBucket<T>[] {
  const sorted = [...rows].sort((left, right) => left.seq - right.seq);
  const windows: WindowBucket<T>[] = [];
  let current: WindowBucket<T> | undefined;
  for (const row of sorted) {
    const kind = classifyBoundary(row);
    if (kind !== undefined) {
      current = { windowId: windowIdFor(row.seq), boundarySeq: row.seq, kind, rows: [row] };
      windows.push(current);
      continue;
    }
    if (current === undefined) {
      current = { windowId: FIRST_WINDOW_ID, boundarySeq: 0, kind: "start", rows: [] };
      windows.push(current);
    }
    current.rows.push(row);
  }
  return windows;
}

/**
 * The window a row with this seq falls into, given the seqs of all boundaries (ascending).
 *
 * @example windowSeqFor(15, [10, 20]) // 10
 */
export function windowSeqFor(seq: number, boundarySeqs: readonly number[]): number {
  let result = 0;
  for (const boundarySeq of boundarySeqs) {
    if (boundarySeq > seq) break;
    result = boundarySeq;
  }
  return result;
}

/**
 * The provider slice of a window: exclusive after rollover/reset (the boundary row is not sent),
 * inclusive at compaction (the summary row is sent); `rejected-input` rows and rows of unknown
 * internal type are left out.
 *
 * @example
 * const messages = await convertToModelMessages(providerSlice(active.rows));
 */
export function providerSlice<T extends VisibilityFields>(windowRows: readonly T[]): T[] {
  return windowRows.filter(isProviderEligible);
}

/**
 * The privacy floor: seq of the newest manual `reset` boundary (malformed boundaries count as
 * resets), or 0. Nothing at or before it is listable, searchable or readable by the agent.
 */
export function privacyFloorSeq(rows: readonly (SequencedRow & BoundaryFields)[]): number {
  let floor = 0;
  for (const row of rows) {
    if (row.seq > floor && classifyBoundary(row) === "reset") floor = row.seq;
  }
  return floor;
}
