/**
 * Recognizes a provider's "the request is too long for this model" refusal, whatever the
 * provider: OpenAI (`context_length_exceeded`), Anthropic (`prompt is too long`, `input length and
 * max_tokens exceed context limit`, 413
 * `request_too_large`), and OpenAI-compatible servers (vLLM, llama.cpp, Mistral, Groq, DeepSeek,
 * Together, ...), which reach the SDK as an `APICallError` with a status and a response body.
 */
import { APICallError, RetryError } from "ai";

const codes: ReadonlySet<string> = new Set([
  "context_length_exceeded",
  "exceed_context_size_error",
  "request_too_large",
  "string_above_max_length",
]);

const messagePatterns: readonly RegExp[] = [
  /maximum context length/i,
  /context[_ ]length[_ ]exceeded/i,
  /prompt is too long/i,
  /input length and `?max_tokens`? exceed context limit/i,
  /input is too long/i,
  /exceeds? (?:the )?(?:available |model'?s? )?context (?:size|window|length)/i,
  /too large for model with \d+ maximum context length/i,
  /input token count.*exceeds the maximum/i,
  /reduce the length of the messages/i,
  /tokens \+ `?max_new_tokens`? must be <=/i,
  /request (?:exceeds|is larger than) the maximum allowed number of bytes/i,
];

/**
 * Whether an error from a model call means "too many input tokens". Looks through `cause`
 * chains and the attempts of a `RetryError`.
 *
 * @example
 * if (isContextExceededError(error)) await emergencyRollover()
 */
export function isContextExceededError(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const candidate = pending.pop();
    if (candidate === undefined || candidate === null || seen.has(candidate)) continue;
    seen.add(candidate);
    if (matches(candidate)) return true;
    if (RetryError.isInstance(candidate)) pending.push(...candidate.errors, candidate.lastError);
    if (typeof candidate === "object" && "cause" in candidate) pending.push((candidate as { cause?: unknown }).cause);
  }
  return false;
}

function matches(candidate: unknown): boolean {
  if (typeof candidate === "string") return textMatches(candidate);
  if (typeof candidate !== "object") return false;
  if (APICallError.isInstance(candidate)) {
    if (candidate.statusCode === 413) return true;
    if (candidate.responseBody !== undefined && bodyMatches(candidate.responseBody)) return true;
    if (candidate.data !== undefined && structuredMatches(candidate.data)) return true;
  }
  const record = candidate as { message?: unknown; code?: unknown; type?: unknown };
  if (typeof record.code === "string" && codes.has(record.code)) return true;
  if (typeof record.type === "string" && codes.has(record.type)) return true;
  return typeof record.message === "string" && textMatches(record.message);
}

function bodyMatches(body: string): boolean {
  try {
    if (structuredMatches(JSON.parse(body))) return true;
  } catch {
    // Not JSON: some servers answer with plain text.
  }
  return textMatches(body);
}

/** Provider error bodies: `{error: {code, type, message}}` (OpenAI and compatible), `{type: "error", error: {type, message}}` (Anthropic). */
function structuredMatches(value: unknown, depth = 0): boolean {
  if (depth > 4 || typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  for (const key of ["code", "type"]) {
    const field = record[key];
    if (typeof field === "string" && codes.has(field)) return true;
  }
  if (typeof record["message"] === "string" && textMatches(record["message"])) return true;
  return structuredMatches(record["error"], depth + 1);
}

function textMatches(text: string): boolean {
  return messagePatterns.some((pattern) => pattern.test(text));
}
