import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { ProviderCallError } from "./errors.js";
import { providerErrorText } from "./provider-error-text.js";

describe("providerErrorText", () => {
  it.each([
    ["an Error", new Error("socket hang up"), "socket hang up"],
    [
      "Anthropic's mid-stream SSE error event",
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      "Overloaded (overloaded_error)",
    ],
    ["its inner error object", { type: "overloaded_error", message: "Overloaded" }, "Overloaded (overloaded_error)"],
    [
      "OpenAI's response.failed error",
      { code: "server_error", message: "The server had an error processing your request. Sorry about that!" },
      "The server had an error processing your request. Sorry about that! (server_error)",
    ],
    ["a nested error without a message", { error: { code: "rate_limit_exceeded" } }, "rate_limit_exceeded"],
    ["a plain string", "Bad gateway", "Bad gateway"],
    ["an object with nothing readable", { status: 500 }, '{"status":500}'],
    ["nothing at all", undefined, "unknown provider error"],
    [
      "an APICallError",
      new APICallError({
        message: "Overloaded",
        url: "http://127.0.0.1/v1/messages",
        requestBodyValues: {},
        statusCode: 529,
      }),
      "Overloaded",
    ],
  ])("reads %s", (_name, error, expected) => {
    expect(providerErrorText(error)).toBe(expected);
  });

  it("never yields [object Object] in a provider call error", () => {
    const error = new ProviderCallError("anthropic:claude-sonnet-4-5", {
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    });
    expect(error.message).toBe("The call to anthropic:claude-sonnet-4-5 failed: Overloaded (overloaded_error)");
    expect(error.message).not.toContain("[object Object]");
  });
});
