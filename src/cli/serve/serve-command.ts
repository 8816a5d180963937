/**
 * `ctxwin serve`: the local web UI. Binds to 127.0.0.1 on a free port by default and prints one
 * line with the URL and its per-start access token; `--host` binds elsewhere, with a warning. With
 * `--model` (the same flags as `ctxwin chat`) or `--demo-model` the browser can chat with the
 * session's agent; without, it is view-only. `--eval` adds a `ctxwin eval` results file to show.
 * With `--embedding-model` the store embeds its rows in the background and the search offers
 * hybrid and semantic modes (ADR 0063). SIGINT/SIGTERM stop it cleanly.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { InvalidArgumentError, type Command } from "commander";
import { createDemoModel } from "../../agent/demo/demo-model.js";
import { DEMO_MINIMUM_CONTEXT_LIMIT, demoTuning } from "../../agent/demo/demo-tuning.js";
import { resolveEmbeddingModel } from "../../agent/embedding-flags.js";
import { ModelConfigError, parseContextLimit, parseMaxRetries, parsePromptCache } from "../../agent/model-flags.js";
import { resolveProjectModel } from "../../agent/project-model.js";
import { CtxwinError, errorClass } from "../../core/errors.js";
import { workspaceChat, type ServerChat } from "../../server/server-chat.js";
import { startServer, type RunningServer } from "../../server/start-server.js";
import { openEvalSource } from "./eval-source.js";
import { STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag, storeOptionsOf } from "../store-flag.js";
import { AGENT_FLAGS } from "../agent-flags.js";

/** Context limit of the demo model when `--context-limit` is not given (as `ctxwin demo`). */
export const DEMO_CONTEXT_LIMIT = 16_000;

interface ServeFlags {
  dir?: string;
  store?: string;
  port?: number;
  host?: string;
  model?: string;
  baseUrl?: string;
  contextLimit?: string;
  demoModel?: boolean;
  workspace?: string;
  allowWrite?: boolean;
  maxRetries?: string;
  providerStore?: boolean;
  promptCache?: string;
  eval?: string;
  embeddingModel?: string;
  embeddingBaseUrl?: string;
}

/** Where the command writes, and the process it stops with; the defaults are the real ones. */
export interface ServeHost {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Calls `stop` once on SIGINT or SIGTERM. */
  onStopSignal: (stop: () => void) => void;
  setExitCode: (code: number) => void;
}

const processHost: ServeHost = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  onStopSignal: (stop) => {
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  },
  setExitCode: (code) => {
    process.exitCode = code;
  },
};

/**
 * An expected failure before the server runs (a bad folder, a port in use): one line on stderr, exit 1.
 *
 * @example throw new ServeCommandError("--dir /nope is not a directory.");
 */
export class ServeCommandError extends errorClass("CtxwinServeCommandError") {}

/**
 * Adds `serve` to a commander program.
 *
 * @example registerServeCommand({ program: new Command("ctxwin") });
 */
export function registerServeCommand({ program, host = processHost }: { program: Command; host?: ServeHost }): Command {
  return program
    .command("serve")
    .description(
      "Open the web UI: watch sessions, their windows and budget in the browser, and chat when a model is given",
    )
    .option(
      "--dir <project>",
      "project directory holding .ctxwin/ (store, memory, config.json); default: the current directory",
    )
    .option(STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag)
    .option("--port <n>", "port to listen on (default: a free port)", portNumber)
    .option("--host <address>", "address to bind (default 127.0.0.1; anything else exposes the UI to the network)")
    .option(
      "--model <model>",
      "chat with this model: openai:<id>, anthropic:<id>, google:<id>, or with --base-url the server's model id",
    )
    .option("--base-url <url>", "an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 for Ollama")
    .option(...AGENT_FLAGS.contextLimit)
    .option("--demo-model", "chat with the built-in offline scripted model (no network)")
    .option(...AGENT_FLAGS.workspace)
    .option(...AGENT_FLAGS.allowWrite)
    .option(...AGENT_FLAGS.maxRetries)
    .option(...AGENT_FLAGS.providerStore)
    .option(...AGENT_FLAGS.promptCache)
    .option("--eval <results>", "also show a ctxwin eval results file (JSON lines) on the page's Eval view")
    .option(
      "--embedding-model <provider:id>",
      "embed the history in the background and offer hybrid and semantic search (openai:<id>, google:<id>, or <id> with --embedding-base-url)",
    )
    .option(...AGENT_FLAGS.embeddingBaseUrl)
    .action(async (flags: ServeFlags) => {
      try {
        const server = await runServe({ flags, host });
        host.stdout(`ctxwin serve: ${server.url}`);
        if (!server.loopback)
          host.stderr(
            `ctxwin serve: warning: listening on ${server.host}, reachable from other machines; anyone with the URL's token can read and drive your sessions.`,
          );
        await new Promise<void>((resolve) => host.onStopSignal(resolve));
        await server.close();
      } catch (error) {
        host.stderr(`ctxwin serve: ${describeFailure(error)}`);
        host.setExitCode(1);
      }
    });
}

/**
 * Starts the server the flags describe.
 *
 * @example const server = await runServe({ flags: { dir: ".", demoModel: true } });
 */
export async function runServe({
  flags,
  host = processHost,
}: {
  flags: ServeFlags;
  host?: ServeHost;
}): Promise<RunningServer> {
  const directory = path.resolve(flags.dir ?? process.cwd());
  const workspaceRoot = path.resolve(flags.workspace ?? process.cwd());
  requireDirectory(directory, "--dir");
  requireDirectory(workspaceRoot, "--workspace");
  if (flags.demoModel === true && (flags.model !== undefined || flags.baseUrl !== undefined))
    throw new ServeCommandError("--demo-model cannot be combined with --model or --base-url.");
  const contextLimit = flags.contextLimit === undefined ? undefined : parseContextLimit(flags.contextLimit);
  const evalSource = flags.eval === undefined ? undefined : await openEvalSource({ file: flags.eval });
  const embeddingModel = resolveEmbeddingModel({
    embeddingModel: flags.embeddingModel,
    embeddingBaseUrl: flags.embeddingBaseUrl,
    env: host.env,
  });
  const chat = await chatOf({ flags, directory, workspaceRoot, contextLimit, host });
  const storeOptions = storeOptionsOf({ store: flags.store, directory });
  return startServer({
    directory,
    storeOptions:
      embeddingModel === undefined
        ? storeOptions
        : ({
            ...storeOptions,
            embeddings: {
              model: embeddingModel,
              onWarning: (message: string) => host.stderr(`ctxwin serve: ${message}`),
            },
          } as typeof storeOptions),
    host: flags.host ?? "127.0.0.1",
    port: flags.port ?? 0,
    ...(chat === undefined ? {} : { chat }),
    ...(evalSource === undefined ? {} : { eval: evalSource }),
    log: (message, error) => host.stderr(`${message} ${describeFailure(error)}`),
  });
}

async function chatOf({
  flags,
  directory,
  workspaceRoot,
  contextLimit,
  host,
}: {
  flags: ServeFlags;
  directory: string;
  workspaceRoot: string;
  contextLimit: number | undefined;
  host: ServeHost;
}): Promise<ServerChat | undefined> {
  const maxRetries = flags.maxRetries === undefined ? undefined : parseMaxRetries(flags.maxRetries);
  const cache = flags.promptCache === undefined ? undefined : parsePromptCache(flags.promptCache);
  const common = {
    workspaceRoot,
    allowWrite: flags.allowWrite === true,
    logWarning: (message: string) => host.stderr(message),
    ...(maxRetries === undefined ? {} : { maxRetries }),
    ...(flags.providerStore === true ? { providerStore: true } : {}),
    ...(cache === undefined ? {} : { cache }),
  };
  if (flags.demoModel === true) {
    if (contextLimit !== undefined && contextLimit < DEMO_MINIMUM_CONTEXT_LIMIT)
      throw new ServeCommandError(`--context-limit must be at least ${DEMO_MINIMUM_CONTEXT_LIMIT} with --demo-model.`);
    // Paced like `ctxwin demo` on a terminal, so a person sees the bar move and can interrupt.
    const model = createDemoModel({ stepDelayMilliseconds: 60, chunkDelayMilliseconds: 6 });
    return workspaceChat({
      ...common,
      model,
      label: "demo",
      demo: true,
      contextLimit: contextLimit ?? DEMO_CONTEXT_LIMIT,
      tuning: demoTuning,
    });
  }
  if (flags.model === undefined && flags.baseUrl === undefined && host.env["CTXWIN_MODEL"] === undefined)
    return undefined;
  const { resolved } = await resolveProjectModel({
    directory,
    model: flags.model,
    baseUrl: flags.baseUrl,
    contextLimit,
    env: host.env,
    onWarning: (message) => host.stderr(message),
  });
  return workspaceChat({
    ...common,
    model: resolved.model,
    label: resolved.label,
    ...(resolved.contextLimit === undefined ? {} : { contextLimit: resolved.contextLimit }),
  });
}

function requireDirectory(folder: string, flag: string): void {
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new ServeCommandError(`${flag} ${folder} is not a directory.`);
}

function portNumber(value: string): number {
  const number = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= 0 && number <= 65_535))
    throw new InvalidArgumentError("expected a port number from 0 to 65535 (0: a free port).");
  return number;
}

function describeFailure(error: unknown): string {
  if (ServeCommandError.isInstance(error) || ModelConfigError.isInstance(error) || CtxwinError.isInstance(error))
    return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EADDRINUSE")
    return "the port is already in use: pick another with --port, or leave it out for a free one.";
  if (code === "EACCES")
    return "not allowed to listen on that port (ports below 1024 need privileges): pick another with --port.";
  if (code === "EADDRNOTAVAIL") return "that --host address does not belong to this machine.";
  return error instanceof Error ? error.message : String(error);
}
