/**
 * `create`, `str_replace` and `insert`. Each holds its scope's write lock, re-reads the file inside
 * it and replaces the file atomically, so an edit always applies to the current content: text
 * that another process already changed is not found, and the command fails instead of undoing
 * that change.
 */
import fs from "node:fs";
import path from "node:path";
import { integerFromText } from "../../core/integer-input.js";
import {
  entryPathField,
  numberLines,
  splitLines,
  stringField,
  withScopeLocks,
  type CommandContext,
  type CommandInput,
  type CommandOutcome,
} from "./command-context.js";
import { resolveHostTarget, type HostTarget } from "./host-paths.js";
import { isRefusal, refusal, type Refusal } from "./results.js";
import {
  checkTextContent,
  countFiles,
  formatBytes,
  readTextFile,
  versionOf,
  writeFileAtomic,
  type TextFile,
} from "./text-files.js";
import type { VirtualPath } from "./virtual-path.js";

/** Lines of context shown around an edit. */
const SNIPPET_CONTEXT = 2;
const SNIPPET_MAX_LINES = 30;

export async function createCommand(context: CommandContext, input: CommandInput): Promise<CommandOutcome | Refusal> {
  const virtualPath = entryPathField(input, "path", "create");
  if (isRefusal(virtualPath)) return virtualPath;
  const text = stringField(input, "file_text", "the whole content of the new file");
  if (isRefusal(text)) return text;
  const overwrite = input["overwrite"];
  if (overwrite !== undefined && overwrite !== null && typeof overwrite !== "boolean")
    return refusal("invalid_input", "overwrite must be true or false.");
  const problem = checkTextContent({ text, shownPath: virtualPath.text, maxBytes: context.maxFileBytes });
  if (problem !== undefined) return problem;
  const bytes = Buffer.byteLength(text, "utf8");

  return withScopeLocks(context, [virtualPath.scope as NonNullable<VirtualPath["scope"]>], () => {
    const target = resolveHostTarget({ layout: context.layout, virtualPath, createScope: true });
    if (isRefusal(target)) return target;
    if (target.kind === "directory")
      return refusal("is_directory", `${virtualPath.text} is a directory; choose a file name inside it.`);
    if (target.kind === "other") return refusal("not_a_file", `${virtualPath.text} exists and is not a regular file.`);
    if (target.kind === "file") {
      if (overwrite !== true) {
        return refusal(
          "already_exists",
          `${virtualPath.text} already exists. Use str_replace or insert to change it, or create with overwrite: true to replace all of it.`,
        );
      }
      const written = writeFileAtomic({
        file: target.contentPath,
        content: text,
        expected: versionOf(fs.statSync(target.contentPath)),
        shownPath: virtualPath.text,
        beforeCommit: context.beforeCommit,
      });
      if (written !== undefined) return written;
      return changedOutcome(virtualPath, `Replaced the content of ${virtualPath.text} (${formatBytes(bytes)}).`);
    }
    const scopeDirectory = target.scopeDirectory as string;
    if (countFiles({ directory: scopeDirectory, stopAfter: context.maxFilesPerScope }) >= context.maxFilesPerScope) {
      return refusal(
        "too_many_files",
        `/memories/${target.scope} already holds ${context.maxFilesPerScope} files, the limit; delete or merge files first.`,
      );
    }
    fs.mkdirSync(path.dirname(target.contentPath), { recursive: true });
    const written = writeFileAtomic({
      file: target.contentPath,
      content: text,
      expected: "absent",
      shownPath: virtualPath.text,
      beforeCommit: context.beforeCommit,
    });
    if (written !== undefined) return written;
    return changedOutcome(virtualPath, `Created ${virtualPath.text} (${formatBytes(bytes)}).`);
  });
}

export async function strReplaceCommand(
  context: CommandContext,
  input: CommandInput,
): Promise<CommandOutcome | Refusal> {
  const virtualPath = entryPathField(input, "path", "str_replace");
  if (isRefusal(virtualPath)) return virtualPath;
  const oldText = stringField(input, "old_str", "the exact text to replace, appearing once in the file");
  if (isRefusal(oldText)) return oldText;
  const newText = stringField(input, "new_str", "the replacement text (an empty string deletes old_str)");
  if (isRefusal(newText)) return newText;
  if (oldText === "") return refusal("invalid_input", "old_str must not be empty; to add text use insert.");
  if (oldText === newText) return refusal("invalid_input", "old_str and new_str are identical; nothing would change.");

  return withScopeLocks(context, [virtualPath.scope as NonNullable<VirtualPath["scope"]>], () => {
    const opened = openExistingFile(context, virtualPath);
    if (isRefusal(opened)) return opened;
    const { target, file } = opened;
    const matches = findAll(file.text, oldText);
    if (matches.length === 0) {
      return refusal(
        "no_match",
        `old_str was not found in ${virtualPath.text}; the file may have changed. View it and copy the text exactly, including whitespace.`,
      );
    }
    if (matches.length > 1) {
      const lines = matches.map((index) => lineOf(file.text, index));
      return refusal(
        "ambiguous_match",
        `old_str appears ${matches.length} times in ${virtualPath.text} (at lines ${lines.join(", ")}); ` +
          "include more surrounding text so that it matches exactly once.",
      );
    }
    const at = matches[0] as number;
    const updated = file.text.slice(0, at) + newText + file.text.slice(at + oldText.length);
    const written = writeChecked(context, target, virtualPath, updated, file);
    if (written !== undefined) return written;
    const firstLine = lineOf(updated, at);
    const changedLines = Math.max(1, splitLines(newText).length);
    return changedOutcome(
      virtualPath,
      `Edited ${virtualPath.text}: replaced the text at line ${lineOf(file.text, at)}.\n${snippet(updated, firstLine, changedLines)}`,
    );
  });
}

export async function insertCommand(context: CommandContext, input: CommandInput): Promise<CommandOutcome | Refusal> {
  const virtualPath = entryPathField(input, "path", "insert");
  if (isRefusal(virtualPath)) return virtualPath;
  const insertText = stringField(input, "insert_text", "the text to insert");
  if (isRefusal(insertText)) return insertText;
  if (insertText === "") return refusal("invalid_input", 'insert_text is empty; use "\\n" to insert a blank line.');
  const line = integerFromText(input["insert_line"]);
  if (typeof line !== "number" || !Number.isSafeInteger(line) || line < 0) {
    return refusal(
      "invalid_input",
      "insert_line must be a whole number ≥ 0: the line after which to insert (0 inserts at the top).",
    );
  }

  return withScopeLocks(context, [virtualPath.scope as NonNullable<VirtualPath["scope"]>], () => {
    const opened = openExistingFile(context, virtualPath);
    if (isRefusal(opened)) return opened;
    const { target, file } = opened;
    const lines = splitLines(file.text);
    if (line > lines.length) {
      return refusal(
        "invalid_input",
        `insert_line must be from 0 to ${lines.length} (${virtualPath.text} has ${lines.length} line(s)); got ${line}.`,
      );
    }
    const inserted = splitLines(insertText);
    const keepsFinalNewline = file.text === "" || file.text.endsWith("\n");
    const result = [...lines.slice(0, line), ...inserted, ...lines.slice(line)];
    const updated = `${result.join("\n")}${keepsFinalNewline ? "\n" : ""}`;
    const written = writeChecked(context, target, virtualPath, updated, file);
    if (written !== undefined) return written;
    return changedOutcome(
      virtualPath,
      `Inserted ${inserted.length} line(s) into ${virtualPath.text} after line ${line}.\n${snippet(updated, line + 1, inserted.length)}`,
    );
  });
}

function openExistingFile(
  context: CommandContext,
  virtualPath: VirtualPath,
): { target: HostTarget; file: TextFile } | Refusal {
  const target = resolveHostTarget({ layout: context.layout, virtualPath, createScope: true });
  if (isRefusal(target)) return target;
  if (target.kind === "missing") return refusal("not_found", `${virtualPath.text} does not exist; create it first.`);
  if (target.kind === "directory") return refusal("is_directory", `${virtualPath.text} is a directory, not a file.`);
  if (target.kind === "other") return refusal("not_a_file", `${virtualPath.text} is not a regular file.`);
  const file = readTextFile({ file: target.contentPath, shownPath: virtualPath.text, maxBytes: context.maxFileBytes });
  if (isRefusal(file)) return file;
  return { target, file };
}

function writeChecked(
  context: CommandContext,
  target: HostTarget,
  virtualPath: VirtualPath,
  updated: string,
  read: TextFile,
): Refusal | undefined {
  const problem = checkTextContent({ text: updated, shownPath: virtualPath.text, maxBytes: context.maxFileBytes });
  if (problem !== undefined) return problem;
  return writeFileAtomic({
    file: target.contentPath,
    content: updated,
    expected: read.version,
    shownPath: virtualPath.text,
    beforeCommit: context.beforeCommit,
  });
}

function changedOutcome(virtualPath: VirtualPath, text: string): CommandOutcome {
  return { text, changedPaths: [virtualPath.text], accessed: [virtualPath] };
}

/** Start offsets of every occurrence, overlapping ones included. */
function findAll(text: string, search: string): number[] {
  const found: number[] = [];
  for (let index = text.indexOf(search); index !== -1; index = text.indexOf(search, index + 1)) found.push(index);
  return found;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf("\n"); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) line += 1;
  return line;
}

function snippet(text: string, firstChangedLine: number, changedLineCount: number): string {
  const lines = splitLines(text);
  const from = Math.max(1, firstChangedLine - SNIPPET_CONTEXT);
  const to = Math.min(
    lines.length,
    firstChangedLine + changedLineCount - 1 + SNIPPET_CONTEXT,
    from + SNIPPET_MAX_LINES - 1,
  );
  if (lines.length === 0) return "The file is now empty.";
  return `Lines ${from} to ${to} now read:\n${numberLines(lines, from, to)}`;
}
