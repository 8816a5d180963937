/**
 * What `ctxwin setup` writes where, for each coding CLI and scope:
 *
 * | client | scope | MCP server | SessionStart hook |
 * | --- | --- | --- | --- |
 * | claude-code | user | `~/.claude.json` `mcpServers.ctxwin` | `~/.claude/settings.json`, matcher `compact\|resume` |
 * | claude-code | project | `<project>/.mcp.json` (`--import-project <project>`) | `<project>/.claude/settings.json` |
 * | codex | user | `~/.codex/config.toml` `[mcp_servers.ctxwin]` | the same file, `[[hooks.SessionStart]]`, matcher `resume` |
 * | codex | project | `<project>/.codex/config.toml` | the same file |
 *
 * Codex starts no SessionStart hook after a compaction (its sources are startup, resume and
 * clear), so its hook covers resumed sessions only.
 */
import path from "node:path";
import type { TranscriptFormat } from "../../import/source-files.js";
import type { JsonEntries } from "./json-settings.js";
import { tomlString } from "./toml-block.js";

export type SetupScope = "user" | "project";

export const MCP_SERVER_NAME = "ctxwin";
/** Seconds a CLI gives the hook before it stops waiting. */
export const HOOK_TIMEOUT_SECONDS = 10;

export type SetupTarget =
  | { kind: "json"; file: string; entries: JsonEntries }
  | { kind: "toml"; file: string; block: string; clashes: RegExp[] };

export interface SetupContext {
  client: TranscriptFormat;
  scope: SetupScope;
  home: string;
  /** The project folder (project scope). */
  project: string;
  /** The folder whose `.ctxwin/ctxwin.db` holds the history (what `--dir` means to `ctxwin mcp`). */
  storeDirectory: string;
  /** How to run ctxwin, as words (default `npx -y ctxwin`). */
  command: readonly string[];
}

/**
 * @example setupTargets({ client: "codex", scope: "user", home: "/home/me", project: "/w", storeDirectory: "/home/me", command: ["ctxwin"] })
 */
export function setupTargets(context: SetupContext): SetupTarget[] {
  const { client, scope, home, project } = context;
  const [program = "ctxwin", ...programArgs] = context.command;
  // A project's store gets only that project's sessions, not those of every project on the machine.
  const projectOnly = scope === "project" ? ["--import-project", project] : [];
  const serverArgs = [...programArgs, "mcp", "--dir", context.storeDirectory, "--import", client, ...projectOnly];
  const hookCommand = [...context.command, "hook", "session-start", "--client", client, "--dir", context.storeDirectory].map(shellWord).join(" ");
  if (client === "claude-code") {
    const mcpServer = { name: MCP_SERVER_NAME, entry: { type: "stdio" as const, command: program, args: serverArgs } };
    const sessionStart = { matcher: "compact|resume", hooks: [{ type: "command" as const, command: hookCommand, timeout: HOOK_TIMEOUT_SECONDS }] };
    return scope === "user"
      ? [
          { kind: "json", file: path.join(home, ".claude.json"), entries: { mcpServer } },
          { kind: "json", file: path.join(home, ".claude", "settings.json"), entries: { sessionStart } },
        ]
      : [
          { kind: "json", file: path.join(project, ".mcp.json"), entries: { mcpServer } },
          { kind: "json", file: path.join(project, ".claude", "settings.json"), entries: { sessionStart } },
        ];
  }
  const block = [
    `[mcp_servers.${MCP_SERVER_NAME}]`,
    `command = ${tomlString(program)}`,
    `args = [${serverArgs.map(tomlString).join(", ")}]`,
    "",
    "[[hooks.SessionStart]]",
    `matcher = "resume"`,
    "",
    "[[hooks.SessionStart.hooks]]",
    `type = "command"`,
    `command = ${tomlString(hookCommand)}`,
    `timeout = ${HOOK_TIMEOUT_SECONDS}`,
  ].join("\n");
  const clashes = [
    new RegExp(String.raw`^\s*\[\s*mcp_servers\s*\.\s*("?)${MCP_SERVER_NAME}\1\s*[\].]`),
    new RegExp(String.raw`^\s*mcp_servers\s*(=|\.\s*${MCP_SERVER_NAME}\s*[.=])`),
    /^\s*(hooks\s*\.\s*)?SessionStart\s*=/,
    /^\s*hooks\s*=/,
  ];
  const folder = scope === "user" ? path.join(home, ".codex") : path.join(project, ".codex");
  return [{ kind: "toml", file: path.join(folder, "config.toml"), block, clashes }];
}

/** A word for a POSIX shell command line: quoted unless it is plainly safe. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
