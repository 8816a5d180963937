/**
 * What every memory command receives, what it hands back, and the small input helpers they share.
 */
import fs from "node:fs";
import path from "node:path";
import { withFileLock } from "./file-lock.js";
import type { MemoryLayout } from "./layout.js";
import { refusal, type Refusal } from "./results.js";
import { removeAbandonedTemporaryFiles } from "./text-files.js";
import { MEMORY_SCOPES, parseVirtualPath, type MemoryScope, type VirtualPath } from "./virtual-path.js";

export interface CommandContext {
  layout: MemoryLayout;
  maxFileBytes: number;
  maxFilesPerScope: number;
  lockWaitMs: number;
  /** Test hook passed to atomic writes: runs right before a write is committed. */
  beforeCommit?: () => void;
}

/** Input fields as the model sent them; absent fields may be `undefined` or `null`. */
export type CommandInput = Record<string, unknown>;

export interface CommandOutcome {
  text: string;
  changedPaths: string[];
  /** Files read or written: each counts as one access in the hot-memory index. */
  accessed: VirtualPath[];
  removed?: VirtualPath;
  moved?: { from: VirtualPath; to: VirtualPath };
}

/** Name of the lock file inside each scope directory (hidden, so never a memory path). */
export const SCOPE_LOCK_NAME = ".ctxwin.lock";

/**
 * Runs `run` while holding the write lock of every scope in `scopes`, taken in a fixed order so
 * that two renames in opposite directions cannot deadlock.
 *
 * @example
 * await withScopeLocks(context, ["project"], () => editFile());
 */
export async function withScopeLocks<T>(
  context: CommandContext,
  scopes: readonly MemoryScope[],
  run: () => T,
): Promise<T> {
  const ordered = MEMORY_SCOPES.filter((scope) => scopes.includes(scope));
  const runLocked = async (index: number): Promise<T> => {
    const scope = ordered[index];
    if (scope === undefined) return run();
    const directory = context.layout.scopeDirectories[scope];
    fs.mkdirSync(directory, { recursive: true });
    const runInScope = () => {
      removeAbandonedTemporaryFiles(directory);
      return runLocked(index + 1);
    };
    return withFileLock({
      lockFile: path.join(directory, SCOPE_LOCK_NAME),
      maxWaitMs: context.lockWaitMs,
      run: runInScope,
    });
  };
  return runLocked(0);
}

/**
 * The checked path in field `name`, or a refusal.
 *
 * @example
 * const parsed = pathField(input, "path");
 */
export function pathField(input: CommandInput, name: string): VirtualPath | Refusal {
  const value = input[name];
  if (value === undefined || value === null)
    return refusal("invalid_input", `${name} is required, e.g. "/memories/project/notes.md".`);
  const parsed = parseVirtualPath(value, name);
  return parsed.ok ? parsed.path : refusal(parsed.code, parsed.message);
}

/** A path that names something below a scope (not `/memories` or a scope root). */
export function entryPathField(input: CommandInput, name: string, command: string): VirtualPath | Refusal {
  const parsed = pathField(input, name);
  if ("code" in parsed) return parsed;
  if (parsed.segments.length === 0) {
    const what = parsed.scope === undefined ? "the memory root" : "a scope directory";
    return refusal(
      "invalid_input",
      `${parsed.text} is ${what}; ${command} works on files and folders inside a scope, ` +
        `e.g. ${parsed.text === "/memories" ? "/memories/project" : parsed.text}/notes.md.`,
    );
  }
  return parsed;
}

/**
 * The string in field `name`, or a refusal when it is missing or not a string.
 *
 * @example
 * const text = stringField(input, "file_text", "the whole content of the new file");
 */
export function stringField(input: CommandInput, name: string, meaning: string): string | Refusal {
  const value = input[name];
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return refusal("invalid_input", `${name} is required: ${meaning}.`);
  return refusal("invalid_input", `${name} must be a string (${meaning}).`);
}

/** Lines of a text; a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

/** `lines[from..to]` (1-based, inclusive) with right-aligned line numbers and a tab. */
export function numberLines(lines: readonly string[], from = 1, to = lines.length): string {
  const output: string[] = [];
  for (let number = Math.max(1, from); number <= Math.min(to, lines.length); number += 1) {
    output.push(`${String(number).padStart(6)}\t${lines[number - 1] ?? ""}`);
  }
  return output.join("\n");
}
