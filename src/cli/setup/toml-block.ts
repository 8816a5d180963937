/**
 * Edits of a TOML settings file (Codex's `config.toml`) that change only ctxwin's entries (ADR
 * 0075). The file is read with a TOML parser (smol-toml), so ctxwin's keys are found in any
 * spelling (`[mcp_servers.'ctxwin']`, `ctxwin = {…}` under `[mcp_servers]`, a dotted key) and a
 * definition of someone else's that ctxwin's tables would clash with is refused by what it is.
 * The edit itself is by text: ctxwin's old statements are deleted line by line (found by their
 * keys and the command they run, so also after Codex rewrote the file without the marker
 * comments), and its tables are appended as one block between two marker comments. Before the
 * text is returned, it is parsed again and compared with the original: apart from ctxwin's own
 * entries, the two documents must be equal, or nothing is written. CRLF files keep CRLF.
 */
import { parse } from "smol-toml";
import {
  ctxwinPaths,
  holdsExactly,
  isObject,
  sameOutsideCtxwin,
  startsWithPath,
  valueAt,
  type DocumentPath,
  type EntryLayout,
  type JsonObject,
} from "./ctxwin-entries.js";
import { scanStatements } from "./toml-statements.js";

export const BLOCK_START = "# >>> ctxwin setup: written by 'ctxwin setup'; 'ctxwin setup --remove' deletes this block";
export const BLOCK_END = "# <<< ctxwin setup";

/** A TOML file ctxwin will not edit, and why (one sentence). */
export class TomlShapeProblem extends Error {}

/** ctxwin's tables as TOML text (without markers), and where its entries sit. */
export interface TomlEntries {
  block: string;
  layout: EntryLayout;
}

/**
 * The text with ctxwin's entries as `block` says; `text` itself when they are there already,
 * exactly once each.
 *
 * @example installTomlBlock("[features]\nx = 1\n", { block: '[mcp_servers.ctxwin]\ncommand = "ctxwin"', layout })
 */
export function installTomlBlock(text: string, { block, layout }: TomlEntries): string {
  const document = parseToml(text, "it is not valid TOML");
  checkRoom(document, layout);
  const wanted = parseToml(block, "ctxwin's own block is not valid TOML");
  const expected = expectedEntries(wanted, layout);
  const present = ctxwinPaths(document, layout);
  if (holdsExactly(document, layout, expected) && present.length === countOf(expected)) return text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const kept = deleteCtxwinLines(text, present);
  const wrapped = [BLOCK_START, ...block.trimEnd().split("\n"), BLOCK_END, ""].join(eol);
  // A blank line before the block when the file ended with a newline; none when it did not, so that
  // --remove knows to take the newline out again (the file comes back byte for byte).
  const next = kept === "" ? wrapped : `${kept}${eol}${wrapped}`;
  const result = parseToml(next, "ctxwin's tables cannot be added without changing yours");
  if (!sameOutsideCtxwin(result, document, layout) || !holdsExactly(result, layout, expected)) {
    throw new TomlShapeProblem(
      "ctxwin cannot add its tables without changing other settings in it; add them by hand (docs/mcp.md shows them)",
    );
  }
  return next;
}

/**
 * The text without ctxwin's entries (and without its marker comments and the blank line setup
 * put before them); every other statement stays where it is, byte for byte.
 *
 * @example removeTomlEntries(installTomlBlock(text, entries), entries.layout) === text
 */
export function removeTomlEntries(text: string, layout: EntryLayout): string {
  const document = parseToml(text, "it is not valid TOML");
  const next = deleteCtxwinLines(text, ctxwinPaths(document, layout));
  if (next === text) return text;
  const result = parseToml(next, "removing ctxwin's entries would break it");
  if (ctxwinPaths(result, layout).length > 0 || !sameOutsideCtxwin(result, document, layout)) {
    throw new TomlShapeProblem(
      "ctxwin's entries are written inside other values (an inline table or array); take them out by hand",
    );
  }
  return next;
}

/**
 * A TOML basic string: JSON's escapes are TOML's.
 *
 * @example tomlString('a "b"') // "\"a \\\"b\\\"\""
 */
export const tomlString = (value: string): string => JSON.stringify(value);

/** Parses TOML (integers too large for a number as bigint); a syntax error becomes a refusal. */
function parseToml(text: string, problem: string): JsonObject {
  try {
    return parse(text, { integersAsBigInt: "asNeeded" }) as JsonObject;
  } catch (error) {
    const message = (error as Error).message.split("\n").find((line) => line.trim() !== "") ?? "";
    const where = (error as { line?: unknown }).line;
    const at = typeof where === "number" ? ` at line ${where}` : "";
    throw new TomlShapeProblem(`${problem} (${message.replace(/^Invalid TOML document: /, "")}${at})`);
  }
}

/** Refuses definitions of someone else's that ctxwin's tables would collide with, naming them. */
function checkRoom(document: JsonObject, layout: EntryLayout): void {
  const { serversKey, serverName } = layout;
  if (serversKey !== undefined) {
    const servers = document[serversKey];
    if (servers !== undefined && !isObject(servers)) throw new TomlShapeProblem(`'${serversKey}' is not a table`);
    const server = valueAt(document, [serversKey, serverName]);
    const ours = ctxwinPaths(document, layout).some((path) => path.length === 2 && path[1] === serverName);
    if (server !== undefined && !ours) {
      throw new TomlShapeProblem(
        `it already has an MCP server '${serverName}' that does not run 'ctxwin mcp' (${serversKey}.${serverName}); ` +
          "rename or remove it first",
      );
    }
  }
  const hooks = document["hooks"];
  if (hooks !== undefined && !isObject(hooks)) throw new TomlShapeProblem("'hooks' is not a table");
  for (const event of layout.hookEvents) {
    const groups = valueAt(document, ["hooks", event]);
    if (groups !== undefined && !(Array.isArray(groups) && groups.every(isObject))) {
      const kind = isObject(groups) ? "a table" : "a value";
      throw new TomlShapeProblem(
        `'hooks.${event}' is ${kind}, not a list of [[hooks.${event}]] groups; ctxwin cannot add its group to it`,
      );
    }
  }
}

type Expected = { server?: unknown; groups: Record<string, unknown> };

function expectedEntries(wanted: JsonObject, layout: EntryLayout): Expected {
  const groups: Record<string, unknown> = {};
  for (const event of layout.hookEvents) {
    const group = valueAt(wanted, ["hooks", event, 0]);
    if (group !== undefined) groups[event] = group;
  }
  const server = layout.serversKey === undefined ? undefined : valueAt(wanted, [layout.serversKey, layout.serverName]);
  return server === undefined ? { groups } : { server, groups };
}

const countOf = (expected: Expected): number =>
  (expected.server === undefined ? 0 : 1) + Object.keys(expected.groups).length;

/**
 * `text` without the statements at `paths` (a table with its keys and the blank lines after it;
 * a key-value line by itself), without ctxwin's marker comments, and without the blank line
 * setup put before its start marker.
 */
function deleteCtxwinLines(text: string, paths: readonly DocumentPath[]): string {
  const lines = text.split("\n");
  const lineCount = text.endsWith("\n") ? lines.length - 1 : lines.length;
  const isBlank = (index: number): boolean => index < lineCount && (lines[index] ?? "").trim() === "";
  const dropped = new Set<number>();
  let endsWithoutNewline = false;
  const statements = scanStatements(lines.slice(0, lineCount));
  statements.forEach((statement, index) => {
    if (!paths.some((path) => startsWithPath(statement.path, path))) return;
    let end = statement.end;
    if (statement.kind !== "key-value") {
      for (let next = index + 1; statements[next]?.kind === "key-value"; next += 1) end = statements[next]!.end;
      while (isBlank(end + 1)) end += 1;
    }
    for (let line = statement.start; line <= end; line += 1) dropped.add(line);
  });
  for (let index = 0; index < lineCount; index += 1) {
    if ((lines[index] ?? "").trim() !== BLOCK_START) continue;
    dropped.add(index);
    let end = index + 1;
    while (end < lineCount && (lines[end] ?? "").trim() !== BLOCK_END) end += 1;
    if (end < lineCount) dropped.add(end);
    // The blank line setup put before its block goes with it, unless the block held other tables.
    let whole = true;
    for (let line = index + 1; line < end; line += 1) whole &&= dropped.has(line);
    if (whole && index > 0 && isBlank(index - 1)) dropped.add(index - 1);
    // Setup put the block straight after a file that had no final newline: that newline goes too.
    else if (whole && index > 0 && end >= lineCount - 1 && !dropped.has(index - 1)) endsWithoutNewline = true;
  }
  for (let index = 0; index < lineCount; index += 1) if ((lines[index] ?? "").trim() === BLOCK_END) dropped.add(index);
  if (dropped.size === 0) return text;
  const kept = lines.filter((_line, index) => !dropped.has(index)).join("\n");
  return endsWithoutNewline ? kept.replace(/\r?\n$/, "") : kept;
}
