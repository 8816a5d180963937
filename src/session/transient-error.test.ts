import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { isTransientProviderError } from "./transient-error.js";

function apiCallError({
  statusCode,
  isRetryable,
  body = "",
}: {
  statusCode: number;
  isRetryable?: boolean;
  body?: string;
}): APICallError {
  return new APICallError({
    message: "failed",
    url: "http://127.0.0.1/v1",
    requestBodyValues: {},
    statusCode,
    responseBody: body,
    ...(isRetryable === undefined ? {} : { isRetryable }),
  });
}

describe("isTransientProviderError", () => {
  it("accepts the mid-stream failures providers send while they are overloaded or failing", () => {
    expect(isTransientProviderError({ type: "overloaded_error", message: "Overloaded" })).toBe(true);
    expect(
      isTransientProviderError({ type: "error", error: { type: "api_error", message: "Internal server error" } }),
    ).toBe(true);
    // @ai-sdk/openai's object for response.failed carries its own verdict.
    expect(
      isTransientProviderError({
        message: "The server had an error",
        code: "server_error",
        statusCode: 500,
        isRetryable: true,
      }),
    ).toBe(true);
    expect(
      isTransientProviderError({
        message: "You exceeded your current quota",
        code: "insufficient_quota",
        statusCode: 429,
        isRetryable: false,
      }),
    ).toBe(false);
    expect(isTransientProviderError(apiCallError({ statusCode: 529, isRetryable: true }))).toBe(true);
    expect(
      isTransientProviderError(Object.assign(new TypeError("terminated"), { cause: { code: "UND_ERR_SOCKET" } })),
    ).toBe(true);
  });

  it("refuses what another try cannot fix: bad requests, keys, a window that is too long", () => {
    expect(isTransientProviderError({ type: "invalid_request_error", message: "messages: roles must alternate" })).toBe(
      false,
    );
    expect(isTransientProviderError(apiCallError({ statusCode: 401 }))).toBe(false);
    expect(
      isTransientProviderError({
        message: "Your input exceeds the context window of this model.",
        code: "context_length_exceeded",
        isRetryable: true,
      }),
    ).toBe(false);
    expect(isTransientProviderError(new Error("socket hang up"))).toBe(false);
    expect(isTransientProviderError("Overloaded")).toBe(false);
    expect(isTransientProviderError(undefined)).toBe(false);
  });
});
