/**
 * End to end: the built `ctxwin chat` as a child process against local fakes of the hosted
 * providers' own APIs (OPENAI_BASE_URL, ANTHROPIC_BASE_URL), through their real provider packages.
 * What each provider path sends is asserted on the request bodies the fakes received.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  startAnthropicMessagesServer,
  type AnthropicMessagesServer,
} from "../../session/test-support/anthropic-messages-server.js";
import { startGeminiStreamServer, type GeminiStreamServer } from "../../session/test-support/gemini-stream-server.js";
import {
  startOpenAIResponsesServer,
  type OpenAIResponsesServer,
} from "../../session/test-support/openai-responses-server.js";
import { startChat } from "./test-support/chat-process.js";

vi.setConfig({ testTimeout: 60_000 });

let project: string;
const servers: Array<OpenAIResponsesServer | AnthropicMessagesServer | GeminiStreamServer> = [];

beforeEach(() => {
  project = mkdtempSync(path.join(os.tmpdir(), "ctxwin-chat-providers-"));
});

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  rmSync(project, { recursive: true, force: true });
});

/** What the fake provider answers to `chatTwice`, `chats` times over. */
function answers(chats = 1): Array<{ text: string }> {
  return Array.from({ length: chats }, () => [{ text: "First answer." }, { text: "Second answer." }]).flat();
}

/** A fake OpenAI Responses API answering `chats` runs of `chatTwice`, and the environment that points at it. */
async function openAI(chats = 1) {
  const server = await startOpenAIResponsesServer({ script: answers(chats) });
  servers.push(server);
  return { server, env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server.baseURL } };
}

/** A fake Anthropic Messages API answering `script`, and the environment that points at it. */
async function anthropic(script: Parameters<typeof startAnthropicMessagesServer>[0]["script"] = answers()) {
  const server = await startAnthropicMessagesServer({ script });
  servers.push(server);
  return { server, env: { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: server.baseURL } };
}

async function chatTwice({ args, env }: { args: string[]; env: Record<string, string> }): Promise<void> {
  const chat = startChat({
    args: [...args, "--dir", project, "--workspace", project, "--max-retries", "0"],
    cwd: project,
    env,
  });
  chat.send("First question.");
  await chat.waitFor(/First answer\./);
  chat.send("Second question.");
  await chat.waitFor(/Second answer\./);
  chat.end();
  const exit = await chat.exited;
  expect(exit.code, exit.stderr).toBe(0);
}

describe("ctxwin chat on hosted provider paths", () => {
  it("openai:<id> sends self-contained Responses requests (store: false, no item references) with the budget's output limit", async () => {
    const { server, env } = await openAI();
    await chatTwice({ args: ["--model", "openai:gpt-4.1"], env });
    expect(server.requests).toHaveLength(2);
    expect(server.requests.map((body) => body.store)).toEqual([false, false]);
    expect(server.requests.map((body) => body.max_output_tokens)).toEqual([8192, 8192]);
    expect(JSON.stringify(server.requests[1]!.input)).not.toContain("item_reference");
    expect(JSON.stringify(server.requests[1]!.input)).toContain("First answer.");
  });

  it("--provider-store lets OpenAI keep the responses: store: true", async () => {
    const { server, env } = await openAI();
    await chatTwice({ args: ["--model", "openai:gpt-4.1", "--provider-store"], env });
    expect(server.requests.map((body) => body.store)).toEqual([true, true]);
  });

  it("--new-context-tool offers the agent new_context beside session_history; without it the tool is absent", async () => {
    const { server, env } = await openAI(2);
    await chatTwice({ args: ["--model", "openai:gpt-4.1", "--new-context-tool"], env });
    await chatTwice({ args: ["--model", "openai:gpt-4.1"], env });
    const toolNames = server.requests.map((body) => JSON.stringify(body.tools ?? []));
    expect(
      toolNames.slice(0, 2).every((tools) => tools.includes('"new_context"') && tools.includes('"session_history"')),
    ).toBe(true);
    expect(toolNames.slice(2).some((tools) => tools.includes('"new_context"'))).toBe(false);
  });

  it("anthropic:<id> asks for the budget's output reserve as max_tokens", async () => {
    const { server, env } = await anthropic();
    await chatTwice({ args: ["--model", "anthropic:claude-sonnet-4-5"], env });
    expect(server.requests.map((body) => body.max_tokens)).toEqual([8192, 8192]);
    expect(server.requests[1]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
  });

  it("--prompt-cache 1h asks Anthropic for the hour-long cache; --prompt-cache off sends no cache_control at all", async () => {
    const { server, env } = await anthropic(answers(2));
    await chatTwice({ args: ["--model", "anthropic:claude-sonnet-4-5", "--prompt-cache", "1h"], env });
    await chatTwice({ args: ["--model", "anthropic:claude-sonnet-4-5", "--prompt-cache", "off"], env });
    const bodies = server.requests.map((body) => JSON.stringify(body));
    expect(bodies.slice(0, 2).every((body) => body.includes('"cache_control"') && body.includes('"ttl":"1h"'))).toBe(
      true,
    );
    expect(bodies.slice(2).some((body) => body.includes('"cache_control"'))).toBe(false);
  });

  it("anthropic:<id> asks again after an overloaded_error mid-answer and says so; a failure it cannot retry is one line", async () => {
    const overloaded = { type: "overloaded_error", message: "Overloaded" };
    const refusal = { type: "invalid_request_error", message: "messages: text content blocks must be non-empty" };
    const { server, env } = await anthropic([
      { text: "Partial answ", midStreamError: overloaded },
      { text: "First answer." },
      { text: "Cut", midStreamError: refusal },
    ]);
    const chat = startChat({
      args: ["--model", "anthropic:claude-sonnet-4-5", "--dir", project, "--workspace", project, "--max-retries", "1"],
      cwd: project,
      env,
    });
    chat.send("First question.");
    await chat.waitFor(/First answer\./);
    chat.send("Second question.");
    await chat.waitFor(/text content blocks/, "stderr");
    chat.end();
    const exit = await chat.exited;
    expect(exit.code, exit.stderr).toBe(0);
    expect(exit.stdout).toMatch(
      /Partial answ\n.*↻ the provider failed mid-answer \(Overloaded \(overloaded_error\)\); asking again \(retry 1\), the partial answer above is not kept.*\nFirst answer\./,
    );
    const problems = exit.stderr.split("\n").filter((line) => line.startsWith("ctxwin: "));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("messages: text content blocks must be non-empty");
    expect(exit.stderr).not.toContain("[object Object]");
    expect(server.requests).toHaveLength(3);
    // The retried request was the cut one; the next turn carries only the kept answer.
    expect(server.requests[1]!.messages).toEqual(server.requests[0]!.messages);
    expect(JSON.stringify(server.requests[2]!.messages)).not.toContain("Partial answ");
  });

  it("google:<id> goes through @ai-sdk/google with the budget's output limit as maxOutputTokens", async () => {
    const server = await startGeminiStreamServer({ script: answers() });
    servers.push(server);
    await chatTwice({
      args: ["--model", "google:gemini-2.5-flash"],
      env: { GEMINI_API_KEY: "g-test", GOOGLE_GENERATIVE_AI_BASE_URL: server.baseURL },
    });
    expect(server.requests.map((request) => request.model)).toEqual(["gemini-2.5-flash", "gemini-2.5-flash"]);
    expect(server.requests.map((request) => request.body.generationConfig?.maxOutputTokens)).toEqual([8192, 8192]);
    expect(server.requests[1]!.body.contents.map((content) => content.role)).toEqual(["user", "model", "user"]);
  });
});
