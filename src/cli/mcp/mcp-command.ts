/**
 * `ctxwin mcp`: serves a project's history to any MCP client over stdio (stdout carries only the
 * protocol; messages for people go to stderr). Read-only: the server never writes to the store
 * (a PostgreSQL store is opened `readOnly`), unless `--import` brings in new transcript lines.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Option, type Command } from "commander";
import { CtxwinError } from "../../core/errors.js";
import { USAGE_EXIT_CODE } from "../command-line.js";
import { resolveEmbeddingModel } from "../../agent/embedding-flags.js";
import { DATABASE_URL_VARIABLE, DEFAULT_STORE_PATH, openStore, type OpenStoreOptions } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import { importFiles } from "../../import/import-files.js";
import { projectSourcePaths } from "../../import/project-sessions.js";
import { defaultSourceFolder } from "../../import/source-files.js";
import { STORE_FLAG, STORE_FLAG_HELP, isServerUrl, parseStoreFlag } from "../store-flag.js";
import { createImportFreshener, type ImportFreshener } from "./import-freshener.js";

/** An expected failure of `ctxwin mcp` before it serves: one line on stderr, exit code 1. */
export class McpCommandError extends CtxwinError {
  constructor(message: string) {
    super("McpCommandError", message);
  }

  static override isInstance(error: unknown): error is McpCommandError {
    return CtxwinError.isInstance(error) && error.name === "McpCommandError";
  }
}

export interface McpCommandOptions {
  dir?: string;
  db?: string;
  store?: string;
  memory?: string;
  memoryReadOnly?: boolean;
  workspace?: string;
  import?: string;
  importPath?: string[];
  importProject?: string;
  importInterval?: string;
  embeddingModel?: string;
  embeddingBaseUrl?: string;
}

const IMPORT_SOURCES = ["claude-code", "codex"] as const;

type ImportSource = (typeof IMPORT_SOURCES)[number];

/** The transcript format of `--import`, or what is wrong with the import options (a usage error). */
function checkImportOptions(options: McpCommandOptions): { format: ImportSource | undefined } | { problem: string } {
  const format = options.import;
  if (format === undefined) {
    if (options.importPath !== undefined) return { problem: "--import-path needs --import claude-code|codex" };
    return options.importProject === undefined ? { format } : { problem: "--import-project needs --import claude-code|codex" };
  }
  if (options.importPath !== undefined && options.importProject !== undefined) return { problem: "--import-path and --import-project cannot be combined" };
  const known = IMPORT_SOURCES.find((name) => name === format);
  if (known === undefined) return { problem: `--import must be claude-code or codex; got '${format}'` };
  const interval = Number(options.importInterval);
  if (!Number.isFinite(interval) || interval < 0 || interval > 86_400) {
    return { problem: `--import-interval must be a number of seconds from 0 to 86400; got '${options.importInterval ?? ""}'` };
  }
  return { format: known };
}

/** The database file the options name; `--db` (or a `--store` file) wins over `--dir`. */
export function storePathOf({ dir, db, store }: Pick<McpCommandOptions, "dir" | "db" | "store">): string {
  const file = db ?? store;
  return file === undefined ? path.resolve(dir ?? process.cwd(), DEFAULT_STORE_PATH) : path.resolve(file);
}

/**
 * The store the options name: a `--store` URL, else `CTXWIN_DATABASE_URL` when no file is named,
 * else the SQLite file. A server is opened read-only unless the command imports into it.
 */
function storeOptionsOfMcp(options: McpCommandOptions, { importing }: { importing: boolean }): OpenStoreOptions {
  const readOnly = importing ? {} : { readOnly: true };
  if (options.store !== undefined && isServerUrl(options.store)) return { url: options.store, ...readOnly };
  const fromEnvironment = process.env[DATABASE_URL_VARIABLE] ?? "";
  const namesFile = options.store !== undefined || options.db !== undefined || options.dir !== undefined;
  if (fromEnvironment !== "" && !namesFile) return { url: fromEnvironment, ...readOnly };
  return { path: storePathOf(options) };
}

/**
 * Adds `mcp` to a commander program.
 *
 * @example registerMcpCommand({ program: new Command("ctxwin"), version: "0.1.0" });
 */
export function registerMcpCommand({ program, version }: { program: Command; version: string }): Command {
  return program
    .command("mcp")
    .description("Serve session_history (and optionally memory) to an MCP client over stdio")
    .option("--dir <project>", "project directory whose .ctxwin/ctxwin.db is served (default: the current directory)")
    .option("--db <file>", "database file to serve (instead of <project>/.ctxwin/ctxwin.db)")
    .addOption(new Option(STORE_FLAG, `${STORE_FLAG_HELP}; a server is opened read-only unless --import`).argParser(parseStoreFlag).conflicts("db"))
    .option("--memory <root>", "also serve the memory tool over this memory root")
    .option("--memory-read-only", "memory tool: only view works")
    .option("--workspace <id>", "memory tool: the id of /memories/workspace (default: mcp)", "mcp")
    .option("--import <format>", "before answering, import new lines of claude-code or codex transcripts into the store")
    .option("--import-path <paths...>", "--import: transcript files or folders (default: ~/.claude/projects or ~/.codex/sessions)")
    .option("--import-project <folder>", "--import: only this project's sessions (Claude Code: its folder under ~/.claude/projects; Codex: sessions whose cwd is inside it)")
    .option("--import-interval <seconds>", "--import: at most one import per this many seconds (default: 5)", "5")
    .option("--embedding-model <provider:id>", "offer hybrid search with this embedding model (openai:<id>, google:<id>, or <id> with --embedding-base-url); fill vectors with `ctxwin embed`")
    .option("--embedding-base-url <url>", "an OpenAI-compatible server that embeds (Ollama, LM Studio, vLLM)")
    .action(async (options: McpCommandOptions, command: Command) => {
      const checked = checkImportOptions(options);
      if ("problem" in checked) command.error(checked.problem, { exitCode: USAGE_EXIT_CODE, code: "ctxwin.mcp.options" });
      const importFormat = "format" in checked ? checked.format : undefined;
      const storeOptions = storeOptionsOfMcp(options, { importing: importFormat !== undefined });
      const databasePath = "path" in storeOptions ? storeOptions.path : undefined;
      if (importFormat === undefined && databasePath !== undefined && !existsSync(databasePath)) {
        throw new McpCommandError(`No ctxwin history at ${databasePath}: import transcripts first (ctxwin import claude-code|codex), or pass --dir <project>, --db <file> or --store <url>.`);
      }
      // A file named directly (--db, a --store file) belongs to no project folder; a server does when --dir is given.
      const namesFile = options.db !== undefined || (options.store !== undefined && !isServerUrl(options.store));
      const inProject = !namesFile && (databasePath !== undefined || options.dir !== undefined);
      const projectDirectory = inProject ? path.resolve(options.dir ?? process.cwd()) : undefined;
      // Loaded here, not at start-up: every other ctxwin command starts without the MCP SDK.
      const { StdioLineTransport } = await import("./stdio-line-transport.js");
      const { createCtxwinMcpServer } = await import("./mcp-server.js");
      const embeddingModel = resolveEmbeddingModel({ embeddingModel: options.embeddingModel, embeddingBaseUrl: options.embeddingBaseUrl });
      const store: HistoryStore = openStore({
        ...storeOptions,
        ...(embeddingModel === undefined ? {} : { embeddings: { model: embeddingModel, onWarning: (message: string) => process.stderr.write(`ctxwin mcp: ${message}\n`) } }),
      } as OpenStoreOptions);
      let freshener: ImportFreshener | undefined;
      try {
        if (importFormat !== undefined) {
          const project = options.importProject === undefined ? undefined : path.resolve(options.importProject);
          const paths = options.importPath ?? [defaultSourceFolder(importFormat)];
          // A project's paths are listed again for every import: a new Codex session may have started in it.
          const pathsNow = async () => (project === undefined ? paths : await projectSourcePaths({ format: importFormat, project }));
          freshener = createImportFreshener({
            label: importFormat,
            run: async (progress) => importFiles({ store, format: importFormat, paths: await pathsNow(), progress }),
            minIntervalMs: Number(options.importInterval) * 1000,
          });
          freshener.startNow();
        }
        const active = freshener;
        const server = createCtxwinMcpServer({
          store,
          ...(projectDirectory === undefined ? {} : { projectDirectory }),
          ...(options.memory === undefined ? {} : { memory: { root: path.resolve(options.memory), workspaceId: options.workspace ?? "mcp", readOnly: options.memoryReadOnly === true } }),
          ...(active === undefined ? {} : { beforeCall: () => active.beforeCall() }),
          version,
        });
        const closed = new Promise<void>((resolve) => {
          process.stdin.once("end", resolve);
          process.stdin.once("close", resolve);
          server.server.onclose = resolve;
        });
        const transport = new StdioLineTransport({ report: (line) => process.stderr.write(`ctxwin mcp: ${line}\n`) });
        await server.connect(transport);
        await closed;
        await server.close();
        if (transport.failure !== undefined) throw new McpCommandError(`stopped serving: ${transport.failure.message}`);
      } finally {
        await freshener?.settle();
        await store.close();
      }
    });
}
