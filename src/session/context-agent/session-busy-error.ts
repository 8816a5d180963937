/**
 * A call of `createContextAgent` with `whenBusy: "refuse"` found another call of the same session
 * running (in this process): nothing was written. A route answers it with HTTP 409.
 */
import { errorClass } from "../../core/errors.js";

/**
 * @example
 * if (SessionBusyError.isInstance(error)) return Response.json({ error: error.message }, { status: 409 });
 */
export class SessionBusyError extends errorClass("CtxwinSessionBusyError") {
  readonly sessionId: string;

  constructor(sessionId: string) {
    super(
      `Refused: another call of session '${sessionId}' is running; nothing was written. Send again when its answer has finished.`,
    );
    this.sessionId = sessionId;
  }
}
