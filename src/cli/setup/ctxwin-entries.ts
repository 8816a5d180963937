/**
 * ctxwin's own entries in a parsed settings document, for both formats (Claude Code's JSON and
 * Codex's TOML share one shape): the MCP server `<servers>.ctxwin` when it runs ctxwin, and hook
 * handlers under `hooks.<Event>[i].hooks[j]` whose command runs `ctxwin hook session-start`.
 * ctxwin's entries are found by their keys and what they run, never by comments around them, so
 * they are still found after a CLI rewrote the file. `withoutCtxwinEntries` is the comparison
 * every edit is checked with: before and after an edit, the document without ctxwin's entries
 * must be the same.
 */

export type DocumentPath = (string | number)[];
export type JsonObject = Record<string, unknown>;

/** Where ctxwin's entries sit in one file. */
export interface EntryLayout {
  /** `mcpServers` (JSON) or `mcp_servers` (TOML); undefined when the file holds no server. */
  serversKey?: string;
  serverName: string;
  /** The hook events whose ctxwin handlers are ctxwin's (`SessionStart`, `PostCompact`). */
  hookEvents: readonly string[];
  /** Entries of `permissions.allow` ctxwin added (JSON only). */
  allowedTools?: readonly string[];
}

/** Whether a hook command runs ctxwin's hook (whatever runs ctxwin: npx, node and a path). */
export const isCtxwinHookCommand = (command: unknown): boolean =>
  typeof command === "string" &&
  (/\bctxwin\b.*\bhook session-start\b/.test(command) ||
    /\bhook session-start --client (claude-code|codex)\b/.test(command));

/** Whether a hook group holds one of ctxwin's handlers. */
export const holdsCtxwinHandler = (group: unknown): boolean =>
  handlersOf(group).some((handler) => isCtxwinHookCommand(handler["command"]));

/** Whether an MCP server entry runs `ctxwin mcp` (by name, or in the shape setup writes). */
export function isCtxwinServer(entry: unknown): boolean {
  if (!isObject(entry)) return false;
  const { command, args } = entry;
  const words = [command, ...(Array.isArray(args) ? args : [])].filter(
    (word): word is string => typeof word === "string",
  );
  // A project's server imports only that project's sessions: `--import-project <folder>` last.
  const withoutProject = words.at(-2) === "--import-project" ? words.slice(0, -2) : words;
  const tail = withoutProject.slice(-5);
  const setupShape = tail.length === 5 && tail[0] === "mcp" && tail[1] === "--dir" && tail[3] === "--import";
  return setupShape || (words.some((word) => /(^|[/\\])ctxwin$/.test(word)) && words.includes("mcp"));
}

/**
 * The paths of ctxwin's entries in `document`: the server, every hook group that holds only
 * ctxwin's handlers, and ctxwin's handlers inside a group that also holds others.
 *
 * @example ctxwinPaths(parsed, { serversKey: "mcp_servers", serverName: "ctxwin", hookEvents: ["SessionStart"] })
 */
export function ctxwinPaths(document: JsonObject, layout: EntryLayout): DocumentPath[] {
  const paths: DocumentPath[] = [];
  const servers = layout.serversKey === undefined ? undefined : document[layout.serversKey];
  if (layout.serversKey !== undefined && isObject(servers) && isCtxwinServer(servers[layout.serverName])) {
    paths.push([layout.serversKey, layout.serverName]);
  }
  for (const event of layout.hookEvents) {
    hookGroups(document, event).forEach((group, index) => {
      const handlers = handlersOf(group);
      const ours = handlers.flatMap((handler, at) => (isCtxwinHookCommand(handler["command"]) ? [at] : []));
      if (ours.length === 0) return;
      if (ours.length === handlers.length) paths.push(["hooks", event, index]);
      else for (const at of ours) paths.push(["hooks", event, index, "hooks", at]);
    });
  }
  const allow = valueAt(document, ["permissions", "allow"]);
  if (Array.isArray(allow)) {
    allow.forEach((tool, index) => {
      if (layout.allowedTools?.includes(tool as string) === true) paths.push(["permissions", "allow", index]);
    });
  }
  return paths;
}

/**
 * A copy of `document` without ctxwin's entries, and without empty containers where they live
 * (so a file setup added `mcpServers` to compares equal to the file without it).
 */
export function withoutCtxwinEntries(document: JsonObject, layout: EntryLayout): JsonObject {
  const copy = structuredClone(document);
  for (const path of ctxwinPaths(copy, layout).sort(comparePathsDescending)) deleteAt(copy, path);
  for (const container of containerPaths(layout)) {
    if (isEmptyContainer(valueAt(copy, container))) deleteAt(copy, container);
  }
  return copy;
}

/** Whether two documents are the same data apart from ctxwin's entries. */
export const sameOutsideCtxwin = (left: JsonObject, right: JsonObject, layout: EntryLayout): boolean =>
  sameValue(withoutCtxwinEntries(left, layout), withoutCtxwinEntries(right, layout));

/** The containers ctxwin's entries live in, innermost first. */
export function containerPaths(layout: EntryLayout): DocumentPath[] {
  return [
    ...(layout.serversKey === undefined ? [] : [[layout.serversKey]]),
    ...layout.hookEvents.map((event) => ["hooks", event]),
    ["hooks"],
    ["permissions", "allow"],
    ["permissions"],
  ];
}

/** The groups under `hooks.<event>` (none when absent or not an array). */
export function hookGroups(document: JsonObject, event: string): unknown[] {
  const groups = valueAt(document, ["hooks", event]);
  return Array.isArray(groups) ? groups : [];
}

/** Whether `document` holds exactly these entries of ctxwin's, each once. */
export function holdsExactly(
  document: JsonObject,
  layout: EntryLayout,
  expected: { server?: unknown; groups?: Record<string, unknown>; allowedTools?: readonly string[] },
): boolean {
  if (layout.serversKey !== undefined && expected.server !== undefined) {
    if (!sameValue(valueAt(document, [layout.serversKey, layout.serverName]), expected.server)) return false;
  }
  for (const [event, group] of Object.entries(expected.groups ?? {})) {
    const ours = hookGroups(document, event).filter(holdsCtxwinHandler);
    if (ours.length !== 1 || !sameValue(ours[0], group)) return false;
  }
  const allow = valueAt(document, ["permissions", "allow"]);
  return (expected.allowedTools ?? []).every(
    (tool) => Array.isArray(allow) && allow.filter((entry) => entry === tool).length === 1,
  );
}

/**
 * Whether two parsed values are the same data: objects by their keys and values whatever their
 * prototype (a JSON parser may build them without one), dates by time, numbers as `Object.is`.
 *
 * @example sameValue({ a: [1n] }, { a: [1n] }) // true
 */
export function sameValue(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (left instanceof Date || right instanceof Date) {
    return left instanceof Date && right instanceof Date && Object.is(left.getTime(), right.getTime());
  }
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((value, index) => sameValue(value, right[index]));
  }
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  const leftObject = left as Record<string, unknown>;
  const rightObject = right as Record<string, unknown>;
  const keys = Object.keys(leftObject);
  if (keys.length !== Object.keys(rightObject).length) return false;
  return keys.every((key) => Object.hasOwn(rightObject, key) && sameValue(leftObject[key], rightObject[key]));
}

export function valueAt(document: unknown, path: DocumentPath): unknown {
  let value = document;
  for (const key of path) {
    if (typeof key === "number" ? !Array.isArray(value) : !isObject(value)) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

export function handlersOf(group: unknown): JsonObject[] {
  if (!isObject(group) || !Array.isArray(group["hooks"])) return [];
  return group["hooks"].filter(isObject);
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

export const startsWithPath = (path: DocumentPath, prefix: DocumentPath): boolean =>
  prefix.length <= path.length && prefix.every((key, index) => path[index] === key);

function isEmptyContainer(value: unknown): boolean {
  return Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0;
}

function deleteAt(document: JsonObject, path: DocumentPath): void {
  const parent = valueAt(document, path.slice(0, -1));
  const key = path.at(-1);
  if (Array.isArray(parent) && typeof key === "number") parent.splice(key, 1);
  else if (isObject(parent) && typeof key === "string") delete parent[key];
}

/** Later array elements first, so deleting one does not move the next. */
export function comparePathsDescending(left: DocumentPath, right: DocumentPath): number {
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const a = left[index]!;
    const b = right[index]!;
    if (a === b) continue;
    if (typeof a === "number" && typeof b === "number") return b - a;
    return String(b).localeCompare(String(a));
  }
  return right.length - left.length;
}
