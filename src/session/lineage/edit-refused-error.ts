/**
 * `session.edit` was refused before anything was written: the item is unknown, is not a message
 * the user typed, or lies at or behind the privacy floor.
 */
import { CtxwinError } from "../../core/errors.js";

export type EditRefusal = "unknown-item" | "not-user-input" | "behind-floor";

/**
 * @example
 * if (EditRefusedError.isInstance(error) && error.reason === "not-user-input") pickAnotherItem()
 */
export class EditRefusedError extends CtxwinError {
  static readonly errorName = "CtxwinEditRefusedError";

  constructor(
    readonly reason: EditRefusal,
    readonly itemId: string,
    message: string,
  ) {
    super(EditRefusedError.errorName, `${message} Nothing was written.`);
  }

  static override isInstance(error: unknown): error is EditRefusedError {
    return CtxwinError.isInstance(error) && error.name === EditRefusedError.errorName;
  }
}
