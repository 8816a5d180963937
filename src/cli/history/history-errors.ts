/**
 * The one expected failure of a `ctxwin history` command: a message for the person, printed as a
 * single line on stderr with exit code 1 (never a stack trace).
 */
import { CtxwinError } from "../../core/errors.js";

/**
 * @example throw new HistoryCommandError("Unknown session 's9' in /work/project.");
 */
export class HistoryCommandError extends CtxwinError {
  constructor(message: string) {
    super("HistoryCommandError", message);
  }

  static override isInstance(error: unknown): error is HistoryCommandError {
    return CtxwinError.isInstance(error) && error.name === "HistoryCommandError";
  }
}
