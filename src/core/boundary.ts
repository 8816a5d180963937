/**
 * Boundary classification. A row starts a new context window when it carries `boundary`.
 * Malformed boundary metadata fails closed: it is treated as a manual `reset`, which is a
 * privacy floor, so a damaged row can never widen what the agent may read.
 */
import { RolloverMetaSchema, type BoundaryKind, type RolloverMeta } from "./row.js";

/** The fields of a row that decide whether and how it starts a window. */
export interface BoundaryFields {
  boundary?: unknown;
  meta?: { type?: unknown } | undefined;
}

/**
 * Returns the boundary kind of a row, or `undefined` for an ordinary row.
 *
 * @example
 * classifyBoundary({ boundary: { kind: "compaction" } }) // "compaction"
 * classifyBoundary({ boundary: { kind: "rollover" } })   // "reset" (no rollover metadata: fail closed)
 */
export function classifyBoundary(row: BoundaryFields): BoundaryKind | undefined {
  const boundary = row.boundary;
  if (boundary === undefined || boundary === null) return undefined;
  if (typeof boundary !== "object" || Array.isArray(boundary)) return "reset";
  const kind = (boundary as { kind?: unknown }).kind;
  if (kind === "compaction") return "compaction";
  if (kind === "rollover" && RolloverMetaSchema.safeParse(row.meta).success) return "rollover";
  return "reset";
}

/** Rollover metadata of a valid rollover boundary row, else `undefined`. */
export function rolloverMetaOf(row: BoundaryFields): RolloverMeta | undefined {
  if (classifyBoundary(row) !== "rollover") return undefined;
  return row.meta as unknown as RolloverMeta;
}

/** A boundary whose own row is not sent to the provider (the window starts after it). */
export function isExclusiveBoundary(kind: BoundaryKind | undefined): boolean {
  return kind === "rollover" || kind === "reset";
}
