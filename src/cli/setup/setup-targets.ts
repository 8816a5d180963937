/**
 * What `ctxwin setup` writes where, for each coding CLI and scope (`~/.claude` is
 * `$CLAUDE_CONFIG_DIR` when set, `~/.codex` is `$CODEX_HOME`):
 *
 * | client | scope | MCP server | hooks |
 * | --- | --- | --- | --- |
 * | claude-code | user | `~/.claude.json` `mcpServers.ctxwin` | `~/.claude/settings.json`: SessionStart (`compact\|resume`), `permissions.allow` |
 * | claude-code | project | `<project>/.mcp.json` (`--import-project <project>`) | `<project>/.claude/settings.json` |
 * | codex | user | `~/.codex/config.toml` `[mcp_servers.ctxwin]` | the same file: SessionStart `resume`, PostCompact |
 * | codex | project | `<project>/.codex/config.toml` | the same file |
 *
 * Codex starts no SessionStart hook after a compaction (its sources are startup, resume and
 * clear); its PostCompact hook runs then but cannot add context, so there the hook only imports.
 */
import path from "node:path";
import { claudeConfigFolder, claudeGlobalConfigFile, codexHome } from "../../import/client-folders.js";
import type { TranscriptFormat } from "../../import/source-files.js";
import type { JsonEntries } from "./json-settings.js";
import { tomlString, type TomlEntries } from "./toml-block.js";

export type SetupScope = "user" | "project";

export const MCP_SERVER_NAME = "ctxwin";
/** Seconds a CLI gives the hook before it stops waiting. */
export const HOOK_TIMEOUT_SECONDS = 10;
/** The MCP tool `claude -p` must be allowed to call (it is read-only). */
export const SESSION_HISTORY_TOOL = `mcp__${MCP_SERVER_NAME}__session_history`;

export type SetupTarget =
  { kind: "json"; file: string; entries: JsonEntries } | { kind: "toml"; file: string; entries: TomlEntries };

export interface SetupContext {
  client: TranscriptFormat;
  scope: SetupScope;
  home: string;
  /** The project folder (project scope). */
  project: string;
  /** The folder whose `.ctxwin/ctxwin.db` holds the history (what `--dir` means to `ctxwin mcp`). */
  storeDirectory: string;
  /** How to run ctxwin, as words. */
  command: readonly string[];
  /** Where `CLAUDE_CONFIG_DIR` and `CODEX_HOME` are read (default: this process's environment). */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * @example
 * setupTargets({ client: "codex", scope: "user", home: "/home/me", project: "/w", storeDirectory: "/home/me", command: ["ctxwin"] })
 */
export function setupTargets(context: SetupContext): SetupTarget[] {
  const { client, scope, home, project, env = process.env } = context;
  const [program = "ctxwin", ...programArgs] = context.command;
  // A project's store gets only that project's sessions, not those of every project on the machine.
  const projectOnly = scope === "project" ? ["--import-project", project] : [];
  const serverArgs = [...programArgs, "mcp", "--dir", context.storeDirectory, "--import", client, ...projectOnly];
  const hookWords = [...context.command, "hook", "session-start", "--client", client, "--dir", context.storeDirectory];
  const hookCommand = hookWords.map(shellWord).join(" ");
  if (client === "claude-code") {
    const mcpServer = { name: MCP_SERVER_NAME, entry: { type: "stdio" as const, command: program, args: serverArgs } };
    const handler = { type: "command" as const, command: hookCommand, timeout: HOOK_TIMEOUT_SECONDS };
    const sessionStart = { matcher: "compact|resume", hooks: [handler] };
    const hookEntries = { sessionStart, allowedTools: [SESSION_HISTORY_TOOL] };
    return scope === "user"
      ? [
          { kind: "json", file: claudeGlobalConfigFile({ home, env }), entries: { mcpServer } },
          { kind: "json", file: path.join(claudeConfigFolder({ home, env }), "settings.json"), entries: hookEntries },
        ]
      : [
          { kind: "json", file: path.join(project, ".mcp.json"), entries: { mcpServer } },
          { kind: "json", file: path.join(project, ".claude", "settings.json"), entries: hookEntries },
        ];
  }
  const handlerLines = [
    `type = "command"`,
    `command = ${tomlString(hookCommand)}`,
    `timeout = ${HOOK_TIMEOUT_SECONDS}`,
  ];
  const block = [
    `[mcp_servers.${MCP_SERVER_NAME}]`,
    `command = ${tomlString(program)}`,
    `args = [${serverArgs.map(tomlString).join(", ")}]`,
    "",
    "[[hooks.SessionStart]]",
    `matcher = "resume"`,
    "",
    "[[hooks.SessionStart.hooks]]",
    ...handlerLines,
    "",
    "[[hooks.PostCompact]]",
    "",
    "[[hooks.PostCompact.hooks]]",
    ...handlerLines,
  ].join("\n");
  const layout = {
    serversKey: "mcp_servers",
    serverName: MCP_SERVER_NAME,
    hookEvents: ["SessionStart", "PostCompact"],
  };
  const folder = scope === "user" ? codexHome({ home, env }) : path.join(project, ".codex");
  return [{ kind: "toml", file: path.join(folder, "config.toml"), entries: { block, layout } }];
}

/** A word for a POSIX shell command line: quoted unless it is plainly safe. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
