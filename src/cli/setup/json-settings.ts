/**
 * Edits of a JSON settings file (Claude Code's `settings.json`, `~/.claude.json`, `.mcp.json`)
 * that touch only ctxwin's entries: `mcpServers.ctxwin`, and SessionStart hook handlers whose
 * command runs `ctxwin hook session-start`. Every other key, and the order of keys, is kept. A
 * file whose text already holds exactly ctxwin's entries is returned as it was (idempotence).
 */
import { isDeepStrictEqual } from "node:util";

export type JsonObject = Record<string, unknown>;

/** `mcpServers.<name>` of a stdio server. */
export interface McpServerEntry {
  type: "stdio";
  command: string;
  args: string[];
}

/** One SessionStart matcher group holding ctxwin's hook. */
export interface SessionStartGroup {
  matcher: string;
  hooks: { type: "command"; command: string; timeout: number }[];
}

/** ctxwin's entries in one JSON file (either or both). */
export interface JsonEntries {
  mcpServer?: { name: string; entry: McpServerEntry };
  sessionStart?: SessionStartGroup;
}

/** A settings file ctxwin will not edit, and why (one sentence). */
export class JsonShapeProblem extends Error {}

/** Whether a hook command runs ctxwin's SessionStart hook (whatever runs ctxwin: npx, a path). */
export const isCtxwinHookCommand = (command: unknown): boolean =>
  typeof command === "string" && (/\bctxwin\b.*\bhook session-start\b/.test(command) || /\bhook session-start --client (claude-code|codex)\b/.test(command));

/** Whether an MCP server entry runs `ctxwin mcp` (by name, or in the shape setup writes). */
function isCtxwinServer(entry: unknown): boolean {
  if (typeof entry !== "object" || entry === null) return false;
  const { command, args } = entry as { command?: unknown; args?: unknown };
  const words = [command, ...(Array.isArray(args) ? args : [])].filter((word): word is string => typeof word === "string");
  // A project's server imports only that project's sessions: `--import-project <folder>` last.
  const withoutProject = words.at(-2) === "--import-project" ? words.slice(0, -2) : words;
  const tail = withoutProject.slice(-5);
  const setupShape = tail.length === 5 && tail[0] === "mcp" && tail[1] === "--dir" && tail[3] === "--import";
  return setupShape || (words.some((word) => /(^|\/)ctxwin$/.test(word)) && words.includes("mcp"));
}

/**
 * The settings with ctxwin's entries in place (added, or replacing older ctxwin entries).
 *
 * @example installJson({ model: "opus" }, { mcpServer: { name: "ctxwin", entry } }) // { model: "opus", mcpServers: { ctxwin: entry } }
 */
export function installJson(settings: JsonObject, entries: JsonEntries): JsonObject {
  let next = settings;
  if (entries.mcpServer !== undefined) {
    const { name, entry } = entries.mcpServer;
    const servers = objectAt(next, "mcpServers");
    const existing = servers[name];
    if (existing !== undefined && !isCtxwinServer(existing) && !isDeepStrictEqual(existing, entry)) {
      throw new JsonShapeProblem(`mcpServers.${name} is already a server that does not run 'ctxwin mcp'; rename or remove it first`);
    }
    if (!isDeepStrictEqual(existing, entry)) next = { ...next, mcpServers: { ...servers, [name]: entry } };
  }
  if (entries.sessionStart !== undefined) {
    const groups = sessionStartGroups(next);
    const ours = groups.filter((group) => handlersOf(group).some((handler) => isCtxwinHookCommand(handler.command)));
    const exactlyOurs = ours.length === 1 && isDeepStrictEqual(ours[0], entries.sessionStart);
    if (!exactlyOurs) next = withSessionStart(next, [...withoutCtxwinHandlers(groups), entries.sessionStart]);
  }
  return next;
}

/**
 * The settings without ctxwin's entries (the server of that name only when it runs `ctxwin mcp`
 * or is exactly the entry setup writes).
 *
 * @example uninstallJson(settings, { mcpServer: { name: "ctxwin", entry }, sessionStart: true })
 */
export function uninstallJson(settings: JsonObject, { mcpServer, sessionStart }: { mcpServer?: JsonEntries["mcpServer"]; sessionStart?: boolean }): JsonObject {
  let next = settings;
  const servers = next["mcpServers"];
  const name = mcpServer?.name;
  if (name !== undefined && isObject(servers) && (isCtxwinServer(servers[name]) || isDeepStrictEqual(servers[name], mcpServer?.entry))) {
    const { [name]: _removed, ...others } = servers;
    // A container ctxwin's removal empties goes too: setup on a file without it created it.
    next = Object.keys(others).length > 0 ? { ...next, mcpServers: others } : withoutKey(next, "mcpServers");
  }
  if (sessionStart === true) {
    const groups = sessionStartGroups(next);
    const kept = withoutCtxwinHandlers(groups);
    if (kept.length !== groups.length || !isDeepStrictEqual(kept, groups)) next = withSessionStart(next, kept);
  }
  return next;
}

/**
 * Parses a settings file's text; an absent or empty file is `{}`.
 *
 * @example parseSettings('{"model": "opus"}') // { model: "opus" }
 */
export function parseSettings(text: string | undefined): JsonObject {
  if (text === undefined || text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JsonShapeProblem(`it is not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(value)) throw new JsonShapeProblem("it is not a JSON object");
  return value;
}

/**
 * The file's new text: `before` itself when nothing changed, else the settings in the file's
 * own indentation (two spaces for a new file) with a final newline.
 */
export function renderSettings(before: string | undefined, previous: JsonObject, next: JsonObject): string {
  if (before !== undefined && isDeepStrictEqual(previous, next)) return before;
  const indent = before === undefined ? "  " : (/^[ \t]+(?=")/m.exec(before)?.[0] ?? "  ");
  return `${JSON.stringify(next, null, indent)}\n`;
}

function withSessionStart(settings: JsonObject, groups: unknown[]): JsonObject {
  const hooks = objectAt(settings, "hooks");
  if (groups.length > 0) return { ...settings, hooks: { ...hooks, SessionStart: groups } };
  const { SessionStart: _removed, ...others } = hooks;
  return Object.keys(others).length > 0 ? { ...settings, hooks: others } : withoutKey(settings, "hooks");
}

function withoutKey(settings: JsonObject, key: string): JsonObject {
  return Object.fromEntries(Object.entries(settings).filter(([name]) => name !== key));
}

function withoutCtxwinHandlers(groups: unknown[]): unknown[] {
  return groups.flatMap((group) => {
    const handlers = handlersOf(group);
    const kept = handlers.filter((handler) => !isCtxwinHookCommand(handler.command));
    if (kept.length === handlers.length) return [group];
    return kept.length === 0 ? [] : [{ ...(group as JsonObject), hooks: kept }];
  });
}

function sessionStartGroups(settings: JsonObject): unknown[] {
  const hooks = objectAt(settings, "hooks");
  const groups = hooks["SessionStart"];
  if (groups === undefined) return [];
  if (!Array.isArray(groups)) throw new JsonShapeProblem("hooks.SessionStart is not an array");
  return groups;
}

function handlersOf(group: unknown): JsonObject[] {
  if (!isObject(group) || !Array.isArray(group["hooks"])) return [];
  return group["hooks"].filter(isObject);
}

function objectAt(settings: JsonObject, key: string): JsonObject {
  const value = settings[key];
  if (value === undefined) return {};
  if (!isObject(value)) throw new JsonShapeProblem(`'${key}' is not a JSON object`);
  return value;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
