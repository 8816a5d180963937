/**
 * Edits of JSON text that touch only the bytes of the value they change (jsonc-parser finds the
 * nodes; the new bytes are written in the file's own indentation and line ends). An insertion
 * and the removal of what it inserted are exact inverses, so a file setup edited and `--remove`
 * cleaned is byte for byte what it was. Everything else — numbers too large for a double,
 * `1e400`, arrays on one line, a byte order mark — is never re-serialized.
 */
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import type { DocumentPath } from "./ctxwin-entries.js";

/** JSON ctxwin will not edit, and why (one sentence). */
export class JsonShapeProblem extends Error {}

/** How new bytes are written: the file's indentation unit and line end. */
interface Style {
  indent: string;
  eol: string;
}

/**
 * The text's root node (an object), or a refusal naming the first syntax error.
 *
 * @example rootOf('{"a": 1}').type // "object"
 */
export function rootOf(text: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const [first] = errors;
  if (first !== undefined || root === undefined) {
    const { line, column } = position(text, first?.offset ?? 0);
    const problem = first === undefined ? "no value" : printParseErrorCode(first.error);
    throw new JsonShapeProblem(`it is not valid JSON (${problem} at line ${line} column ${column})`);
  }
  if (root.type !== "object") throw new JsonShapeProblem("it is not a JSON object");
  return root;
}

/**
 * `text` with the value at `path` set: replaced where it is, else added to the nearest container
 * that exists (the missing containers around it are created).
 *
 * @example setValue('{"a": 1}', ["b", "c"], 2) // '{"a": 1, "b": {"c":2}}'
 */
export function setValue(text: string, path: DocumentPath, value: unknown): string {
  const node = findNodeAtLocation(rootOf(text), path);
  if (node !== undefined) {
    return splice(text, node.offset, node.length, format(value, styleOf(text), lineIndent(text, node.offset)));
  }
  let parentPath = path.slice(0, -1);
  let wrapped: unknown = value;
  let key = path.at(-1)!;
  while (findNodeAtLocation(rootOf(text), parentPath) === undefined) {
    wrapped = typeof key === "number" ? [wrapped] : { [key]: wrapped };
    key = parentPath.at(-1)!;
    parentPath = parentPath.slice(0, -1);
  }
  const parent = findNodeAtLocation(rootOf(text), parentPath)!;
  return insertChild(text, parent, typeof key === "string" ? key : undefined, wrapped);
}

/** `text` with `value` as the last element of the array at `path` (created when missing). */
export function appendValue(text: string, path: DocumentPath, value: unknown): string {
  const array = findNodeAtLocation(rootOf(text), path);
  if (array === undefined) return setValue(text, path, [value]);
  return insertChild(text, array, undefined, value);
}

/** `text` without the property or element at `path` (and the comma and line that held it). */
export function removeValue(text: string, path: DocumentPath): string {
  const value = findNodeAtLocation(rootOf(text), path);
  if (value === undefined) return text;
  const member = value.parent?.type === "property" ? value.parent : value;
  const container = member.parent!;
  const siblings = container.children ?? [];
  const index = siblings.indexOf(member);
  if (siblings.length === 1) return splice(text, container.offset + 1, container.length - 2, "");
  if (index > 0) {
    const previous = siblings[index - 1]!;
    const start = previous.offset + previous.length;
    return splice(text, start, member.offset + member.length - start, "");
  }
  return splice(text, member.offset, siblings[1]!.offset - member.offset, "");
}

/** Whether the container at `path` exists and is empty. */
export function isEmptyAt(text: string, path: DocumentPath): boolean {
  const node = findNodeAtLocation(rootOf(text), path);
  return node !== undefined && (node.type === "object" || node.type === "array") && (node.children ?? []).length === 0;
}

function insertChild(text: string, container: Node, key: string | undefined, value: unknown): string {
  const style = styleOf(text);
  const children = container.children ?? [];
  const last = children.at(-1);
  const containerText = text.slice(container.offset, container.offset + container.length);
  const prefix = key === undefined ? "" : `${JSON.stringify(key)}: `;
  if (last === undefined) {
    const outer = lineIndent(text, container.offset);
    const inner = outer + style.indent;
    const member = `${prefix}${format(value, style, inner)}`;
    const inside = `${style.eol}${inner}${member}${style.eol}${outer}`;
    return splice(text, container.offset + 1, container.length - 2, inside);
  }
  const end = last.offset + last.length;
  if (!containerText.includes("\n")) return splice(text, end, 0, `, ${prefix}${JSON.stringify(value)}`);
  const indent = lineIndent(text, last.offset);
  return splice(text, end, 0, `,${style.eol}${indent}${prefix}${format(value, style, indent)}`);
}

/** `value` as JSON in the file's indentation, continuing at `indent`. */
function format(value: unknown, style: Style, indent: string): string {
  return JSON.stringify(value, null, style.indent).replaceAll("\n", `${style.eol}${indent}`);
}

function styleOf(text: string): Style {
  return { indent: /^([ \t]+)["{[\]}]/m.exec(text)?.[1] ?? "  ", eol: text.includes("\r\n") ? "\r\n" : "\n" };
}

/** The spaces or tabs that start the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))?.[0] ?? "";
}

function splice(text: string, offset: number, length: number, insert: string): string {
  return `${text.slice(0, offset)}${insert}${text.slice(offset + length)}`;
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
}
