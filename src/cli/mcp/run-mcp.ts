/**
 * What `ctxwin mcp` runs (mcp-command.ts defines its flags): checks the flags, answers the
 * client's handshake, then opens the store and starts `--import` freshening (issue 49: a client
 * offers the tools of a server that answered in time only).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { errorClass } from "../../core/errors.js";
import { USAGE_EXIT_CODE } from "../command-line.js";
import { DATABASE_URL_VARIABLE, DEFAULT_STORE_PATH } from "../../store/store-location.js";
import type { OpenStoreOptions } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import { defaultSourceFolder } from "../../import/source-files.js";
import { isServerUrl } from "../store-flag.js";
import type { McpCommandOptions } from "./mcp-command.js";
import type { ImportFreshener } from "./import-freshener.js";

/** An expected failure of `ctxwin mcp` before it serves: one line on stderr, exit code 1. */
export class McpCommandError extends errorClass("McpCommandError") {}

/** How long after `initialized` the store starts opening, so that `tools/list` is answered first. */
const STORE_OPEN_DELAY_MS = 50;

const IMPORT_SOURCES = ["claude-code", "codex"] as const;

type ImportSource = (typeof IMPORT_SOURCES)[number];

/** The transcript format of `--import`, or what is wrong with the import options (a usage error). */
function checkImportOptions(options: McpCommandOptions): { format: ImportSource | undefined } | { problem: string } {
  const format = options.import;
  if (format === undefined) {
    if (options.importPath !== undefined) return { problem: "--import-path needs --import claude-code|codex" };
    return options.importProject === undefined
      ? { format }
      : { problem: "--import-project needs --import claude-code|codex" };
  }
  if (options.importPath !== undefined && options.importProject !== undefined) {
    return { problem: "--import-path and --import-project cannot be combined" };
  }
  const known = IMPORT_SOURCES.find((name) => name === format);
  if (known === undefined) return { problem: `--import must be claude-code or codex; got '${format}'` };
  const interval = Number(options.importInterval);
  if (!Number.isFinite(interval) || interval < 0 || interval > 86_400) {
    return {
      problem: `--import-interval must be a number of seconds from 0 to 86400; got '${options.importInterval ?? ""}'`,
    };
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
 * Serves until the client closes stdin.
 *
 * @example await runMcpCommand({ options: { dir: "." }, command, version: "0.1.0" });
 */
export async function runMcpCommand({
  options,
  command,
  version,
}: {
  options: McpCommandOptions;
  command: Command;
  version: string;
}): Promise<void> {
  const checked = checkImportOptions(options);
  if ("problem" in checked) command.error(checked.problem, { exitCode: USAGE_EXIT_CODE, code: "ctxwin.mcp.options" });
  const importFormat = "format" in checked ? checked.format : undefined;
  const storeOptions = storeOptionsOfMcp(options, { importing: importFormat !== undefined });
  const databasePath = "path" in storeOptions ? storeOptions.path : undefined;
  if (importFormat === undefined && databasePath !== undefined && !existsSync(databasePath)) {
    throw new McpCommandError(
      `No ctxwin history at ${databasePath}: import transcripts first ` +
        "(ctxwin import claude-code|codex), or pass --dir <project>, --db <file> or --store <url>.",
    );
  }
  // A file named directly (--db, a --store file) belongs to no project folder; a server does when --dir is given.
  const namesFile = options.db !== undefined || (options.store !== undefined && !isServerUrl(options.store));
  const inProject = !namesFile && (databasePath !== undefined || options.dir !== undefined);
  const projectDirectory = inProject ? path.resolve(options.dir ?? process.cwd()) : undefined;
  // Loaded here, not at start-up: every other ctxwin command starts without the MCP SDK.
  const { StdioLineTransport } = await import("./stdio-line-transport.js");
  const { createCtxwinMcpServer } = await import("./mcp-server.js");
  const embeddingModel =
    options.embeddingModel === undefined && options.embeddingBaseUrl === undefined
      ? undefined
      : (await import("../../agent/embedding-flags.js")).resolveEmbeddingModel({
          embeddingModel: options.embeddingModel,
          embeddingBaseUrl: options.embeddingBaseUrl,
        });
  const embeddings =
    embeddingModel === undefined
      ? {}
      : {
          embeddings: {
            model: embeddingModel,
            onWarning: (message: string) => process.stderr.write(`ctxwin mcp: ${message}\n`),
          },
        };
  let opening: Promise<{ store: HistoryStore; freshener: ImportFreshener | undefined }> | undefined;
  /** The store and the freshener, loaded and started once: after the handshake, or at the first call. */
  const open = () =>
    (opening ??= (async () => {
      const { openStore } = await import("../../store/open-store.js");
      const store = openStore({ ...storeOptions, ...embeddings } as OpenStoreOptions);
      if (importFormat === undefined) return { store, freshener: undefined };
      const { importFiles } = await import("../../import/import-files.js");
      const { createImportFreshener } = await import("./import-freshener.js");
      const project = options.importProject === undefined ? undefined : path.resolve(options.importProject);
      const paths = options.importPath ?? [defaultSourceFolder(importFormat)];
      const { projectSourcePaths } = await import("../../import/project-sessions.js");
      // A project's paths are listed again for every import: a new Codex session may have started in it.
      const pathsNow = async () =>
        project === undefined ? paths : await projectSourcePaths({ format: importFormat, project });
      const freshener = createImportFreshener({
        label: importFormat,
        run: async (progress) => importFiles({ store, format: importFormat, paths: await pathsNow(), progress }),
        minIntervalMs: Number(options.importInterval) * 1000,
      });
      freshener.startNow();
      return { store, freshener };
    })());
  const server = createCtxwinMcpServer({
    store: async () => (await open()).store,
    hybrid: embeddingModel !== undefined,
    ...(projectDirectory === undefined ? {} : { projectDirectory }),
    ...(options.memory === undefined
      ? {}
      : {
          memory: {
            root: path.resolve(options.memory),
            workspaceId: options.workspace ?? "mcp",
            readOnly: options.memoryReadOnly === true,
          },
        }),
    ...(importFormat === undefined ? {} : { beforeCall: async () => (await open()).freshener?.beforeCall() }),
    version,
  });
  let openFailure: unknown;
  let stopServing = () => {};
  const closed = new Promise<void>((resolve) => {
    stopServing = resolve;
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
    server.server.onclose = resolve;
  });
  // The client lists the tools right after `initialized`: the store opens once that answer is out.
  let openTimer: NodeJS.Timeout | undefined;
  server.server.oninitialized = () => {
    openTimer = setTimeout(() => {
      open().catch((error: unknown) => {
        openFailure = error;
        stopServing();
      });
    }, STORE_OPEN_DELAY_MS);
  };
  const transport = new StdioLineTransport({ report: (line) => process.stderr.write(`ctxwin mcp: ${line}\n`) });
  try {
    await server.connect(transport);
    await closed;
    await server.close();
  } finally {
    clearTimeout(openTimer);
    const opened = await opening?.catch((error: unknown) => {
      openFailure = error;
      return undefined;
    });
    await opened?.freshener?.settle();
    await opened?.store.close();
  }
  if (openFailure !== undefined) throw openFailure;
  if (transport.failure !== undefined) throw new McpCommandError(`stopped serving: ${transport.failure.message}`);
}
