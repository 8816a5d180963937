/**
 * Whether a provider failure is worth another try: an overloaded or failing server, a rate limit,
 * a dropped connection. Used for failures that arrive after the answer began streaming, which the
 * AI SDK's own retry (before the stream) never sees. A provider package hands these over in many
 * shapes: an `APICallError` (`isRetryable`), `@ai-sdk/openai`'s plain object for `response.failed`
 * (`isRetryable`, `code`), Anthropic's SSE `error` payload (`{ type: "overloaded_error", message }`).
 */
import { isContextExceededError } from "./context-exceeded.js";

/** Error types and codes providers use for a failure that may pass. */
const transientKinds: ReadonlySet<string> = new Set([
  "overloaded_error",
  "api_error",
  "rate_limit_error",
  "timeout_error",
  "server_error",
  "rate_limit_exceeded",
  "server_is_overloaded",
  "internal_error",
  "unavailable",
  "resource_exhausted",
]);

/** Node's codes for a connection that broke or timed out. */
const networkCodes: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ECONNABORTED",
  "UND_ERR_SOCKET",
  "UND_ERR_BODY_TIMEOUT",
]);

const MAXIMUM_DEPTH = 4;

/**
 * @example
 * isTransientProviderError({ type: "overloaded_error", message: "Overloaded" }) // true
 * isTransientProviderError({ type: "invalid_request_error", message: "prompt is too long" }) // false
 */
export function isTransientProviderError(error: unknown): boolean {
  if (isContextExceededError(error)) return false;
  return transient(error, 0);
}

function transient(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null || depth > MAXIMUM_DEPTH) return false;
  const record = value as Record<string, unknown>;
  // The package's own verdict wins when it gives one.
  if (typeof record["isRetryable"] === "boolean") return record["isRetryable"];
  const status = record["statusCode"] ?? record["status"];
  if (typeof status === "number") return status === 408 || status === 409 || status === 429 || status >= 500;
  for (const field of ["type", "code"]) {
    const kind = record[field];
    if (typeof kind === "string" && (transientKinds.has(kind) || networkCodes.has(kind))) return true;
  }
  return transient(record["error"], depth + 1) || transient(record["cause"], depth + 1);
}
