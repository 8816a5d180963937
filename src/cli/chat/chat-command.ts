/**
 * `ctxwin chat`: an interactive agent over a folder on a real provider (OpenAI, Anthropic, or any
 * OpenAI-compatible server with `--base-url`), with read-only workspace tools unless
 * `--allow-write`, the budget bar after each turn, and slash commands. A problem with the flags,
 * the key or the store is one line on stderr and exit code 1; a failed turn is one line and the
 * chat goes on.
 */
import { statSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { createWorkspaceAgent } from "../../agent/workspace-agent.js";
import { ModelConfigError, parseContextLimit, parseMaxRetries, parsePromptCache } from "../../agent/model-flags.js";
import { resolveProjectModel } from "../../agent/project-model.js";
import { CtxwinError } from "../../core/errors.js";
import { assertSessionId } from "../../core/row.js";
import { openStore, type OpenStoreOptions } from "../../store/open-store.js";
import { resolveEmbeddingModel } from "../../agent/embedding-flags.js";
import { STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag, describeStoreOptions, storeOptionsOf } from "../store-flag.js";
import type { HistoryStore } from "../../store/port.js";
import { defaultMemoryRoot } from "../../tools/memory/layout.js";
import { formatTokens } from "../terminal/budget-bar.js";
import { FAILURE_EXIT_CODE, USAGE_EXIT_CODE } from "../command-line.js";
import { ChatCommandError } from "./chat-errors.js";
import { runChatLoop, type InterruptSource } from "./chat-loop.js";
import { createChatOutput, type ChatStreams } from "./chat-output.js";
import { describeFailure } from "./describe-failure.js";
import { resumeCommand } from "./resume-command.js";
import { printTurns } from "./turn-printer.js";
import { AGENT_FLAGS } from "../agent-flags.js";

/** The flags of `ctxwin chat` as commander hands them over. */
export interface ChatFlags {
  store?: string;
  model?: string;
  baseUrl?: string;
  contextLimit?: string;
  session?: string;
  dir?: string;
  workspace?: string;
  allowWrite?: boolean;
  threshold?: string;
  maxRetries?: string;
  providerStore?: boolean;
  promptCache?: string;
  newContextTool?: boolean;
  embeddingModel?: string;
  embeddingBaseUrl?: string;
}

/** The process seams: streams, environment and Ctrl-C source. */
export interface ChatProcess {
  streams: ChatStreams;
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  terminal: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  interrupts: InterruptSource;
}

const realProcess: ChatProcess = {
  streams: process,
  input: process.stdin,
  terminal: process.stdout,
  env: process.env,
  interrupts: process,
};

/**
 * Adds `chat` to a commander program.
 *
 * @example registerChatCommand({ program: new Command("ctxwin") });
 */
export function registerChatCommand({
  program,
  host = realProcess,
}: {
  program: Command;
  host?: ChatProcess;
}): Command {
  return program
    .command("chat")
    .description(
      "Chat with an agent over a folder on a real provider; near the context limit it rolls over to a fresh window instead of summarizing",
    )
    .option(
      "--model <model>",
      "openai:<id>, anthropic:<id>, google:<id>, or with --base-url the server's model id (default: $CTXWIN_MODEL)",
    )
    .option(
      "--base-url <url>",
      "an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 for Ollama (default: $CTXWIN_BASE_URL)",
    )
    .option(...AGENT_FLAGS.contextLimit)
    .option("--session <id>", "resume this session (or start one with this id); default: a new session")
    .option(
      "--dir <project>",
      "project directory holding .ctxwin/ (store, memory, config.json); default: the current directory",
    )
    .option(STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag)
    .option(...AGENT_FLAGS.workspace)
    .option(...AGENT_FLAGS.allowWrite)
    .option(
      "--threshold <fraction>",
      "share of the context limit at which a window rolls over (default 0.7; 1 or more turns rollovers off)",
    )
    .option(...AGENT_FLAGS.maxRetries)
    .option(...AGENT_FLAGS.providerStore)
    .option(...AGENT_FLAGS.promptCache)
    .option(
      "--new-context-tool",
      "give the agent the new_context tool, with which it asks for a fresh window itself (e.g. after finishing a sub-task)",
    )
    .option(
      "--embedding-model <provider:id>",
      "embed the transcript in the background and give session_history mode 'hybrid' (openai:<id>, google:<id>, or <id> with --embedding-base-url)",
    )
    .option(...AGENT_FLAGS.embeddingBaseUrl)
    .showHelpAfterError(false)
    .action((flags: ChatFlags) => runChat({ flags, host }));
}

/**
 * Runs one chat to its end. Expected problems end it with one stderr line and exit code 1.
 *
 * @example await runChat({ flags: { model: "openai:gpt-4.1-mini" }, host: realProcess });
 */
export async function runChat({ flags, host }: { flags: ChatFlags; host: ChatProcess }): Promise<void> {
  const output = createChatOutput({ streams: host.streams, env: host.env });
  let store: HistoryStore | undefined;
  try {
    const directory = path.resolve(flags.dir ?? process.cwd());
    const workspaceRoot = path.resolve(flags.workspace ?? process.cwd());
    requireDirectory(workspaceRoot, "--workspace");
    if (flags.dir !== undefined) requireDirectory(directory, "--dir");
    const contextLimit = flags.contextLimit === undefined ? undefined : parseContextLimit(flags.contextLimit);
    const threshold = flags.threshold === undefined ? undefined : parseThreshold(flags.threshold);
    const maxRetries = flags.maxRetries === undefined ? undefined : parseMaxRetries(flags.maxRetries);
    const cache = flags.promptCache === undefined ? undefined : parsePromptCache(flags.promptCache);
    const { resolved, config } = await resolveProjectModel({
      directory,
      model: flags.model,
      baseUrl: flags.baseUrl,
      contextLimit,
      env: host.env,
      onWarning: (message) => output.problem(message),
    });
    const sessionId = flags.session ?? newSessionId();
    assertSessionId(sessionId);

    const storeOptions = storeOptionsOf({ store: flags.store, directory });
    const embeddingModel = resolveEmbeddingModel({
      embeddingModel: flags.embeddingModel,
      embeddingBaseUrl: flags.embeddingBaseUrl,
      env: host.env,
    });
    store = openStore(
      embeddingModel === undefined
        ? storeOptions
        : ({
            ...storeOptions,
            embeddings: { model: embeddingModel, onWarning: (message: string) => output.problem(message) },
          } as OpenStoreOptions),
    );
    const existing = await store.session(sessionId);
    const memoryRoot = defaultMemoryRoot({ directory });
    const session = createWorkspaceAgent({
      store,
      sessionId,
      model: resolved.model,
      workspaceRoot,
      memoryRoot,
      allowWrite: flags.allowWrite === true,
      ...(resolved.contextLimit === undefined ? {} : { contextLimit: resolved.contextLimit }),
      ...(threshold === undefined ? {} : { budget: { threshold } }),
      config,
      logWarning: (message) => output.problem(message),
      sessionOptions: {
        ...(maxRetries === undefined ? {} : { maxRetries }),
        ...(flags.providerStore === true ? { providerStore: true } : {}),
        ...(cache === undefined ? {} : { cache }),
        ...(flags.newContextTool === true ? { continuity: { newContextTool: true } } : {}),
      },
    });
    const usage = await session.usage();
    const limit =
      usage.contextLimit === undefined ? "context limit unknown" : `context ${formatTokens(usage.contextLimit)} tokens`;
    const state =
      existing === undefined
        ? "new"
        : `resumed: ${existing.windowCount} window${existing.windowCount === 1 ? "" : "s"}, ${existing.lastSeq} items`;
    host.streams.stderr.write(
      [
        `ctxwin chat · ${resolved.label} · ${limit}`,
        `session ${sessionId} (${state}) ` +
          `· workspace ${workspaceRoot} (${flags.allowWrite === true ? "read and write" : "read-only"}) ` +
          `· store ${describeStoreOptions(storeOptions, host.env)}`,
        "Type a message. /help lists the commands; Ctrl-C interrupts a turn, or ends the chat at the prompt.",
        "",
      ].join("\n"),
    );

    const stopPrinting = printTurns({ session, output });
    try {
      await runChatLoop({
        session,
        store,
        memoryRoot,
        output,
        input: host.input,
        terminal: host.terminal,
        interrupts: host.interrupts,
        describeFailure: (error) =>
          describeFailure({
            error,
            ...(resolved.baseUrl === undefined ? {} : { serverUrl: resolved.baseUrl }),
            keyVariable: resolved.keyVariable ?? "CTXWIN_API_KEY",
          }),
      });
    } finally {
      stopPrinting();
    }
    host.streams.stderr.write(`resume with: ${resumeCommand({ sessionId, flags })}\n`);
  } catch (error) {
    output.problem(messageOf(error));
    // A bad flag or missing configuration is a usage error; anything after the chat started is not.
    process.exitCode =
      ModelConfigError.isInstance(error) || ChatCommandError.isInstance(error) ? USAGE_EXIT_CODE : FAILURE_EXIT_CODE;
  } finally {
    await store?.close();
  }
}

/** `chat-20261202-164501-3f9a`: sortable by start time, unique enough per project. */
function newSessionId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `chat-${stamp}-${crypto.randomUUID().slice(0, 4)}`;
}

function parseThreshold(text: string): number {
  const value = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(value > 0) || value > 10)
    throw new ChatCommandError(
      `bad --threshold '${text}': expected a fraction of the context limit such as 0.7 (1 or more turns rollovers off).`,
    );
  return value;
}

function requireDirectory(directory: string, flag: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(directory).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (!isDirectory) throw new ChatCommandError(`${flag} ${directory} is not a directory.`);
}

function messageOf(error: unknown): string {
  if (ModelConfigError.isInstance(error) || ChatCommandError.isInstance(error) || CtxwinError.isInstance(error))
    return error.message;
  return `error: ${error instanceof Error ? error.message : String(error)}`;
}
