/**
 * The statements of a TOML file that a parser has already accepted, with the lines each one
 * covers and the document path it defines: `[a.b]` → `["a", "b"]`, the second `[[a.c]]` →
 * `["a", "c", 1]`, `x.y = 1` inside `[a]` → `["a", "x", "y"]`. Keys are compared as the parser
 * reads them (`'ctxwin'`, `"ctx\u0077in"` and `ctxwin` are one key). This is what lets setup
 * delete exactly the lines of ctxwin's entries, wherever and however they are written.
 */
import { parse } from "smol-toml";
import type { DocumentPath } from "./ctxwin-entries.js";

export interface TomlStatement {
  kind: "table" | "array-table" | "key-value";
  /** The document path the statement defines (a key-value's includes its table's). */
  path: DocumentPath;
  /** First and last line (0-based, inclusive). */
  start: number;
  end: number;
}

/**
 * @example scanStatements('[mcp_servers."ctxwin"]\ncommand = "x"\n'.split("\n"))
 */
export function scanStatements(lines: readonly string[]): TomlStatement[] {
  const statements: TomlStatement[] = [];
  const arrayIndexes = new Map<string, number>();
  let table: DocumentPath = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = (lines[index] ?? "").replace(/\r$/, "");
    const trimmed = line.trimStart();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    if (trimmed.startsWith("[")) {
      const array = trimmed.startsWith("[[");
      const { keys } = readKey(trimmed, array ? 2 : 1);
      table = resolve(keys, array, arrayIndexes);
      statements.push({ kind: array ? "array-table" : "table", path: table, start: index, end: index });
      continue;
    }
    const { keys, rest } = readKey(trimmed, 0);
    const end = endOfValue(lines, index, rest.replace(/^\s*=/, ""));
    statements.push({ kind: "key-value", path: [...table, ...keys], start: index, end });
    index = end;
  }
  return statements;
}

/** The header's path, with the index of each array of tables it goes through. */
function resolve(keys: readonly string[], array: boolean, arrayIndexes: Map<string, number>): DocumentPath {
  const resolved: DocumentPath = [];
  keys.forEach((key, position) => {
    resolved.push(key);
    const id = JSON.stringify(resolved);
    if (array && position === keys.length - 1) {
      const next = (arrayIndexes.get(id) ?? -1) + 1;
      arrayIndexes.set(id, next);
      resolved.push(next);
    } else if (arrayIndexes.has(id)) resolved.push(arrayIndexes.get(id)!);
  });
  return resolved;
}

/** A dotted key starting at `from`, decoded, and the text after it. */
function readKey(text: string, from: number): { keys: string[]; rest: string } {
  const keys: string[] = [];
  let at = from;
  for (;;) {
    while (text[at] === " " || text[at] === "\t") at += 1;
    const quote = text[at];
    let raw: string;
    if (quote === '"' || quote === "'") {
      let close = at + 1;
      while (close < text.length && text[close] !== quote) close += quote === '"' && text[close] === "\\" ? 2 : 1;
      raw = text.slice(at, close + 1);
      keys.push((parse(`k = ${raw}`) as { k: string }).k);
      at = close + 1;
    } else {
      raw = /^[A-Za-z0-9_-]+/.exec(text.slice(at))?.[0] ?? "";
      keys.push(raw);
      at += raw.length;
    }
    while (text[at] === " " || text[at] === "\t") at += 1;
    if (text[at] !== ".") return { keys, rest: text.slice(at) };
    at += 1;
  }
}

/** The last line of a value that starts on line `index` (its strings and brackets closed). */
function endOfValue(lines: readonly string[], index: number, start: string): number {
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
    }
    if ((quote === undefined && depth <= 0) || line + 1 >= lines.length) return line;
    line += 1;
    text = lines[line] ?? "";
  }
}
