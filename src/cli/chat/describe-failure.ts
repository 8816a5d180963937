/**
 * One line for a failed turn: an unreachable server, a refused key, a model the server does not
 * have, or any other provider answer, found by walking the error's causes (`ProviderCallError` →
 * `RetryError` → `APICallError` → `fetch failed` → `ECONNREFUSED`). Never a stack trace.
 */
import { APICallError, RetryError } from "ai";

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
]);

/** Longest provider message quoted in the line. */
const MAX_DETAIL_CHARS = 240;

/**
 * @example
 * describeFailure({ error, serverUrl: "http://127.0.0.1:9/v1" }) // "cannot reach http://127.0.0.1:9/v1 (ECONNREFUSED)"
 */
export function describeFailure({
  error,
  serverUrl,
  keyVariable,
}: {
  error: unknown;
  /** The base URL the user gave, shown instead of the request URL. */ serverUrl?: string;
  /** Environment variable of the key, named when the provider refuses it. */ keyVariable?: string;
}): string {
  const chain = causes(error);
  const network = chain.map(networkCode).find((code) => code !== undefined);
  const call = chain.find((candidate): candidate is APICallError => APICallError.isInstance(candidate));
  const where = serverUrl ?? (call === undefined ? undefined : originOf(call.url));
  if (network !== undefined) return `cannot reach ${where ?? "the provider"} (${network})`;
  if (call !== undefined && call.statusCode === undefined && /^cannot connect/i.test(call.message)) {
    const reason =
      call.cause instanceof Error ? call.cause.message : call.message.replace(/^cannot connect to api:?\s*/i, "");
    return `cannot reach ${where ?? "the provider"} (${oneLine(reason)})`;
  }
  if (call !== undefined && call.statusCode !== undefined) {
    const detail = providerMessage(call);
    if (call.statusCode === 401 || call.statusCode === 403) {
      return (
        `the provider refused the API key (${call.statusCode}${detail === "" ? "" : `: ${detail}`})` +
        `${keyVariable === undefined ? "" : `: check ${keyVariable}`}`
      );
    }
    if (call.statusCode === 404)
      return `not found at ${where ?? "the provider"} (404${detail === "" ? "" : `: ${detail}`}): check --model and --base-url`;
    return `the provider answered ${call.statusCode}${detail === "" ? "" : `: ${detail}`}`;
  }
  return oneLine(messageOf(error));
}

/** The error and its causes, outermost first (a `RetryError` contributes its last error). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 12 && !chain.includes(current)) {
    chain.push(current);
    current = RetryError.isInstance(current) ? current.lastError : (current as { cause?: unknown }).cause;
  }
  return chain;
}

function networkCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && NETWORK_CODES.has(code) ? code : undefined;
}

function providerMessage(call: APICallError): string {
  let text = call.message;
  if (call.responseBody !== undefined) {
    try {
      const body = JSON.parse(call.responseBody) as { error?: { message?: unknown } | string; message?: unknown };
      const message = typeof body.error === "string" ? body.error : (body.error?.message ?? body.message);
      if (typeof message === "string" && message.trim() !== "") text = message;
    } catch {
      // Not JSON: the SDK's message stands.
    }
  }
  return oneLine(text);
}

function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.replace(/\/(chat\/completions|responses|messages)$/, "")}`;
  } catch {
    return url;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_DETAIL_CHARS ? `${flat.slice(0, MAX_DETAIL_CHARS)}…` : flat;
}
