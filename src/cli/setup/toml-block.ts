/**
 * Edits of a TOML settings file (Codex's `config.toml`) by text, so comments, blank lines and
 * the order of everything else stay exactly as they were (ADR 0062): ctxwin's tables live in one
 * block between two marker comments, appended at the end of the file; setup replaces that block,
 * `--remove` deletes it. A file whose text already holds the same block is returned unchanged.
 * Before editing, a light syntax check refuses a file that is not TOML, and tables ctxwin's block
 * would clash with are refused by name.
 */

export const BLOCK_START = "# >>> ctxwin setup: written by 'ctxwin setup'; 'ctxwin setup --remove' deletes this block";
export const BLOCK_END = "# <<< ctxwin setup";

/** A TOML file ctxwin will not edit, and why (one sentence). */
export class TomlShapeProblem extends Error {}

/**
 * The text with `block` (its lines without the markers) as ctxwin's block.
 *
 * @example installTomlBlock("[features]\nx = 1\n", '[mcp_servers.ctxwin]\ncommand = "ctxwin"')
 */
export function installTomlBlock(text: string, block: string, { clashes }: { clashes: readonly RegExp[] }): string {
  checkToml(text);
  const wrapped = `${BLOCK_START}\n${block.trimEnd()}\n${BLOCK_END}\n`;
  const found = findBlock(text);
  if (found !== undefined) return `${text.slice(0, found.start)}${wrapped}${text.slice(found.end)}`;
  for (const clash of clashes) {
    const line = text.split("\n").find((candidate) => clash.test(candidate));
    if (line !== undefined) throw new TomlShapeProblem(`it already has '${line.trim()}', which ctxwin's tables would clash with; remove it first`);
  }
  if (text === "") return wrapped;
  return `${text.endsWith("\n") ? text : `${text}\n`}\n${wrapped}`;
}

/**
 * The text without ctxwin's block (and the blank line setup put before it).
 *
 * @example removeTomlBlock(installTomlBlock(text, block, { clashes: [] })) === text
 */
export function removeTomlBlock(text: string): string {
  checkToml(text);
  const found = findBlock(text);
  if (found === undefined) return text;
  const before = text.slice(0, found.start);
  const trimmed = before.endsWith("\n\n") ? before.slice(0, -1) : before;
  return `${trimmed}${text.slice(found.end)}`;
}

/**
 * A TOML basic string: JSON's escapes are TOML's.
 *
 * @example tomlString('a "b"') // "\"a \\\"b\\\"\""
 */
export const tomlString = (value: string): string => JSON.stringify(value);

function findBlock(text: string): { start: number; end: number } | undefined {
  const start = text.startsWith(`${BLOCK_START}\n`) ? 0 : indexAfterNewline(text, `\n${BLOCK_START}\n`);
  if (start === undefined) return undefined;
  const endMarker = text.indexOf(`\n${BLOCK_END}`, start);
  if (endMarker === -1) throw new TomlShapeProblem(`ctxwin's block has its start marker but not '${BLOCK_END}'; fix the file by hand (the backup beside it may help)`);
  const afterEnd = endMarker + 1 + BLOCK_END.length;
  return { start, end: text[afterEnd] === "\n" ? afterEnd + 1 : afterEnd };
}

function indexAfterNewline(text: string, needle: string): number | undefined {
  const index = text.indexOf(needle);
  return index === -1 ? undefined : index + 1;
}

const BARE_KEY = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')`;
const DOTTED_KEY = String.raw`${BARE_KEY}(?:\s*\.\s*${BARE_KEY})*`;
const HEADER = new RegExp(String.raw`^\s*(\[\[\s*${DOTTED_KEY}\s*\]\]|\[\s*${DOTTED_KEY}\s*\])\s*(#.*)?$`);
const KEY_VALUE = new RegExp(String.raw`^\s*${DOTTED_KEY}\s*=\s*(.*)$`);

/**
 * A light check that `text` is TOML: every statement is a comment, a table header or a
 * `key = value` whose strings and brackets close. Not a full parser: it catches a file that is
 * not TOML at all, or broken, before ctxwin appends to it.
 */
export function checkToml(text: string): void {
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    if (/^\s*(#.*)?$/.test(line) || HEADER.test(line)) continue;
    const keyValue = KEY_VALUE.exec(line);
    if (keyValue === null) throw new TomlShapeProblem(`line ${index + 1} is not TOML (expected a table header, key = value, or a comment)`);
    index = endOfValue(lines, index, keyValue[1] ?? "");
  }
}

/** The index of the last line of a value starting on line `index` (strings and brackets closed). */
function endOfValue(lines: readonly string[], index: number, start: string): number {
  if (start.trim() === "") throw new TomlShapeProblem(`line ${index + 1} has a key without a value`);
  let depth = 0;
  let quote: string | undefined;
  let line = index;
  let text = start;
  for (;;) {
    for (let at = 0; at < text.length; at += 1) {
      const rest = text.slice(at);
      if (quote !== undefined) {
        if (quote.startsWith('"') && text[at] === "\\") at += 1;
        else if (rest.startsWith(quote)) {
          at += quote.length - 1;
          quote = undefined;
        }
        continue;
      }
      const opening = ['"""', "'''", '"', "'"].find((candidate) => rest.startsWith(candidate));
      if (opening !== undefined) {
        quote = opening;
        at += opening.length - 1;
      } else if (text[at] === "#") break;
      else if (text[at] === "[" || text[at] === "{") depth += 1;
      else if (text[at] === "]" || text[at] === "}") depth -= 1;
      if (depth < 0) throw new TomlShapeProblem(`line ${line + 1} closes a bracket it never opened`);
    }
    if (quote === '"' || quote === "'") throw new TomlShapeProblem(`line ${line + 1} has a string that does not end on its line`);
    if (quote === undefined && depth === 0) return line;
    line += 1;
    if (line >= lines.length) throw new TomlShapeProblem(`the value that starts on line ${index + 1} never ends (an unclosed string or bracket)`);
    text = lines[line] ?? "";
  }
}
