/**
 * A fork as its reads see it (ADR 0059): the rows up to `atSeq` are its origin's, read through the
 * origin (itself possibly a fork); its own rows are the backend's. `originRange` says how the
 * origin's rows are read so that the fork's privacy floor, not the origin's, applies to them.
 */
import type { HistoryStore, StoredRow } from "../port.js";

export interface ForkView {
  /** The fork's id. */
  sessionId: string;
  originId: string;
  atSeq: number;
  /** The fork's privacy floor now (the floor at `atSeq`, or a reset of the fork's own). */
  floorSeq: number;
}

/** How to read the origin's part: the origin's reads with or without cleared rows, then rows above `above` only. */
export interface OriginRange {
  includeCleared: boolean;
  above: number;
}

/**
 * `undefined` when no origin row is visible (a reset of the fork's own hides them all). The origin's
 * own floor applies when it is still the fork's; else cleared rows are read and cut at the fork's floor.
 */
export async function originRange(
  composed: HistoryStore,
  view: ForkView,
  includeCleared: boolean,
): Promise<OriginRange | undefined> {
  if (includeCleared || view.floorSeq === 0) return { includeCleared: true, above: 0 };
  if (view.floorSeq >= view.atSeq) return undefined;
  const originFloor = await composed.privacyFloor(view.originId);
  return originFloor === view.floorSeq
    ? { includeCleared: false, above: 0 }
    : { includeCleared: true, above: view.floorSeq };
}

/** An origin row as the fork's: the same row under the fork's session id. */
export function asForkRow(view: ForkView, row: StoredRow): StoredRow {
  return { ...row, sessionId: view.sessionId };
}

/** The part of `values` above the range's floor, and whether any was cut (then nothing lies beyond). */
export function aboveFloor<T>(
  values: readonly T[],
  range: OriginRange,
  seqOf: (value: T) => number,
): { kept: T[]; cut: boolean } {
  const kept = values.filter((value) => seqOf(value) > range.above);
  return { kept, cut: kept.length < values.length };
}
