/**
 * A call of `createContextAgent` with `whenBusy: "refuse"` found another call of the same session
 * running (in this process): nothing was written. A route answers it with HTTP 409.
 */
import { CtxwinError } from "../../core/errors.js";

/**
 * @example
 * if (SessionBusyError.isInstance(error)) return Response.json({ error: error.message }, { status: 409 });
 */
export class SessionBusyError extends CtxwinError {
  static readonly errorName = "CtxwinSessionBusyError";
  readonly sessionId: string;

  constructor(sessionId: string) {
    super(
      SessionBusyError.errorName,
      `Refused: another call of session '${sessionId}' is running; nothing was written. Send again when its answer has finished.`,
    );
    this.sessionId = sessionId;
  }

  static override isInstance(error: unknown): error is SessionBusyError {
    return CtxwinError.isInstance(error) && error.name === SessionBusyError.errorName;
  }
}
