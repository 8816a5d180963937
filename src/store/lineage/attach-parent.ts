/**
 * The rules of `attachParent` (ADR 0067, amended 2026-12-06), shared by every backend: a session
 * created without a parent (a sub-agent imported before its parent) gets one later, once. Each
 * backend reads the lineage it needs and writes inside one transaction (or one synchronous step);
 * these functions only decide.
 */
import type { ForkOrigin, SessionParent } from "../port.js";
import { AttachParentRefusedError } from "./lineage-errors.js";

/**
 * The longest chain of parents above a session that `attachParent` builds. The sub-agent depth
 * limit (ADR 0060, `maxDepth`, default 3) is a policy of the `task` tool, not a store rule:
 * imported trees are recorded as their source ran them. This bound only keeps the walk finite.
 */
export const MAX_LINEAGE_DEPTH = 100;

/** What the rules need to know about the session that gets a parent. */
export interface AttachTarget {
  parent?: SessionParent | undefined;
  forkOf?: ForkOrigin | undefined;
}

/**
 * The parent chain above `parentSessionId`, nearest first: its parent, that one's parent, … At
 * most `MAX_LINEAGE_DEPTH` ids; stops at a session seen before (a loop written before this rule).
 *
 * @example ancestorsOf("b", (id) => ({ b: "a" })[id]) // ["a"]
 */
export function ancestorsOf(parentSessionId: string, parentIdOf: (sessionId: string) => string | undefined): string[] {
  const chain: string[] = [];
  for (
    let current = parentIdOf(parentSessionId);
    current !== undefined && chain.length < MAX_LINEAGE_DEPTH;
    current = parentIdOf(current)
  ) {
    if (chain.includes(current) || current === parentSessionId) break;
    chain.push(current);
  }
  return chain;
}

/**
 * `"attach"` when the session should get `parent`, `"unchanged"` when it already has it; throws
 * `AttachParentRefusedError` otherwise. `ancestors`: `ancestorsOf(parent.sessionId, …)`.
 *
 * @example decideAttachment({ sessionId: "child", parent: { sessionId: "p", itemId: "4" }, target: {}, parentExists: true, ancestors: [] }) // "attach"
 */
export function decideAttachment({
  sessionId,
  parent,
  target,
  parentExists,
  ancestors,
}: {
  sessionId: string;
  parent: SessionParent;
  target: AttachTarget | undefined;
  parentExists: boolean;
  ancestors: readonly string[];
}): "attach" | "unchanged" {
  const refuse = (reason: ConstructorParameters<typeof AttachParentRefusedError>[0], message: string) =>
    new AttachParentRefusedError(reason, message);
  if (target === undefined)
    throw refuse("unknown-session", `Session '${sessionId}' does not exist: only an existing session gets a parent.`);
  if (target.parent !== undefined) {
    if (target.parent.sessionId === parent.sessionId && target.parent.itemId === parent.itemId) return "unchanged";
    throw refuse(
      "has-other-parent",
      `Session '${sessionId}' already has the parent '${target.parent.sessionId}' (item ${target.parent.itemId}); a parent is recorded once.`,
    );
  }
  if (target.forkOf !== undefined)
    throw refuse(
      "is-fork",
      `Session '${sessionId}' is a fork of '${target.forkOf.sessionId}': a fork gets no parent (ADR 0059).`,
    );
  if (parent.sessionId === sessionId || ancestors.includes(sessionId)) {
    throw refuse(
      "cycle",
      `Session '${sessionId}' cannot be a child of '${parent.sessionId}': it is that session or one of its ancestors.`,
    );
  }
  if (!parentExists) throw refuse("unknown-parent", `The parent session '${parent.sessionId}' does not exist.`);
  if (ancestors.length + 1 > MAX_LINEAGE_DEPTH) {
    throw refuse(
      "too-deep",
      `Session '${sessionId}' would sit more than ${MAX_LINEAGE_DEPTH} levels below the root of '${parent.sessionId}'.`,
    );
  }
  return "attach";
}
