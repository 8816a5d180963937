/**
 * Which rows go where: to the provider, to `session_history`, to people.
 */
import { classifyBoundary, isExclusiveBoundary, type BoundaryFields } from "./boundary.js";
import { INTERNAL_ROW_TYPES, type InternalRowType } from "./row.js";

/** The envelope fields the visibility rules look at. */
export interface VisibilityFields extends BoundaryFields {
  synthetic?: boolean | undefined;
  uiVisible?: boolean | undefined;
  meta?: { type?: unknown; [key: string]: unknown } | undefined;
}

const internalTypes: ReadonlySet<string> = new Set(INTERNAL_ROW_TYPES);

/** `meta.type` when it is one of ctxwin's own internal types. */
export function internalTypeOf(row: VisibilityFields): InternalRowType | undefined {
  const type = row.meta?.type;
  return typeof type === "string" && internalTypes.has(type) ? (type as InternalRowType) : undefined;
}

/** A row with a `meta.type` this build does not know (written by a newer build): preserved, never sent. */
export function hasUnknownType(row: VisibilityFields): boolean {
  const type = row.meta?.type;
  return type !== undefined && !(typeof type === "string" && internalTypes.has(type));
}

/** Hidden synthetic rows (lead-ins, `continue`): in the transcript, not shown to people by default. */
export function isHidden(row: VisibilityFields): boolean {
  return row.synthetic === true && row.uiVisible === false;
}

/**
 * Rows sent to the provider when their window is active: everything except the row of an
 * exclusive boundary (rollover/reset), `rejected-input` rows, and rows of unknown internal type.
 *
 * @example
 * window.rows.filter(isProviderEligible)
 */
export function isProviderEligible(row: VisibilityFields): boolean {
  if (isExclusiveBoundary(classifyBoundary(row)) || isStrayRolloverMarker(row)) return false;
  if (row.meta?.type === "rejected-input") return false;
  return !hasUnknownType(row);
}

/**
 * A row that says it is a rollover marker but carries no boundary (only possible by editing the
 * stored JSON, since append refuses it): it has no content, so it goes nowhere (fail closed).
 */
function isStrayRolloverMarker(row: VisibilityFields): boolean {
  return row.meta?.type === "rollover" && classifyBoundary(row) === undefined;
}

/**
 * Rows `session_history` may list, search and read: no hidden synthetic rows, no
 * `rejected-input` rows, no rollover/reset boundary rows (they carry no content).
 */
export function isHistoryVisible(row: VisibilityFields): boolean {
  if (isHidden(row)) return false;
  if (row.meta?.type === "rejected-input" || isStrayRolloverMarker(row)) return false;
  return !isExclusiveBoundary(classifyBoundary(row));
}

/**
 * A provider-eligible row that ctxwin did not write for its own bookkeeping. A window with none
 * is already fresh: it must never receive a second boundary.
 */
export function isSubstantive(row: VisibilityFields): boolean {
  return isProviderEligible(row) && internalTypeOf(row) === undefined;
}

/** One session of the tree as the child-visibility rule sees it (a `SessionSummary` fits). */
export interface LineageLink {
  /** Seq of the session's newest manual reset (0 when none): its privacy floor. */
  floorSeq: number;
  /** Set for a child session: its parent and the item of the parent's `task` call. */
  parent?: { sessionId: string; itemId: string } | undefined;
}

/**
 * A child started after its parent's privacy floor: the item of its `task` call lies after the
 * floor. An item id that is not a positive integer never does (fail closed).
 *
 * @example startedAfterFloor({ itemId: "3", floorSeq: 5 }) // false: the clear at 5 hides the child
 */
export function startedAfterFloor({ itemId, floorSeq }: { itemId: string; floorSeq: number }): boolean {
  const seq = /^[1-9][0-9]*$/.test(itemId) ? Number(itemId) : Number.NaN;
  return Number.isSafeInteger(seq) && seq > floorSeq;
}

/**
 * Whether a session may be listed, searched and read at all (ADR 0073): every session on its way
 * up the tree started after its parent's privacy floor. A manual clear of a session thus hides its
 * children started at or before it, their children, and so on. `ancestors` are the session's
 * parent, grandparent, … nearest first, as far as the first session without a parent; a missing
 * one (`undefined`, a parent no longer stored) or a chain that stops early hides the session (fail
 * closed). A session without a parent is visible: a fork keeps its own floor (ADR 0059), and its
 * rows after that floor are its own to show. The session's own floor hides only its own rows.
 *
 * @example isSessionVisible(child, [main]) // false once main's floor is at or after child.parent.itemId
 */
export function isSessionVisible(session: LineageLink, ancestors: readonly (LineageLink | undefined)[]): boolean {
  let link = session;
  for (const ancestor of ancestors) {
    if (link.parent === undefined) return true;
    if (ancestor === undefined) return false;
    if (!startedAfterFloor({ itemId: link.parent.itemId, floorSeq: ancestor.floorSeq })) return false;
    link = ancestor;
  }
  return link.parent === undefined;
}
