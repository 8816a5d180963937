/**
 * Reading and writing HTTP bodies: JSON answers with the safety headers every response carries,
 * JSON errors, and request bodies read with a size cap.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "./api-error.js";
import { StoreReadOnlyError } from "../store/errors.js";
import { jsonNestsDeeperThan } from "../core/json-nesting.js";
import { MAX_ROW_NESTING } from "../core/row.js";

/** Largest request body accepted (the contract's 1 MB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Headers on every response: no sniffing, no framing, no referrer, a strict CSP, no caching of API data. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Content-Security-Policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

/**
 * @example sendJson({ response, status: 200, body: { ok: true } });
 */
export function sendJson({
  response,
  status = 200,
  body,
}: {
  response: ServerResponse;
  status?: number;
  body: unknown;
}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
  });
  response.end(text);
}

/**
 * Answers `{ error: { code, message } }`. Errors that are not ApiErrors are logged and answered
 * with a generic 500: no stack trace or internal message reaches the client.
 *
 * @example sendError({ response, error, log: console.error });
 */
export function sendError({
  response,
  error,
  log,
}: {
  response: ServerResponse;
  error: unknown;
  log: (message: string, error: unknown) => void;
}): void {
  const known = ApiError.isInstance(error) ? error : StoreReadOnlyError.isInstance(error) ? readOnly(error) : undefined;
  if (known === undefined) log("ctxwin serve: a request failed:", error);
  const status = known?.status ?? 500;
  const body = {
    error: {
      code: known?.code ?? "internal",
      message: known?.message ?? "The server could not complete the request; see the server's output for details.",
    },
  };
  if (response.headersSent) {
    response.destroy();
    return;
  }
  // A refused body may still be arriving: close the connection after the answer.
  if (status === 413) response.setHeader("Connection", "close");
  sendJson({ response, status, body });
}

/** A write refused because the store is served read-only: the client's answer, not a server fault. */
function readOnly(error: StoreReadOnlyError): ApiError {
  return new ApiError({ status: 409, code: "read-only", message: error.message, cause: error });
}

/**
 * Reads a JSON request body: empty body → `undefined`; a body needs `Content-Type:
 * application/json`, at most `maxBytes`, valid JSON, and at most `MAX_ROW_NESTING` (512) levels of
 * arrays and objects.
 *
 * @example const body = await readJsonBody({ request });
 */
export async function readJsonBody({
  request,
  maxBytes = MAX_BODY_BYTES,
}: {
  request: IncomingMessage;
  maxBytes?: number;
}): Promise<unknown> {
  const declared = Number(request.headers["content-length"] ?? "0");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readCapped({ request, maxBytes });
  if (bytes.length === 0) return undefined;
  const contentType = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/json") {
    throw new ApiError({
      status: 415,
      code: "unsupported-media-type",
      message: "Request bodies must be JSON with Content-Type: application/json.",
    });
  }
  const text = bytes.toString("utf8");
  // Checked on the text: nothing walks a value nested deeper (a walk would overflow the stack).
  if (jsonNestsDeeperThan(text, MAX_ROW_NESTING)) {
    const message = `The request body nests arrays and objects more than ${MAX_ROW_NESTING} levels deep; the limit is ${MAX_ROW_NESTING}, as for stored rows.`;
    throw new ApiError({ status: 400, code: "bad-request", message });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError({ status: 400, code: "bad-request", message: "The request body is not valid JSON." });
  }
}

/**
 * The body's bytes, refused past `maxBytes`. Reading stops at the cap without destroying the
 * socket, so the 413 answer still reaches the client (the connection is closed after it).
 */
function readCapped({ request, maxBytes }: { request: IncomingMessage; maxBytes: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const cleanup = () => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        cleanup();
        request.pause();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
  });
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError({
    status: 413,
    code: "payload-too-large",
    message: `The request body is larger than ${maxBytes} bytes.`,
  });
}
