/**
 * Reading and writing memory files: text only (UTF-8 without NUL bytes), at most 100 KiB, written
 * atomically (a temporary file in the same directory, then a rename), with a last check that the
 * file is still the one that was read, so a concurrent edit is never silently overwritten.
 */
import fs from "node:fs";
import path from "node:path";
import {
  TEMPORARY_FILE_PREFIX,
  versionOf,
  writeFileAtomic as replaceFile,
  type AtomicWrite,
  type FileVersion,
} from "../../store/atomic-write.js";
import { processExists } from "./file-lock.js";
import { refusal, type Refusal } from "./results.js";

export { TEMPORARY_FILE_PREFIX, versionOf, type FileVersion } from "../../store/atomic-write.js";

/** Largest memory file (100 KiB); larger files are neither written nor read. */
export const MAX_MEMORY_FILE_BYTES = 100 * 1024;
/** Most files in one scope; a new file beyond it is refused. */
export const MAX_FILES_PER_SCOPE = 1000;

export interface TextFile {
  text: string;
  bytes: number;
  version: FileVersion;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/**
 * Reads a memory file, refusing binary content and files over the limit without reading them.
 *
 * @example
 * const file = readTextFile({ file: target.contentPath, shownPath: "/memories/project/a.md" });
 */
export function readTextFile({
  file,
  shownPath,
  maxBytes = MAX_MEMORY_FILE_BYTES,
}: {
  file: string;
  shownPath: string;
  maxBytes?: number;
}): TextFile | Refusal {
  const descriptor = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  try {
    const stats = fs.fstatSync(descriptor);
    if (!stats.isFile()) return refusal("not_a_file", `${shownPath} is not a regular file.`);
    if (stats.size > maxBytes) {
      return refusal(
        "file_too_large",
        `${shownPath} is ${formatBytes(stats.size)}, over the ${formatBytes(maxBytes)} limit for memory files; it is not read.`,
      );
    }
    const buffer = Buffer.alloc(stats.size);
    let offset = 0;
    while (offset < buffer.length) {
      const read = fs.readSync(descriptor, buffer, offset, buffer.length - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    const bytes = buffer.subarray(0, offset);
    if (bytes.includes(0))
      return refusal(
        "binary_file",
        `${shownPath} is a binary file (it contains NUL bytes); only text files can be used.`,
      );
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      return refusal("binary_file", `${shownPath} is not valid UTF-8 text; only text files can be used.`);
    }
    return { text, bytes: offset, version: versionOf(stats) };
  } finally {
    fs.closeSync(descriptor);
  }
}

/**
 * Refuses content that may not be written: NUL bytes, invalid Unicode, more than the limit.
 *
 * @example
 * const problem = checkTextContent({ text: input.file_text, shownPath });
 */
export function checkTextContent({
  text,
  shownPath,
  maxBytes = MAX_MEMORY_FILE_BYTES,
}: {
  text: string;
  shownPath: string;
  maxBytes?: number;
}): Refusal | undefined {
  if (text.includes("\u0000"))
    return refusal("binary_file", `The new content of ${shownPath} contains NUL bytes; memory files are text only.`);
  if (LONE_SURROGATE.test(text))
    return refusal("invalid_input", `The new content of ${shownPath} contains invalid Unicode (a lone surrogate).`);
  const bytes = encoder.encode(text).length;
  if (bytes > maxBytes) {
    return refusal(
      "file_too_large",
      `The new content of ${shownPath} would be ${formatBytes(bytes)}, ` +
        `over the ${formatBytes(maxBytes)} limit; make it shorter or split it into several files.`,
    );
  }
  return undefined;
}

export interface AtomicWriteOptions extends Omit<AtomicWrite, "mode"> {
  shownPath?: string;
}

const CONFLICTS = { exists: "was created by someone else", deleted: "was deleted", changed: "was changed" } as const;

/**
 * Writes `content` to `file` on the one atomic writer (`store/atomic-write.ts`), so readers see the
 * old or the new file, never a mix. With `expected`, refuses when the file changed since it was read.
 *
 * @example
 * const problem = writeFileAtomic({ file, content: "new text", expected: read.version, shownPath });
 */
export function writeFileAtomic({ shownPath, ...write }: AtomicWriteOptions): Refusal | undefined {
  const outcome = replaceFile(write);
  return outcome === "written" ? undefined : changed(shownPath ?? write.file, CONFLICTS[outcome]);
}

/**
 * Counts the files of a scope (hidden entries excluded, links not followed), stopping early once
 * `stopAfter` is passed.
 *
 * @example
 * if (countFiles({ directory: scopeDirectory, stopAfter: 1000 }) >= 1000) ...
 */
export function countFiles({
  directory,
  stopAfter = Number.POSITIVE_INFINITY,
}: {
  directory: string;
  stopAfter?: number;
}): number {
  let count = 0;
  const pending = [directory];
  while (pending.length > 0 && count <= stopAfter) {
    const current = pending.pop() as string;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      if (entry.isDirectory()) pending.push(path.join(current, entry.name));
      else count += 1;
    }
  }
  return count;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  return `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KiB`;
}

function changed(shownPath: string, what: string): Refusal {
  return refusal(
    "changed_concurrently",
    `${shownPath} ${what} while this command ran; nothing was written. View the file again and retry.`,
  );
}

/** A temporary file without a live owner is abandoned after this long (older ctxwin names carry no pid). */
export const ABANDONED_TEMPORARY_AFTER_MS = 10 * 60 * 1000;

/**
 * Removes the temporary files a killed writer left in a scope: those whose writer process is gone,
 * and those older than `ABANDONED_TEMPORARY_AFTER_MS` whatever their name says. Called by the
 * holder of the scope's lock, so no write of a live process of this scope is in progress.
 *
 * @example
 * removeAbandonedTemporaryFiles(layout.scopeDirectories.project);
 */
export function removeAbandonedTemporaryFiles(scopeDirectory: string, now = Date.now()): number {
  let removed = 0;
  const visit = (directory: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory() && depth < 16) visit(full, depth + 1);
      if (!entry.isFile() || !entry.name.startsWith(TEMPORARY_FILE_PREFIX)) continue;
      if (!isAbandoned(full, entry.name.slice(TEMPORARY_FILE_PREFIX.length), now)) continue;
      fs.rmSync(full, { force: true });
      removed += 1;
    }
  };
  visit(scopeDirectory, 0);
  return removed;
}

function isAbandoned(file: string, rest: string, now: number): boolean {
  const owner = /^(\d+)-/.exec(rest);
  const pid = owner === null ? Number.NaN : Number(owner[1]);
  if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !processExists(pid)) return true;
  try {
    return now - fs.statSync(file).mtimeMs > ABANDONED_TEMPORARY_AFTER_MS;
  } catch {
    return false;
  }
}
