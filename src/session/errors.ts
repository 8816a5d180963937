/**
 * Failures of the session engine. Expected outcomes (a budget block) are values in the send
 * result; these classes describe failures, and a failed send carries one in `error`.
 */
import { errorClass } from "../core/errors.js";
import { providerErrorText } from "./provider-error-text.js";

/**
 * The provider refused a request as too long again, after the emergency rollover already gave it
 * a fresh window. The turn stops here instead of looping.
 *
 * @example
 * if (ContextExceededError.isInstance(result.error)) console.error(result.error.message)
 */
export class ContextExceededError extends errorClass("CtxwinContextExceededError") {
  constructor(
    readonly model: string,
    options: { cause?: unknown; afterRollover: boolean },
  ) {
    super(
      options.afterRollover
        ? `The provider refused the request to ${model} as too long even in a fresh context window. ` +
            "Shorten the input, lower the system prompt or memory size, or use a model with a larger context."
        : `The provider refused the request to ${model} as too long, and the window is already fresh, ` +
            "so a rollover cannot help. Shorten the input or use a model with a larger context.",
      { cause: options.cause },
    );
  }
}

/**
 * A provider call failed (network, authentication, rate limit, ...) on every model tried.
 *
 * @example
 * if (ProviderCallError.isInstance(result.error)) console.error(result.error.cause)
 */
export class ProviderCallError extends errorClass("CtxwinProviderCallError") {
  constructor(
    readonly model: string,
    cause: unknown,
  ) {
    super(`The call to ${model} failed: ${providerErrorText(cause)}`, { cause });
  }
}

/**
 * Persisting a row failed; nothing of that write is stored, and the next `send` starts over.
 *
 * @example
 * if (SessionStoreError.isInstance(result.error)) console.error(result.error.cause)
 */
export class SessionStoreError extends errorClass("CtxwinSessionStoreError") {
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`Could not store ${operation}: ${messageOf(cause)}. Nothing of it was written; the next send retries.`, {
      cause,
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A request estimated above the hard ceiling of its model was about to be sent; it was not
 * (docs/design.md §10, invariant 3).
 *
 * @example
 * if (RequestOverCeilingError.isInstance(result.error)) console.error(result.error.estimatedTokens)
 */
export class RequestOverCeilingError extends errorClass("CtxwinRequestOverCeilingError") {
  constructor(
    readonly model: string,
    readonly estimatedTokens: number,
    readonly hardCeiling: number,
  ) {
    super(
      `The next request to ${model} is estimated at ${estimatedTokens} tokens, over its hard ceiling of ${hardCeiling}; it was not sent.`,
    );
  }
}

/**
 * A window could not be compacted (too large to summarize, or an empty summary).
 *
 * @example
 * if (CompactionError.isInstance(result.error)) console.error(result.error.message)
 */
export class CompactionError extends errorClass("CtxwinCompactionError") {}

/**
 * A send's signal aborted work that has no partial result to keep (the compaction summary a turn
 * was writing). It never reaches a caller: the send flow turns it into status `interrupted`.
 *
 * @example
 * if (SendInterruptedError.isInstance(error)) return { status: "interrupted" };
 */
export class SendInterruptedError extends errorClass("CtxwinSendInterruptedError") {
  constructor(what: string) {
    super(`The send was interrupted during ${what}.`);
  }
}
