/**
 * Argument checks of the lineage options, shared by every backend: a parent on `append`, the
 * filters of `sessions()`.
 */
import { InvalidArgumentError } from "../../core/errors.js";
import { assertSessionId } from "../../core/row.js";
import type { SessionParent, SessionsOptions } from "../port.js";

/** The parent as stored, or a clear error for a malformed one. */
export function checkParent(parent: unknown): SessionParent {
  if (parent === null || typeof parent !== "object")
    throw new InvalidArgumentError("parent must be { sessionId, itemId }.");
  const { sessionId, itemId } = parent as Record<string, unknown>;
  assertSessionId(sessionId);
  if (typeof itemId !== "string" || itemId.length === 0 || itemId.length > 200)
    throw new InvalidArgumentError("parent.itemId must be a string of 1 to 200 characters.");
  return { sessionId, itemId };
}

export interface CheckedSessionsOptions {
  parentSessionId: string | undefined;
  forkOfSessionId: string | undefined;
}

export function checkSessionsOptions(options: SessionsOptions | undefined): CheckedSessionsOptions {
  const { parentSessionId, forkOfSessionId } = options ?? {};
  if (parentSessionId !== undefined) assertSessionId(parentSessionId);
  if (forkOfSessionId !== undefined) assertSessionId(forkOfSessionId);
  return { parentSessionId, forkOfSessionId };
}

/** Whether a session with this lineage passes the filters. */
export function matchesLineage(
  filter: CheckedSessionsOptions,
  session: { parent?: SessionParent | undefined; forkOf?: { sessionId: string } | undefined },
): boolean {
  if (filter.parentSessionId !== undefined && session.parent?.sessionId !== filter.parentSessionId) return false;
  return filter.forkOfSessionId === undefined || session.forkOf?.sessionId === filter.forkOfSessionId;
}
