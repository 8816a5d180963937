/**
 * `session.edit` was refused before anything was written: the item is unknown, is not a message
 * the user typed, or lies at or behind the privacy floor.
 */
import { errorClass } from "../../core/errors.js";

export type EditRefusal = "unknown-item" | "not-user-input" | "behind-floor";

/**
 * @example
 * if (EditRefusedError.isInstance(error) && error.reason === "not-user-input") pickAnotherItem()
 */
export class EditRefusedError extends errorClass("CtxwinEditRefusedError") {
  constructor(
    readonly reason: EditRefusal,
    readonly itemId: string,
    message: string,
  ) {
    super(`${message} Nothing was written.`);
  }
}
