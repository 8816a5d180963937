/**
 * Where Claude Code and Codex keep their settings and transcripts, as the CLIs themselves decide:
 * `CLAUDE_CONFIG_DIR` replaces `~/.claude` (and holds `.claude.json` then), `CODEX_HOME` replaces
 * `~/.codex`. A relative value is taken from the current folder, as the CLIs do.
 */
import os from "node:os";
import path from "node:path";

export interface ClientFolderOptions {
  home?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Claude Code's folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
 *
 * @example claudeConfigFolder({ home: "/home/me", env: {} }) // "/home/me/.claude"
 */
export function claudeConfigFolder({ home = os.homedir(), env = process.env }: ClientFolderOptions = {}): string {
  const folder = env["CLAUDE_CONFIG_DIR"];
  return folder === undefined || folder === "" ? path.join(home, ".claude") : path.resolve(folder);
}

/**
 * Claude Code's global config (user-scope MCP servers): `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`.
 *
 * @example claudeGlobalConfigFile({ home: "/home/me", env: { CLAUDE_CONFIG_DIR: "/cfg" } }) // "/cfg/.claude.json"
 */
export function claudeGlobalConfigFile({ home = os.homedir(), env = process.env }: ClientFolderOptions = {}): string {
  const folder = env["CLAUDE_CONFIG_DIR"];
  if (folder === undefined || folder === "") return path.join(home, ".claude.json");
  return path.join(path.resolve(folder), ".claude.json");
}

/**
 * Codex's folder: `$CODEX_HOME`, else `~/.codex`.
 *
 * @example codexHome({ home: "/home/me", env: { CODEX_HOME: "/srv/codex" } }) // "/srv/codex"
 */
export function codexHome({ home = os.homedir(), env = process.env }: ClientFolderOptions = {}): string {
  const folder = env["CODEX_HOME"];
  return folder === undefined || folder === "" ? path.join(home, ".codex") : path.resolve(folder);
}
