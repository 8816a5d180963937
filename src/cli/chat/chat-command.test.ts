/**
 * End to end: the built `ctxwin chat` as a child process, driven through stdin, against a scripted
 * OpenAI-compatible streaming server on 127.0.0.1 through the real `@ai-sdk/openai-compatible`
 * provider. What the model received is asserted on the request bodies the server got. The
 * command-line refusals run through the same command tree in this process.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  startOpenAICompatibleServer,
  textOf,
  type ChatMessage,
  type OpenAICompatibleServer,
  type ReceivedRequest,
  type ScriptedServerResponse,
} from "../../session/test-support/openai-compatible-server.js";
import { runCtxwinInProcess } from "../test-support/run-ctxwin-in-process.js";
import { startChat, type ChatExit } from "./test-support/chat-process.js";

vi.setConfig({ testTimeout: 60_000 });

let project: string;
let workspace: string;
let server: OpenAICompatibleServer | undefined;

/** The chat's flags for the local server: model, base URL, limit, store and workspace folders. */
function localFlags({
  contextLimit = "32000",
  extra = [],
}: { contextLimit?: string; extra?: string[] } = {}): string[] {
  if (server === undefined) throw new Error("start the server first");
  return [
    "--model",
    "local-model",
    "--base-url",
    server.baseURL,
    "--context-limit",
    contextLimit,
    "--dir",
    project,
    "--workspace",
    workspace,
    ...extra,
  ];
}

function lastMessage(request: ReceivedRequest): ChatMessage {
  const last = request.body.messages.at(-1);
  if (last === undefined) throw new Error("a request without messages");
  return last;
}

/** Every message text of a request. */
function sentTexts(request: ReceivedRequest): string[] {
  return request.body.messages.map((message) => textOf(message));
}

/** The scripted assistant: reads docs/plan.md when asked for the code name, answers from the tool result, echoes anything else. */
function assistant(request: ReceivedRequest): ScriptedServerResponse {
  const last = lastMessage(request);
  const text = textOf(last);
  if (last.role === "tool")
    return { text: text.includes("ORCHID-7") ? "The code name is ORCHID-7." : "The plan does not say." };
  if (warnedWithoutNotes(request)) {
    return {
      toolCalls: [
        {
          name: "memory",
          arguments: {
            command: "create",
            path: "/memories/workspace/context-notes.md",
            file_text: "- release code name: ORCHID-7\n",
          },
        },
      ],
    };
  }
  if (text.includes("code name")) return { toolCalls: [{ name: "read_file", arguments: { path: "docs/plan.md" } }] };
  return { text: `You said: ${text.slice(0, 40)}` };
}

/** The request carries the budget warning and the agent has not written its notes yet. */
function warnedWithoutNotes(request: ReceivedRequest): boolean {
  const messages = request.body.messages;
  const warning = messages.findIndex(
    (message) => message.role === "user" && textOf(message).startsWith("[Context budget]"),
  );
  return (
    warning >= 0 &&
    !messages
      .slice(warning)
      .some((message) => (message.tool_calls ?? []).some((call) => call.function.name === "memory"))
  );
}

function expectCleanExit(exit: ChatExit): void {
  expect(exit.code, exit.stderr).toBe(0);
  expect(exit.stderr).not.toMatch(/\n\s+at /);
}

describe("ctxwin chat against a local OpenAI-compatible server", () => {
  beforeEach(() => {
    project = mkdtempSync(path.join(os.tmpdir(), "ctxwin-chat-"));
    workspace = path.join(project, "workspace");
    mkdirSync(path.join(workspace, "docs"), { recursive: true });
    writeFileSync(path.join(workspace, "docs", "plan.md"), "# Plan\nThe code name of the release is ORCHID-7.\n");
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(project, { recursive: true, force: true });
  });

  it("answers through a tool call, and runs /usage, /windows, /search, /notes, /compact and /clear --soft", async () => {
    server = await startOpenAICompatibleServer({ script: assistant });
    const chat = startChat({ args: localFlags({ extra: ["--session", "s1"] }), cwd: project });
    for (const line of [
      "What is the code name?",
      "/usage",
      "/windows",
      "/search orchid",
      "/notes",
      "/compact",
      "/clear",
      "/clear --soft",
      "/search orchid",
      "/exit",
      "never sent",
    ]) {
      chat.send(line);
    }
    const exit = await chat.exited;
    expectCleanExit(exit);

    // The tool ran on the real workspace and its result went back to the model; /compact asked for a summary.
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]?.body.tools).toEqual(
      expect.arrayContaining([expect.objectContaining({ function: expect.objectContaining({ name: "read_file" }) })]),
    );
    expect(lastMessage(server.requests[1]!)).toMatchObject({ role: "tool" });
    expect(textOf(lastMessage(server.requests[1]!))).toContain("ORCHID-7");

    const lines = exit.stdout.split("\n");
    expect(lines).toContain("> What is the code name?");
    expect(lines).toContain("· read_file docs/plan.md");
    expect(lines).toContain("The code name is ORCHID-7.");
    // The budget bar after the turn and for /usage.
    expect(exit.stdout).toMatch(
      /^\[[█░│]+\] [\d,]+ \/ 32,000 tokens · \d+% · rolls over at 70% \(~[\d,]+ tokens left\)$/m,
    );
    expect(exit.stdout).toMatch(
      /^window w:0 · [\d,]+ tokens in context · limit 32,000 · rolls over at 22,400 · hard ceiling 24,000$/m,
    );
    // /windows lists the one window; /search finds the answer (newest first) before the clear, nothing after it.
    expect(exit.stdout).toMatch(/^1\. w:0 {2}start {2}3 items {2}#1\.\.#3 {2}\[active\]/m);
    const [beforeClear, afterClear] = exit.stdout.split("/clear --soft");
    expect(beforeClear).toMatch(/> \/search orchid\n── w:0 ──\n#\d+ {2}assistant {2}.*ORCHID-7/);
    expect(beforeClear).toContain("No notes yet");
    expect(beforeClear).toMatch(/^──── new context window w:4 · compacted \(summary of w:0\) ─+$/m);
    expect(textOf(lastMessage(server.requests[2]!))).toMatch(/^Write a summary of the conversation/);
    expect(afterClear).toMatch(/^──── new context window w:5 · cleared/m);
    expect(afterClear).toMatch(/> \/search orchid\nNo matches\./);
    // Plain /clear is refused with a hint; /exit ends the chat before the next line.
    expect(exit.stderr).toMatch(/^ctxwin: \/clear needs --soft/m);
    expect(exit.stdout).not.toContain("never sent");
    expect(exit.stderr).toMatch(/^session s1 \(new\)/m);
    expect(exit.stderr).toContain(
      `resume with: ctxwin chat --session s1 --model local-model --base-url ${server.baseURL} --context-limit 32000`,
    );
  });

  it("resumes a session with --session: the server receives the earlier turns", async () => {
    server = await startOpenAICompatibleServer({ script: assistant });
    const first = startChat({ args: localFlags({ extra: ["--session", "resumable"] }), cwd: project });
    first.send("Remember the word PELICAN.");
    first.end();
    expectCleanExit(await first.exited);

    const second = startChat({ args: localFlags({ extra: ["--session", "resumable"] }), cwd: project });
    second.send("Which word did I ask you to remember?");
    second.end();
    const exit = await second.exited;
    expectCleanExit(exit);
    expect(exit.stderr).toMatch(/^session resumable \(resumed: 1 window, 2 items\)/m);
    const texts = sentTexts(server.requests[1]!);
    expect(texts).toEqual(
      expect.arrayContaining([
        "Remember the word PELICAN.",
        "You said: Remember the word PELICAN.",
        "Which word did I ask you to remember?",
      ]),
    );
  });

  it("shows a budget warning and a rollover as divider lines, and /notes prints the notes the agent saved", async () => {
    server = await startOpenAICompatibleServer({ script: assistant });
    // 16,000 tokens at threshold 0.5: warnings from 6,400, rollover on send from 8,000, hard ceiling 12,000.
    const chat = startChat({
      args: localFlags({ contextLimit: "16000", extra: ["--threshold", "0.5"] }),
      cwd: project,
    });
    // About 3,000, 1,800 and 3,000 tokens over a fresh window of about 2,300: the second message goes out in the
    // warning band (with the warning in front of it), the third would cross the threshold and rolls over first.
    const filler = (label: string, repeats: number) => `${label} ${"lorem ipsum dolor sit amet ".repeat(repeats)}`;
    for (const line of [filler("first", 450), filler("second", 270), "/notes", filler("third", 450), "/windows"])
      chat.send(line);
    chat.end();
    const exit = await chat.exited;
    expectCleanExit(exit);
    const stdout = exit.stdout;
    const warning = stdout.search(/^──── budget warning at \d+%: the agent is asked to save its notes ─+$/m);
    const rollover = stdout.search(
      /^──── new context window w:\d+ · rolled over at \d+% of 16,000 tokens \(on-send\) ─+$/m,
    );
    expect(warning, stdout).toBeGreaterThan(0);
    expect(rollover, stdout).toBeGreaterThan(warning);
    expect(stdout).toContain("· memory create /memories/workspace/context-notes.md");
    expect(stdout.slice(warning, rollover)).toMatch(
      /> \/notes\n.*context-notes\.md.*\n- release code name: ORCHID-7\n/,
    );
    // The request after the rollover carries none of the earlier window's messages.
    const afterRollover = server.requests.find((request) =>
      sentTexts(request).some((text) => text.startsWith("third")),
    );
    expect(sentTexts(afterRollover!).some((text) => text.startsWith("first") || text.startsWith("second"))).toBe(false);
    expect(stdout).toMatch(/^1\. w:0 {2}start .*\n(?:.*\n)*?2\. w:\d+ {2}rollover \(on-send\) .*\[active\]/m);
  });

  it("interrupts a streaming turn on SIGINT, keeps the session usable, and ends at end of input", async () => {
    const long = `Counting: ${Array.from({ length: 300 }, (_, index) => index).join(" ")}.`;
    server = await startOpenAICompatibleServer({
      script: (request) => (request.index === 0 ? { text: long } : { text: "Second answer." }),
      chunkSize: 8,
      chunkDelayMs: 25,
    });
    const chat = startChat({ args: localFlags(), cwd: project });
    chat.send("Count for me.");
    await chat.waitFor(/Counting: 0 1/);
    chat.kill("SIGINT");
    await chat.waitFor(/^\(interrupted\)$/m);
    chat.send("And now?");
    await chat.waitFor(/^Second answer\.$/m);
    chat.end();
    const exit = await chat.exited;
    expectCleanExit(exit);
    expect(exit.stdout).not.toContain(long);
    // The partial answer was stored and sent back with the next message.
    expect(server.requests).toHaveLength(2);
    const sent = sentTexts(server.requests[1]!);
    expect(sent.at(-1)).toBe("And now?");
    expect(sent.some((text) => text.startsWith("Counting: 0 1") && text.length < long.length)).toBe(true);
  });

  it("ends cleanly on SIGINT at the idle prompt", async () => {
    server = await startOpenAICompatibleServer({ script: assistant });
    const chat = startChat({ args: localFlags({ extra: ["--session", "idle"] }), cwd: project });
    chat.send("hello");
    await chat.waitFor(/^\[.*tokens/m);
    chat.kill("SIGINT");
    const exit = await chat.exited;
    expectCleanExit(exit);
    expect(exit.stderr).toContain("resume with: ctxwin chat --session idle");
  });

  it("reports a refused key and a message too large for any window in one line each, and goes on", async () => {
    server = await startOpenAICompatibleServer({
      script: (request) =>
        request.index === 0
          ? {
              error: {
                status: 401,
                message: "Invalid API key.",
                type: "invalid_request_error",
                code: "invalid_api_key",
              },
            }
          : assistant(request),
    });
    // 8,000 tokens: hard ceiling 6,000, so a message of about 6,000 tokens never fits.
    const chat = startChat({ args: localFlags({ contextLimit: "8000" }), cwd: project });
    for (const line of ["hello", `huge ${"lorem ipsum dolor sit amet ".repeat(900)}`, "still there?"]) chat.send(line);
    chat.end();
    const exit = await chat.exited;
    expectCleanExit(exit);
    const problems = exit.stderr.split("\n").filter((line) => line.startsWith("ctxwin: "));
    expect(problems).toEqual([
      "ctxwin: the provider refused the API key (401: Invalid API key.): check CTXWIN_API_KEY",
      expect.stringMatching(/^ctxwin: blocked: .+/),
    ]);
    expect(exit.stdout).toMatch(/^You said: still there\?$/m);
    expect(server.requests).toHaveLength(2);
  });

  it("reports an unreachable server in one line and goes on", async () => {
    const closedPort = await unusedPort();
    const baseUrl = `http://127.0.0.1:${closedPort}/v1`;
    // --max-retries 0: reported at once instead of after the AI SDK's two retries with backoff.
    const chat = startChat({
      args: [
        "--model",
        "local-model",
        "--base-url",
        baseUrl,
        "--context-limit",
        "32000",
        "--max-retries",
        "0",
        "--dir",
        project,
        "--workspace",
        workspace,
      ],
      cwd: project,
    });
    chat.send("hello?");
    chat.send("/usage");
    chat.end();
    const exit = await chat.exited;
    expectCleanExit(exit);
    expect(exit.stderr).toMatch(
      new RegExp(`^ctxwin: cannot reach ${baseUrl.replace(/[./]/g, "\\$&")} \\(ECONNREFUSED\\)$`, "m"),
    );
    expect(exit.stdout).toMatch(/> \/usage\n\[.*\n^window w:0/m);
  });
});

describe("ctxwin chat refusals", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), "ctxwin-chat-refusals-"));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  /** A chat on OpenAI (with a key in the environment) and these flags. */
  const onOpenAI = (...flags: string[]) => ({
    args: ["--model", "openai:gpt-4.1-mini", ...flags],
    env: { OPENAI_API_KEY: "sk-test" },
  });
  const refusals: Array<{ name: string; args: string[]; env?: Record<string, string>; message: RegExp }> = [
    { name: "an unknown flag", ...onOpenAI("--bogus"), message: /unknown option '--bogus'/ },
    {
      name: "a bad --context-limit",
      args: ["--model", "m", "--base-url", "http://127.0.0.1:1/v1", "--context-limit", "lots"],
      message: /^ctxwin: bad --context-limit 'lots'/,
    },
    { name: "a bad --threshold", ...onOpenAI("--threshold", "high"), message: /^ctxwin: bad --threshold 'high'/ },
    { name: "a bad --max-retries", ...onOpenAI("--max-retries", "-1"), message: /^ctxwin: bad --max-retries '-1'/ },
    { name: "no model", args: [], message: /^ctxwin: no model given: pass --model/ },
    {
      name: "a missing OPENAI_API_KEY",
      args: ["--model", "openai:gpt-4.1-mini"],
      message: /^ctxwin: no API key: set OPENAI_API_KEY/,
    },
    {
      name: "an unknown provider",
      args: ["--model", "mistral:7b"],
      message: /^ctxwin: unknown provider 'mistral'.*openai:<model> or anthropic:<model>/,
    },
    {
      name: "an unknown model without --context-limit",
      args: ["--model", "qwen3:32b", "--base-url", "http://127.0.0.1:11434/v1"],
      message:
        /^ctxwin: the context limit of qwen3:32b @ http:\/\/127\.0\.0\.1:11434\/v1 is unknown: pass --context-limit <tokens>/,
    },
    {
      name: "a bad --base-url",
      args: ["--model", "m", "--base-url", "localhost 11434", "--context-limit", "8k"],
      message: /^ctxwin: bad --base-url 'localhost 11434'/,
    },
    {
      name: "a missing workspace",
      ...onOpenAI("--workspace", "no-such-folder"),
      message: /^ctxwin: --workspace .*no-such-folder is not a directory\./,
    },
  ];
  for (const refusal of refusals) {
    // In this process (run-ctxwin-in-process.ts): a refusal comes before the chat reads its input.
    it(`refuses ${refusal.name} in one line with exit code 2 (usage)`, async () => {
      const exit = await runCtxwinInProcess(["chat", ...refusal.args], { cwd: folder, env: refusal.env ?? {} });
      expect(exit.status).toBe(2);
      expect(exit.stdout).toBe("");
      expect(exit.stderr).toMatch(refusal.message);
      expect(exit.stderr.trimEnd().split("\n")).toHaveLength(1);
    });
  }
});

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function unusedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve, reject) =>
    probe.close((error) => (error === undefined ? resolve() : reject(error))),
  );
  return port;
}
