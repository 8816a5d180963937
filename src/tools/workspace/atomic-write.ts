/**
 * Atomic file replacement for the write tools: the content goes to a temporary file in the same
 * folder, is flushed, and is renamed over the target, so readers see the old or the new file,
 * never a mix. With `expected`, the target must still be the version that was read.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { refusal, type Refusal } from "./results.js";

/** Prefix of temporary files written next to their target. */
export const TEMPORARY_FILE_PREFIX = ".ctxwin-tmp-";

/** Identity of a file's version as read. */
export interface FileVersion {
  inode: number;
  size: number;
  modifiedMs: number;
}

/**
 * Writes `content` to `file` through a temporary file and a rename.
 *
 * @example
 * const problem = writeFileAtomic({ file: "/work/src/a.ts", content: "export {};\n", shown: "src/a.ts" });
 */
export function writeFileAtomic({ file, content, expected, shown }: { file: string; content: string; expected?: FileVersion; shown: string }): Refusal | undefined {
  const current = lstatOrUndefined(file);
  const mode = current?.isFile() === true ? current.mode & 0o7777 : 0o644;
  const temporary = path.join(path.dirname(file), `${TEMPORARY_FILE_PREFIX}${randomBytes(8).toString("hex")}`);
  const descriptor = fs.openSync(temporary, "wx", mode);
  let committed = false;
  try {
    try {
      fs.writeFileSync(descriptor, content);
      fs.fsyncSync(descriptor);
    } finally {
      fs.closeSync(descriptor);
    }
    if (expected !== undefined) {
      const now = lstatOrUndefined(file);
      if (now === undefined || !sameVersion(versionOf(now), expected)) {
        return refusal(`${shown} was changed by someone else while it was being edited; nothing was written. Read it again and retry.`);
      }
    }
    fs.renameSync(temporary, file);
    committed = true;
    return undefined;
  } finally {
    if (!committed) fs.rmSync(temporary, { force: true });
  }
}

/**
 * @example
 * writeFileAtomic({ file, content, expected: versionOf(statsWhenRead), shown });
 */
export function versionOf(stats: fs.Stats): FileVersion {
  return { inode: stats.ino, size: stats.size, modifiedMs: stats.mtimeMs };
}

function sameVersion(left: FileVersion, right: FileVersion): boolean {
  return left.inode === right.inode && left.size === right.size && left.modifiedMs === right.modifiedMs;
}

function lstatOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
