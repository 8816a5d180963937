/**
 * Edits of a JSON settings file (Claude Code's `settings.json`, `~/.claude.json`, `.mcp.json`)
 * that touch only ctxwin's entries (ADR 0075): `mcpServers.ctxwin`, SessionStart hook handlers
 * whose command runs `ctxwin hook session-start`, and `mcp__ctxwin__session_history` in
 * `permissions.allow`. The file is edited as text (json-text-edit.ts): every other byte stays
 * as written. The result is parsed again and compared with the original; apart from ctxwin's
 * entries they must be equal. A file that already holds exactly ctxwin's entries is returned as
 * it was (idempotence).
 */
import { getNodeValue } from "jsonc-parser";
import {
  comparePathsDescending,
  containerPaths,
  ctxwinPaths,
  handlersOf,
  hookGroups,
  holdsCtxwinHandler,
  holdsExactly,
  isCtxwinHookCommand,
  isCtxwinServer,
  isObject,
  sameOutsideCtxwin,
  sameValue,
  valueAt,
  type EntryLayout,
  type JsonObject,
} from "./ctxwin-entries.js";
import { JsonShapeProblem, appendValue, isEmptyAt, removeValue, rootOf, setValue } from "./json-text-edit.js";

export { JsonShapeProblem } from "./json-text-edit.js";

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

/** ctxwin's entries in one JSON file (any of them). */
export interface JsonEntries {
  mcpServer?: { name: string; entry: McpServerEntry };
  sessionStart?: SessionStartGroup;
  /** Tools ctxwin adds to `permissions.allow` (so `claude -p` may call them). */
  allowedTools?: string[];
}

const BOM = "\uFEFF";

/**
 * The file's text with ctxwin's entries in place (added, or replacing older ctxwin entries).
 *
 * @example installJson('{"model": "opus"}\n', { mcpServer: { name: "ctxwin", entry } })
 */
export function installJson(text: string | undefined, entries: JsonEntries): string {
  const bom = text?.startsWith(BOM) === true ? BOM : "";
  const body = text?.slice(bom.length) ?? "";
  const source = body.trim() === "" ? "{}\n" : body;
  const document = valueOf(source);
  const layout = layoutOf(entries);
  checkShapes(document, entries);
  const expected = {
    server: entries.mcpServer?.entry,
    groups: entries.sessionStart === undefined ? {} : { SessionStart: entries.sessionStart },
    allowedTools: entries.allowedTools ?? [],
  };
  if (text !== undefined && body.trim() !== "" && holdsExactly(document, layout, expected)) return text;
  let next = source;
  if (entries.mcpServer !== undefined) {
    const { name, entry } = entries.mcpServer;
    if (!sameValue(valueAt(document, ["mcpServers", name]), entry)) next = setValue(next, ["mcpServers", name], entry);
  }
  if (entries.sessionStart !== undefined) next = placeGroup(next, "SessionStart", entries.sessionStart);
  for (const tool of entries.allowedTools ?? []) {
    const allow = valueAt(valueOf(next), ["permissions", "allow"]);
    if (!(Array.isArray(allow) && allow.includes(tool))) next = appendValue(next, ["permissions", "allow"], tool);
  }
  const result = valueOf(next);
  if (!sameOutsideCtxwin(result, document, layout) || !holdsExactly(result, layout, expected)) {
    throw new JsonShapeProblem(
      "ctxwin cannot add its entries without changing other settings in it; add them by hand (docs/mcp.md shows them)",
    );
  }
  return `${bom}${next}`;
}

/**
 * The file's text without ctxwin's entries. `original` is the file before ctxwin's first change
 * (its backup; undefined when there is none): a container that ctxwin's removal empties goes too
 * when the original did not have it, and a tool in `permissions.allow` goes only when the original
 * did not allow it already.
 *
 * @example uninstallJson(installJson(text, entries), entries, { original: text }) === text
 */
export function uninstallJson(
  text: string | undefined,
  entries: JsonEntries,
  { original }: { original: string | undefined },
): string | undefined {
  if (text === undefined) return undefined;
  const bom = text.startsWith(BOM) ? BOM : "";
  const body = text.slice(bom.length);
  if (body.trim() === "") return text;
  const document = valueOf(body);
  const before = originalValue(original);
  const holdsHook = hookGroups(document, "SessionStart").some(holdsCtxwinHandler);
  const addedTools = (entries.allowedTools ?? []).filter((tool) => {
    const allowedBefore = valueAt(before, ["permissions", "allow"]);
    return !(Array.isArray(allowedBefore) && allowedBefore.includes(tool)) && (original !== undefined || holdsHook);
  });
  const layout = { ...layoutOf(entries), allowedTools: addedTools };
  const paths = ctxwinPaths(document, layout).sort(comparePathsDescending);
  if (paths.length === 0) return text;
  let next = body;
  for (const path of paths) next = removeValue(next, path);
  for (const container of containerPaths(layout)) {
    if (isEmptyAt(next, container) && valueAt(before, container) === undefined) next = removeValue(next, container);
  }
  const result = valueOf(next);
  if (ctxwinPaths(result, layout).length > 0 || !sameOutsideCtxwin(result, document, layout)) {
    throw new JsonShapeProblem("removing ctxwin's entries would change other settings in it; take them out by hand");
  }
  return `${bom}${next}`;
}

/** `text` with exactly one ctxwin group under `hooks.<event>`: ctxwin's first replaced in place, or `group` appended. */
function placeGroup(text: string, event: string, group: SessionStartGroup): string {
  const groups = hookGroups(valueOf(text), event);
  const ours = groups.flatMap((candidate, index) => (holdsCtxwinHandler(candidate) ? [index] : []));
  const isPure = (index: number): boolean =>
    handlersOf(groups[index]).every((handler) => isCtxwinHookCommand(handler["command"]));
  const replaced = ours.find(isPure);
  let next = text;
  for (const index of [...ours].reverse()) {
    if (index === replaced) next = setValue(next, ["hooks", event, index], group);
    else if (isPure(index)) next = removeValue(next, ["hooks", event, index]);
    else {
      const handlers = handlersOf(groups[index]);
      for (let at = handlers.length - 1; at >= 0; at -= 1) {
        if (!isCtxwinHookCommand(handlers[at]?.["command"])) continue;
        next = removeValue(next, ["hooks", event, index, "hooks", at]);
      }
    }
  }
  return replaced === undefined ? appendValue(next, ["hooks", event], group) : next;
}

function checkShapes(document: JsonObject, entries: JsonEntries): void {
  const shape = (path: string[], kind: "object" | "array"): void => {
    const value = valueAt(document, path);
    if (value === undefined || (kind === "object" ? isObject(value) : Array.isArray(value))) return;
    const name = path.join(".");
    throw new JsonShapeProblem(kind === "object" ? `'${name}' is not a JSON object` : `${name} is not an array`);
  };
  if (entries.mcpServer !== undefined) {
    shape(["mcpServers"], "object");
    const { name, entry } = entries.mcpServer;
    const existing = valueAt(document, ["mcpServers", name]);
    if (existing !== undefined && !isCtxwinServer(existing) && !sameValue(existing, entry)) {
      throw new JsonShapeProblem(
        `mcpServers.${name} is already a server that does not run 'ctxwin mcp'; rename or remove it first`,
      );
    }
  }
  if (entries.sessionStart !== undefined) {
    shape(["hooks"], "object");
    shape(["hooks", "SessionStart"], "array");
  }
  if ((entries.allowedTools ?? []).length > 0) {
    shape(["permissions"], "object");
    shape(["permissions", "allow"], "array");
  }
}

function layoutOf(entries: JsonEntries): EntryLayout {
  return {
    ...(entries.mcpServer === undefined ? {} : { serversKey: "mcpServers" }),
    serverName: entries.mcpServer?.name ?? "ctxwin",
    hookEvents: entries.sessionStart === undefined ? [] : ["SessionStart"],
    allowedTools: entries.allowedTools ?? [],
  };
}

const valueOf = (text: string): JsonObject => getNodeValue(rootOf(text)) as JsonObject;

/** The original's value; `{}` when there is none or it cannot be read (then ctxwin created what it finds). */
function originalValue(original: string | undefined): JsonObject {
  if (original === undefined) return {};
  try {
    return valueOf(original.startsWith(BOM) ? original.slice(1) : original);
  } catch {
    return {};
  }
}
