/**
 * A setup `ctxwin eval` cannot run: a missing or malformed data file, an unknown suite or
 * strategy, a context limit too small for the suites. The message is one line for people.
 */
import { CtxwinError } from "../core/errors.js";

/**
 * @example
 * try { planItems(options) } catch (error) { if (EvalSetupError.isInstance(error)) console.error(`ctxwin eval: ${error.message}`) }
 */
export class EvalSetupError extends CtxwinError {
  static readonly errorName = "CtxwinEvalSetupError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(EvalSetupError.errorName, message, options);
  }

  static override isInstance(error: unknown): error is EvalSetupError {
    return CtxwinError.isInstance(error) && error.name === EvalSetupError.errorName;
  }
}
