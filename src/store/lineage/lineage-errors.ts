/**
 * Failures of the lineage operations (ADR 0059): a fork that cannot be made, a session that
 * cannot be deleted while forks share its rows. Nothing is written when one is thrown.
 */
import { errorClass } from "../../core/errors.js";

export type ForkRefusal = "unknown-session" | "unknown-seq" | "behind-floor" | "session-exists";

/**
 * `store.fork` was refused; `reason` says why. Nothing was written.
 *
 * @example
 * if (ForkRefusedError.isInstance(error) && error.reason === "session-exists") pickAnotherId()
 */
export class ForkRefusedError extends errorClass("CtxwinForkRefusedError") {
  constructor(
    readonly reason: ForkRefusal,
    message: string,
  ) {
    super(`${message} Nothing was written.`);
  }
}

/**
 * `deleteSession` was refused: forks read their early history from this session's rows.
 *
 * @example
 * if (SessionHasForksError.isInstance(error)) console.error(error.forkIds)
 */
export class SessionHasForksError extends errorClass("CtxwinSessionHasForksError") {
  constructor(
    readonly sessionId: string,
    readonly forkIds: readonly string[],
  ) {
    super(
      `Session '${sessionId}' cannot be deleted: ` +
        `the forks ${forkIds.map((id) => `'${id}'`).join(", ")} share its rows. Delete them first. ` +
        "Nothing was deleted.",
    );
  }
}

export type AttachParentRefusal =
  "unknown-session" | "unknown-parent" | "is-fork" | "has-other-parent" | "cycle" | "too-deep";

/**
 * `store.attachParent` was refused; `reason` says why. Nothing was written.
 *
 * @example
 * if (AttachParentRefusedError.isInstance(error) && error.reason === "has-other-parent") keepItAlone()
 */
export class AttachParentRefusedError extends errorClass("CtxwinAttachParentRefusedError") {
  constructor(
    readonly reason: AttachParentRefusal,
    message: string,
  ) {
    super(`${message} Nothing was written.`);
  }
}
