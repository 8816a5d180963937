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
