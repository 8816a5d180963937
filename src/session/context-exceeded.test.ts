import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, RetryError, generateText, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { isContextExceededError } from "./context-exceeded.js";
import { contextLengthExceeded, startOpenAICompatibleServer } from "./test-support/openai-compatible-server.js";

function apiError({
  statusCode = 400,
  responseBody,
  message = "Bad Request",
  data,
}: {
  statusCode?: number;
  responseBody?: string;
  message?: string;
  data?: unknown;
}) {
  return new APICallError({
    message,
    url: "http://127.0.0.1/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    ...(responseBody === undefined ? {} : { responseBody }),
    ...(data === undefined ? {} : { data }),
  });
}

describe("isContextExceededError", () => {
  it.each([
    [
      "OpenAI chat completions",
      apiError({
        responseBody: JSON.stringify({
          error: {
            message:
              "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
            type: "invalid_request_error",
            param: "messages",
            code: "context_length_exceeded",
          },
        }),
      }),
    ],
    [
      "OpenAI responses API",
      apiError({
        responseBody: JSON.stringify({
          error: {
            message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
            type: "invalid_request_error",
            code: "context_length_exceeded",
          },
        }),
      }),
    ],
    [
      "Anthropic",
      apiError({
        responseBody: JSON.stringify({
          type: "error",
          error: { type: "invalid_request_error", message: "prompt is too long: 208310 tokens > 200000 maximum" },
        }),
      }),
    ],
    [
      "Anthropic input + max_tokens over the window",
      apiError({
        responseBody: JSON.stringify({
          type: "error",
          error: {
            type: "invalid_request_error",
            message:
              "input length and `max_tokens` exceed context limit: 137360 + 64000 > 200000, decrease input length or `max_tokens` and try again",
          },
        }),
      }),
    ],
    [
      "Google Gemini",
      apiError({
        responseBody: JSON.stringify({
          error: {
            code: 400,
            message: "The input token count (1205336) exceeds the maximum number of tokens allowed (1048576).",
            status: "INVALID_ARGUMENT",
          },
        }),
      }),
    ],
    [
      "Anthropic 413",
      apiError({
        statusCode: 413,
        responseBody: JSON.stringify({
          type: "error",
          error: { type: "request_too_large", message: "Request exceeds the maximum size" },
        }),
      }),
    ],
    [
      "vLLM",
      apiError({
        responseBody: JSON.stringify({
          object: "error",
          message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
          type: "BadRequestError",
          code: 400,
        }),
      }),
    ],
    [
      "llama.cpp server",
      apiError({
        responseBody: JSON.stringify({
          error: {
            code: 400,
            message: "the request exceeds the available context size, try increasing it",
            type: "exceed_context_size_error",
            n_prompt_tokens: 9000,
            n_ctx: 8192,
          },
        }),
      }),
    ],
    [
      "Mistral",
      apiError({
        responseBody: JSON.stringify({
          object: "error",
          message:
            "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length",
          type: "invalid_request_error",
        }),
      }),
    ],
    [
      "Groq",
      apiError({
        responseBody: JSON.stringify({
          error: {
            message: "Please reduce the length of the messages or completion.",
            type: "invalid_request_error",
            code: "context_length_exceeded",
          },
        }),
      }),
    ],
    ["plain-text body", apiError({ responseBody: "maximum context length exceeded" })],
    ["parsed data only", apiError({ data: { error: { code: "context_length_exceeded", message: "too long" } } })],
  ])("recognizes %s", (_name, error) => {
    expect(isContextExceededError(error)).toBe(true);
  });

  it("looks inside retry errors and causes", () => {
    const inner = apiError({ responseBody: JSON.stringify({ error: { code: "context_length_exceeded" } }) });
    expect(
      isContextExceededError(
        new RetryError({
          message: "failed after 3 attempts",
          reason: "maxRetriesExceeded",
          errors: [new Error("timeout"), inner],
        }),
      ),
    ).toBe(true);
    expect(isContextExceededError(new Error("stream failed", { cause: inner }))).toBe(true);
  });

  it.each([
    [
      "a rate limit",
      apiError({
        statusCode: 429,
        responseBody: JSON.stringify({
          error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" },
        }),
      }),
    ],
    [
      "an auth error",
      apiError({
        statusCode: 401,
        responseBody: JSON.stringify({ error: { message: "Incorrect API key provided", code: "invalid_api_key" } }),
      }),
    ],
    [
      "an output limit",
      apiError({
        responseBody: JSON.stringify({
          error: {
            message: "max_tokens is too large: 100000. This model supports at most 16384 completion tokens",
            code: "invalid_value",
          },
        }),
      }),
    ],
    ["a network error", new TypeError("fetch failed")],
    ["nothing", undefined],
  ])("does not mistake %s for it", (_name, error) => {
    expect(isContextExceededError(error)).toBe(false);
  });

  it("survives a cause cycle", () => {
    const first = new Error("a");
    const second = new Error("b", { cause: first });
    (first as { cause?: unknown }).cause = second;
    expect(isContextExceededError(first)).toBe(false);
  });

  it("recognizes what @ai-sdk/openai-compatible raises for a context_length_exceeded answer, streaming or not, and not other 400s", async () => {
    const server = await startOpenAICompatibleServer({
      script: [
        contextLengthExceeded({ limit: 4096 }),
        contextLengthExceeded({ limit: 4096 }),
        { error: { status: 400, message: "Invalid value for 'temperature'.", code: "invalid_value" } },
      ],
    });
    try {
      const model = createOpenAICompatible({ name: "local", baseURL: server.baseURL, includeUsage: true }).chatModel(
        "test-model",
      );
      let streamed: unknown;
      await streamText({ model, prompt: "long", onError: ({ error }) => void (streamed = error) }).consumeStream();
      const generated = await generateText({ model, prompt: "long" }).catch((error: unknown) => error);
      const other = await generateText({ model, prompt: "hot" }).catch((error: unknown) => error);
      expect([streamed, generated, other].map((error) => APICallError.isInstance(error))).toEqual([true, true, true]);
      expect([
        isContextExceededError(streamed),
        isContextExceededError(generated),
        isContextExceededError(other),
      ]).toEqual([true, true, false]);
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });
});
