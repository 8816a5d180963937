/**
 * Turns node-postgres failures into ctxwin's typed store errors: a server that cannot be reached,
 * a connection lost during a call (or a server that stopped answering it within the client-side
 * query timeout), a statement timeout. Other errors pass through unchanged.
 */
import { StoreConnectionLostError, StoreTimeoutError, StoreUnavailableError } from "../errors.js";

/** Node socket errors that mean the server is not there (or not reachable). */
const unreachableCodes = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
]);
/** Socket errors and SQLSTATEs of a connection that went away while in use. */
const lostCodes = new Set(["ECONNRESET", "EPIPE", "57P01", "57P02", "57P05"]);
/** SQLSTATEs refusing a new connection: credentials, database, starting up or shutting down, full. */
const refusedStates = new Set(["28000", "28P01", "3D000", "57P03", "53300"]);

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
};
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** node-postgres's error when `query_timeout` passed without an answer from the server. */
export const isQueryTimeout = (error: unknown): error is Error =>
  error instanceof Error && error.message === "Query read timeout";

/** Where the failure happened: opening a connection, or during a call on an open one. */
export type FailurePhase = "connect" | "call";

/**
 * @example
 * try { await pool.connect() } catch (error) { throw toStoreError(error, "connect", where) }
 */
export function toStoreError(
  error: unknown,
  phase: FailurePhase,
  where: string,
  { writing = false, queryTimeoutMs = 0 }: { writing?: boolean; queryTimeoutMs?: number } = {},
): unknown {
  const code = codeOf(error);
  const message = messageOf(error);
  const outcome = writing
    ? "The append either committed entirely or not at all; retry it with the same operationId to get its rows either way."
    : "Nothing was written; retry the call.";
  if (isQueryTimeout(error)) {
    return new StoreConnectionLostError(
      `The PostgreSQL server at ${where} did not answer within the store's query timeout (${queryTimeoutMs} ms): ` +
        `it may be stopped, frozen or overloaded. The connection was closed. ${outcome}`,
      { cause: error },
    );
  }
  if (code === "57014") {
    return new StoreTimeoutError(
      `A statement on ${where} ran past the store's statement timeout and was cancelled; nothing of the call was written. (${message})`,
      { cause: error },
    );
  }
  const unreachable =
    (code !== undefined && (unreachableCodes.has(code) || refusedStates.has(code))) ||
    /timeout expired|connection timeout/i.test(message);
  const lost =
    (code !== undefined && lostCodes.has(code)) ||
    /Connection terminated|connection closed|Client has encountered a connection error/i.test(message);
  // Any failure to open a connection (refused, TLS, credentials, a full server) means the same to
  // the caller: nothing happened, and the server is not usable as configured.
  if (phase === "connect") {
    return new StoreUnavailableError(
      `Cannot connect to the PostgreSQL server at ${where}: ${message}. Check that the server is running and the URL is right; nothing was written.`,
      {
        cause: error,
      },
    );
  }
  if (lost || unreachable) {
    return new StoreConnectionLostError(
      `The connection to the PostgreSQL server at ${where} was lost during the call: ${message}. ${outcome}`,
      { cause: error },
    );
  }
  return error;
}

/** The URL without its password, for messages. */
export function describeServer(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "the configured server";
  }
}
