/**
 * `ctxwin mcp`: serves a project's history to any MCP client over stdio (stdout carries only the
 * protocol; messages for people go to stderr). Read-only: the server never writes to the store.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { CtxwinError } from "../../core/errors.js";
import { DEFAULT_STORE_PATH, openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";

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
  memory?: string;
  memoryReadOnly?: boolean;
  workspace?: string;
}

/** The database file the options name; `--db` wins over `--dir`. */
export function storePathOf({ dir, db }: Pick<McpCommandOptions, "dir" | "db">): string {
  return db === undefined ? path.resolve(dir ?? process.cwd(), DEFAULT_STORE_PATH) : path.resolve(db);
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
    .option("--memory <root>", "also serve the memory tool over this memory root")
    .option("--memory-read-only", "memory tool: only view works")
    .option("--workspace <id>", "memory tool: the id of /memories/workspace (default: mcp)", "mcp")
    .action(async (options: McpCommandOptions) => {
      const databasePath = storePathOf(options);
      if (!existsSync(databasePath)) {
        throw new McpCommandError(`No ctxwin history at ${databasePath}: import transcripts first (ctxwin import claude-code|codex), or pass --dir <project> or --db <file>.`);
      }
      const projectDirectory = options.db === undefined ? path.resolve(options.dir ?? process.cwd()) : undefined;
      // Loaded here, not at start-up: every other ctxwin command starts without the MCP SDK.
      const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
      const { createCtxwinMcpServer } = await import("./mcp-server.js");
      const store: HistoryStore = openStore({ path: databasePath });
      try {
        const server = createCtxwinMcpServer({
          store,
          ...(projectDirectory === undefined ? {} : { projectDirectory }),
          ...(options.memory === undefined ? {} : { memory: { root: path.resolve(options.memory), workspaceId: options.workspace ?? "mcp", readOnly: options.memoryReadOnly === true } }),
          version,
        });
        const closed = new Promise<void>((resolve) => {
          process.stdin.once("end", resolve);
          process.stdin.once("close", resolve);
          server.server.onclose = resolve;
        });
        await server.connect(new StdioServerTransport());
        await closed;
        await server.close();
      } finally {
        await store.close();
      }
    });
}
