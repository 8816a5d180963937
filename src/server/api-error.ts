/**
 * The one failure the HTTP API answers with on purpose: a status, a stable code and a message for
 * people. Anything else thrown while handling a request becomes a 500 with a generic message (the
 * details go to the server's log, never to the client).
 */
import { errorClass } from "../core/errors.js";

export type ApiErrorCode =
  | "bad-request"
  | "unauthorized"
  | "forbidden"
  | "not-found"
  | "method-not-allowed"
  | "busy"
  | "session-exists"
  | "read-only"
  | "chat-unavailable"
  | "config-invalid"
  | "payload-too-large"
  | "unsupported-media-type"
  | "eval-unreadable"
  | "internal";

/**
 * @example throw new ApiError({ status: 404, code: "not-found", message: "Unknown session 's9'." });
 */
export class ApiError extends errorClass("CtxwinApiError") {
  readonly status: number;
  readonly code: ApiErrorCode;

  constructor({
    status,
    code,
    message,
    cause,
  }: {
    status: number;
    code: ApiErrorCode;
    message: string;
    cause?: unknown;
  }) {
    super(message, { cause });
    this.status = status;
    this.code = code;
  }
}

/** @example throw badRequest("limit must be from 1 to 500."); */
export function badRequest(message: string): ApiError {
  return new ApiError({ status: 400, code: "bad-request", message });
}

/** @example throw notFound("Unknown session 's9'."); */
export function notFound(message: string): ApiError {
  return new ApiError({ status: 404, code: "not-found", message });
}
