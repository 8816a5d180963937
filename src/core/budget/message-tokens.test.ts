import { describe, expect, it } from "vitest";
import {
  DEFAULT_FILE_TOKENS,
  DEFAULT_IMAGE_TOKENS,
  TOOL_PART_OVERHEAD_TOKENS,
  countMessageContent,
  countRowTokens,
} from "./message-tokens.js";
import { countEncodedTokens } from "./token-count.js";

const tokens = (text: string) => countEncodedTokens(text);

describe("countRowTokens (transcript rows)", () => {
  it("counts text and reasoning parts", () => {
    const row = {
      role: "assistant",
      parts: [
        { type: "reasoning", text: "The user wants a summary." },
        { type: "text", text: "Here is the summary." },
      ],
    };
    expect(countRowTokens(row)).toBe(tokens("The user wants a summary.\nHere is the summary."));
  });

  it("counts a tool call with its input and its result, plus framing", () => {
    const row = {
      role: "assistant",
      parts: [
        {
          type: "tool-read_file",
          toolCallId: "call-1",
          state: "output-available",
          input: { path: "src/index.ts" },
          output: { content: "export {}" },
        },
        {
          type: "dynamic-tool",
          toolName: "grep",
          toolCallId: "call-2",
          state: "output-error",
          input: { query: "x" },
          errorText: "no such file",
        },
      ],
    };
    const expected = tokens(
      ["read_file", '{"path":"src/index.ts"}', '{"content":"export {}"}', "grep", '{"query":"x"}', "no such file"].join(
        "\n",
      ),
    );
    expect(countRowTokens(row)).toBe(expected + 2 * TOOL_PART_OVERHEAD_TOKENS);
  });

  it("counts the real output of earlier session_history calls: the provider receives it", () => {
    const output = "item 12: the deploy script moved to scripts/deploy.sh";
    const row = {
      role: "assistant",
      parts: [{ type: "tool-session_history", toolCallId: "c", state: "output-available", input: {}, output }],
    };
    expect(countRowTokens(row)).toBe(tokens(["session_history", "{}", output].join("\n")) + TOOL_PART_OVERHEAD_TOKENS);
  });

  it("estimates images and binary files, and reads inline text files", () => {
    const text = "name,count\nalpha,1\n";
    const row = {
      role: "user",
      parts: [
        { type: "file", mediaType: "image/png", url: "data:image/png;base64,AAAA" },
        { type: "file", mediaType: "application/pdf", url: "https://example.com/report.pdf" },
        { type: "file", mediaType: "text/csv", url: `data:text/csv;base64,${btoa(text)}` },
      ],
    };
    expect(countRowTokens(row)).toBe(DEFAULT_IMAGE_TOKENS + DEFAULT_FILE_TOKENS + tokens(text));
    expect(countRowTokens(row, { imageTokens: 10, fileTokens: 20 })).toBe(30 + tokens(text));
  });

  it("ignores parts the provider never sees, and a stale cached count", () => {
    const row = {
      role: "assistant",
      tokens: 999_999,
      parts: [
        { type: "step-start" },
        { type: "data-progress", data: { percent: 50 } },
        { type: "source-url", sourceId: "s", url: "https://example.com" },
        { type: "text", text: "done" },
      ],
    };
    expect(countRowTokens(row)).toBe(tokens("done"));
  });

  it("never throws on odd values", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    const row = {
      role: "assistant",
      parts: [
        { type: "tool-x", toolCallId: "c", state: "output-available", input: cyclic, output: 10n },
        { type: "file", mediaType: "text/plain", url: "data:text/plain;base64,%%%not-base64" },
      ],
    };
    expect(countRowTokens(row as never)).toBeGreaterThan(0);
  });

  it("never throws on an input nested deeper than JSON.stringify can go", () => {
    const deep: unknown = JSON.parse(`${"[".repeat(200_000)}${"]".repeat(200_000)}`);
    const row = {
      role: "assistant",
      parts: [{ type: "dynamic-tool", toolName: "x", toolCallId: "c", state: "input-available", input: deep }],
    };
    expect(countRowTokens(row)).toBeGreaterThan(0);
  });
});

describe("countMessageContent (model messages)", () => {
  it("counts string content", () => {
    expect(countMessageContent({ role: "user", content: "hello world" })).toBe(2);
  });

  it("counts text, tool calls, tool results and media parts", () => {
    const assistant = {
      role: "assistant",
      content: [
        { type: "text", text: "Let me look." },
        { type: "tool-call", toolCallId: "1", toolName: "list_files", input: { directory: "src" } },
      ],
    };
    expect(countMessageContent(assistant)).toBe(
      tokens(["Let me look.", "list_files", '{"directory":"src"}'].join("\n")) + TOOL_PART_OVERHEAD_TOKENS,
    );

    const tool = {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "1",
          toolName: "list_files",
          output: { type: "json", value: ["a.ts", "b.ts"] },
        },
        { type: "tool-result", toolCallId: "2", toolName: "read", output: { type: "text", value: "plain text" } },
        {
          type: "tool-result",
          toolCallId: "3",
          toolName: "screenshot",
          output: {
            type: "content",
            value: [
              { type: "text", text: "captured" },
              { type: "media", data: "AAAA", mediaType: "image/png" },
            ],
          },
        },
      ],
    };
    const expected = tokens(
      ["list_files", '["a.ts","b.ts"]', "read", "plain text", "screenshot", "captured"].join("\n"),
    );
    expect(countMessageContent(tool)).toBe(expected + 3 * TOOL_PART_OVERHEAD_TOKENS + DEFAULT_IMAGE_TOKENS);

    const user = {
      role: "user",
      content: [
        { type: "image", image: "AAAA" },
        { type: "file", mediaType: "text/plain", data: new TextEncoder().encode("notes") },
      ],
    };
    expect(countMessageContent(user)).toBe(DEFAULT_IMAGE_TOKENS + tokens("notes"));
  });

  it("counts in the requested encoding", () => {
    const message = { role: "user", content: "გამარჯობა! როგორ ხართ დღეს? 🇬🇪" };
    expect(countMessageContent(message, { encoding: "cl100k_base" })).toBe(55);
    expect(countMessageContent(message, { encoding: "o200k_base" })).toBe(13);
  });
});
