/**
 * The pieces of `ctxwin chat` that turn values into text: failure lines, slash command parsing,
 * tool lines, divider texts and the resume command.
 */
import { APICallError, RetryError } from "ai";
import { describe, expect, it } from "vitest";
import type { RowPart } from "../../core/row.js";
import { ProviderCallError } from "../../session/errors.js";
import { describeFailure } from "./describe-failure.js";
import { resumeCommand } from "./resume-command.js";
import { parseSlashCommand } from "./slash-commands.js";
import { retryText, rolloverText, toolLines, warningText } from "./turn-printer.js";

function callError(options: {
  statusCode?: number;
  responseBody?: string;
  message?: string;
  cause?: unknown;
}): APICallError {
  return new APICallError({
    message: options.message ?? "Bad Request",
    url: "http://127.0.0.1:8080/v1/chat/completions",
    requestBodyValues: {},
    ...options,
  });
}

describe("describeFailure", () => {
  it("names the server and the network code of a refused connection, through the session's and the SDK's wrappers", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    const fetchFailed = new TypeError("fetch failed", { cause: refused });
    const retried = new RetryError({
      message: "Failed after 3 attempts",
      reason: "maxRetriesExceeded",
      errors: [callError({ message: "Cannot connect to API: fetch failed", cause: fetchFailed })],
    });
    const error = new ProviderCallError("openai-compatible:m", retried);
    expect(describeFailure({ error, serverUrl: "http://127.0.0.1:9/v1" })).toBe(
      "cannot reach http://127.0.0.1:9/v1 (ECONNREFUSED)",
    );
    expect(describeFailure({ error })).toBe("cannot reach http://127.0.0.1:8080/v1 (ECONNREFUSED)");
  });

  it("reports a connection the client refused to open with the reason", () => {
    const error = callError({ message: "Cannot connect to API: bad port", cause: new Error("bad port") });
    expect(describeFailure({ error, serverUrl: "http://127.0.0.1:9/v1" })).toBe(
      "cannot reach http://127.0.0.1:9/v1 (bad port)",
    );
  });

  it("says which key to check when the provider refuses it, quoting the provider's message", () => {
    const error = callError({
      statusCode: 401,
      message: "Unauthorized",
      responseBody: JSON.stringify({ error: { message: "Incorrect API key provided" } }),
    });
    expect(describeFailure({ error, keyVariable: "OPENAI_API_KEY" })).toBe(
      "the provider refused the API key (401: Incorrect API key provided): check OPENAI_API_KEY",
    );
  });

  it("points at --model and --base-url on a 404, and quotes other answers", () => {
    expect(
      describeFailure({
        error: callError({ statusCode: 404, message: "Not Found" }),
        serverUrl: "http://127.0.0.1:11434/v1",
      }),
    ).toBe("not found at http://127.0.0.1:11434/v1 (404: Not Found): check --model and --base-url");
    expect(
      describeFailure({
        error: callError({ statusCode: 500, responseBody: "not json", message: "Internal\nServer Error" }),
      }),
    ).toBe("the provider answered 500: Internal Server Error");
  });

  it("falls back to the message on one line", () => {
    expect(describeFailure({ error: new Error("something\n  odd happened") })).toBe("something odd happened");
    expect(describeFailure({ error: "plain" })).toBe("plain");
  });
});

describe("parseSlashCommand", () => {
  it("reads the name and the rest of the line", () => {
    expect(parseSlashCommand("/search retry  policy ")).toEqual({ name: "search", argument: "retry  policy" });
    expect(parseSlashCommand("  /USAGE")).toEqual({ name: "usage", argument: "" });
    expect(parseSlashCommand("/clear --soft")).toEqual({ name: "clear", argument: "--soft" });
    expect(parseSlashCommand("/")).toEqual({ name: "", argument: "" });
  });

  it("leaves messages alone, including those escaped with //", () => {
    expect(parseSlashCommand("hello /usage")).toBeUndefined();
    expect(parseSlashCommand("//etc/hosts is a file")).toBeUndefined();
  });
});

describe("turn lines", () => {
  it("shows one line per tool call with its scalar arguments, and marks failures", () => {
    const parts: RowPart[] = [
      { type: "step-start" },
      { type: "text", text: "Let me look." },
      {
        type: "tool-read_file",
        toolCallId: "1",
        state: "output-available",
        input: { path: "src/x.ts", offset: null },
        output: "...",
      },
      {
        type: "tool-search_text",
        toolCallId: "2",
        state: "output-error",
        input: { query: "retry policy", limit: 5 },
        errorText: "bad\ninput",
      },
      {
        type: "dynamic-tool",
        toolName: "session_history",
        toolCallId: "3",
        state: "output-available",
        input: { action: "list_windows" },
        output: {},
      },
    ];
    expect(toolLines({ parts })).toEqual([
      "· read_file src/x.ts",
      '· search_text "retry policy" 5  (failed: bad input)',
      "· session_history list_windows",
    ]);
  });

  it("describes rollovers and warnings with their share of the limit", () => {
    expect(
      rolloverText({
        windowId: "w:57",
        reason: "on-send",
        contextTokens: 11_360,
        maxTokens: 16_000,
        flushOpportunity: true,
      }),
    ).toBe("new context window w:57 · rolled over at 71% of 16,000 tokens (on-send)");
    expect(
      rolloverText({
        windowId: "w:9",
        reason: "context-exceeded",
        contextTokens: 0,
        maxTokens: 16_000,
        flushOpportunity: false,
      }),
    ).toContain("(context-exceeded, no chance to save notes)");
    expect(warningText({ contextTokens: 9_920, maxTokens: 16_000 })).toBe(
      "budget warning at 62%: the agent is asked to save its notes",
    );
  });

  it("says a cut answer is asked again, why, and that the partial text is not kept", () => {
    const error = new Error("The call to anthropic:claude-sonnet-4-5 failed: Overloaded (overloaded_error)");
    expect(retryText({ error, retry: 2, discardedText: "Partial" })).toBe(
      "↻ the provider failed mid-answer (Overloaded (overloaded_error)); asking again (retry 2), the partial answer above is not kept",
    );
    expect(retryText({ error: new Error("socket\nclosed"), retry: 1, discardedText: "" })).toBe(
      "↻ the provider failed mid-answer (socket closed); asking again (retry 1)",
    );
  });
});

describe("resumeCommand", () => {
  it("repeats the flags that matter, quoted for a shell", () => {
    expect(
      resumeCommand({
        sessionId: "chat-1",
        flags: {
          model: "qwen3:32b",
          baseUrl: "http://127.0.0.1:11434/v1",
          contextLimit: "32k",
          allowWrite: true,
          workspace: "my project",
        },
      }),
    ).toBe(
      "ctxwin chat --session chat-1 --model qwen3:32b --base-url http://127.0.0.1:11434/v1 --context-limit 32k --workspace 'my project' --allow-write",
    );
    expect(resumeCommand({ sessionId: "chat-2", flags: { model: "openai:gpt-4.1", providerStore: true } })).toBe(
      "ctxwin chat --session chat-2 --model openai:gpt-4.1 --provider-store",
    );
    expect(
      resumeCommand({ sessionId: "chat-4", flags: { model: "anthropic:claude-sonnet-4-5", promptCache: "1h" } }),
    ).toBe("ctxwin chat --session chat-4 --model anthropic:claude-sonnet-4-5 --prompt-cache 1h");
    expect(resumeCommand({ sessionId: "chat-3", flags: { model: "openai:gpt-4.1", newContextTool: true } })).toBe(
      "ctxwin chat --session chat-3 --model openai:gpt-4.1 --new-context-tool",
    );
  });
});
