/**
 * `ctxwin mcp`: serves a project's history to any MCP client over stdio (stdout carries only the
 * protocol; messages for people go to stderr). Read-only: the server never writes to the store
 * (a PostgreSQL store is opened `readOnly`), unless `--import` brings in new transcript lines.
 * This module only defines the command; run-mcp.ts, loaded when it runs, serves.
 */
import { Option, type Command } from "commander";
import { STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag } from "../store-flag.js";

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
    .addOption(
      new Option(STORE_FLAG, `${STORE_FLAG_HELP}; a server is opened read-only unless --import`)
        .argParser(parseStoreFlag)
        .conflicts("db"),
    )
    .option("--memory <root>", "also serve the memory tool over this memory root")
    .option("--memory-read-only", "memory tool: only view works")
    .option("--workspace <id>", "memory tool: the id of /memories/workspace (default: mcp)", "mcp")
    .option(
      "--import <format>",
      "before answering, import new lines of claude-code or codex transcripts into the store",
    )
    .option(
      "--import-path <paths...>",
      "--import: transcript files or folders (default: ~/.claude/projects or ~/.codex/sessions)",
    )
    .option(
      "--import-project <folder>",
      "--import: only this project's sessions (Claude Code: its folder under ~/.claude/projects; Codex: sessions whose cwd is inside it)",
    )
    .option("--import-interval <seconds>", "--import: at most one import per this many seconds (default: 5)", "5")
    .option(
      "--embedding-model <provider:id>",
      "offer hybrid search with this embedding model (openai:<id>, google:<id>, or <id> with --embedding-base-url); fill vectors with `ctxwin embed`",
    )
    .option("--embedding-base-url <url>", "an OpenAI-compatible server that embeds (Ollama, LM Studio, vLLM)")
    .action(async (options: McpCommandOptions, command: Command) => {
      const { runMcpCommand } = await import("./run-mcp.js");
      await runMcpCommand({ options, command, version });
    });
}
