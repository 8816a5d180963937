/**
 * One readable line from whatever a provider package hands over as an error: an `Error`, a plain
 * object (a mid-stream `response.failed` or Anthropic SSE `error` event arrives as its parsed JSON,
 * `{type: "overloaded_error", message}` or `{error: {type, message}}`), a string, or anything else.
 * Never `[object Object]`.
 */
const MAXIMUM_DEPTH = 4;

/**
 * The message of an error of any shape.
 *
 * @example
 * providerErrorText({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }) // "Overloaded (overloaded_error)"
 * providerErrorText(new Error("socket hang up")) // "socket hang up"
 */
export function providerErrorText(error: unknown): string {
  return textOf(error, 0) ?? "unknown provider error";
}

function textOf(value: unknown, depth: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.trim().length > 0 ? value : undefined;
  if (typeof value !== "object") return String(value);
  if (depth > MAXIMUM_DEPTH) return undefined;
  const record = value as Record<string, unknown>;
  const nested = textOf(record["error"], depth + 1);
  if (nested !== undefined) return nested;
  const message =
    typeof record["message"] === "string" && record["message"].trim().length > 0 ? record["message"] : undefined;
  const kind = [record["code"], record["type"]].find(
    (field): field is string => typeof field === "string" && field !== "error" && field.length > 0,
  );
  if (message !== undefined) return kind === undefined || message.includes(kind) ? message : `${message} (${kind})`;
  if (kind !== undefined) return kind;
  if (value instanceof Error) return value.name;
  try {
    return JSON.stringify(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
