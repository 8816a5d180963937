/**
 * A setup `ctxwin eval` cannot run: a missing or malformed data file, an unknown suite or
 * strategy, a context limit too small for the suites. The message is one line for people.
 */
import { errorClass } from "../core/errors.js";

/**
 * @example
 * try { planItems(options) } catch (error) { if (EvalSetupError.isInstance(error)) console.error(`ctxwin eval: ${error.message}`) }
 */
export class EvalSetupError extends errorClass("CtxwinEvalSetupError") {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
