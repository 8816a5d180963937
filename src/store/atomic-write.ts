/**
 * The one way ctxwin replaces a file (memory files, workspace files, `ctxwin setup`'s settings, the
 * web UI's config.json; ADR 0091): the content goes to a temporary file in the target's folder, is
 * flushed to disk (fsync), gets its mode, and is renamed over the target (or linked, to create
 * only); then the folder is flushed, so the new name survives a power cut. A reader sees the old
 * file or the new one, never a mix, and a crash leaves at most a temporary file behind.
 *
 * Mode: a file that exists keeps its permission bits (`mode & 0o777`: setuid, setgid and sticky are
 * not carried over to new content); a new file gets `mode` (default 0o644), set exactly, whatever
 * the umask. Locks are the callers' (the memory tool's scope lock, setup's `<file>.ctxwin-lock`).
 * Here in store/, the lowest layer that does I/O, so every layer above can use it.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Prefix of temporary files, followed by the writer's pid and a random part: hidden names, which
 * the memory tool refuses as paths (so they never collide) and clears after a killed writer.
 */
export const TEMPORARY_FILE_PREFIX = ".ctxwin-tmp-";
/** Permission bits of a new file when the caller names none. */
export const DEFAULT_FILE_MODE = 0o644;

/** Identity of a file's version as read: a write compares it before replacing the file. */
export interface FileVersion {
  inode: number;
  size: number;
  modifiedMs: number;
}

export interface AtomicWrite {
  file: string;
  content: string | Uint8Array;
  /** The version that was read (replace only that), or `"absent"` (create only). `undefined`: replace whatever is there. */
  expected?: FileVersion | "absent";
  /** Permission bits of a new file (default 0o644); an existing file keeps its own. */
  mode?: number;
  /** Test hook: runs after the temporary file is written, right before the final check. */
  beforeCommit?: () => void;
}

/** `written`, or why nothing was: the file was `changed` or `deleted` since it was read, or it `exists` (create only). */
export type AtomicWriteOutcome = "written" | "changed" | "deleted" | "exists";

/**
 * @example
 * const outcome = writeFileAtomic({ file, content: "new text", expected: versionOf(statsWhenRead) });
 * if (outcome !== "written") return refusal(`${shown} was ${outcome} meanwhile; nothing was written.`);
 */
export function writeFileAtomic({
  file,
  content,
  expected,
  mode = DEFAULT_FILE_MODE,
  beforeCommit,
}: AtomicWrite): AtomicWriteOutcome {
  const directory = path.dirname(file);
  const current = lstatIfExists(file);
  const finalMode = current?.isFile() === true ? current.mode & 0o777 : mode;
  const temporary = path.join(directory, `${TEMPORARY_FILE_PREFIX}${process.pid}-${randomBytes(8).toString("hex")}`);
  const descriptor = fs.openSync(temporary, "wx", 0o600);
  let committed = false;
  try {
    try {
      fs.writeFileSync(descriptor, content);
      fs.fchmodSync(descriptor, finalMode);
      fs.fsyncSync(descriptor);
    } finally {
      fs.closeSync(descriptor);
    }
    beforeCommit?.();
    if (expected === "absent") {
      // link() creates the name only if nothing is there: a file created meanwhile is never replaced.
      try {
        fs.linkSync(temporary, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return "exists";
        throw error;
      }
    } else {
      if (expected !== undefined) {
        const now = lstatIfExists(file);
        if (now === undefined) return "deleted";
        if (!sameVersion(versionOf(now), expected)) return "changed";
      }
      fs.renameSync(temporary, file);
    }
    committed = true;
    syncDirectory(directory);
    return "written";
  } finally {
    if (!committed || expected === "absent") fs.rmSync(temporary, { force: true });
  }
}

/**
 * @example writeFileAtomic({ file, content, expected: versionOf(fs.statSync(file)) });
 */
export function versionOf(stats: fs.Stats): FileVersion {
  return { inode: stats.ino, size: stats.size, modifiedMs: stats.mtimeMs };
}

function sameVersion(left: FileVersion, right: FileVersion): boolean {
  return left.inode === right.inode && left.size === right.size && left.modifiedMs === right.modifiedMs;
}

function lstatIfExists(file: string): fs.Stats | undefined {
  return fs.lstatSync(file, { throwIfNoEntry: false });
}

/** Flushes a folder's entries (the new name). Windows cannot open a folder for this; there the rename is all. */
function syncDirectory(directory: string): void {
  let descriptor: number;
  try {
    descriptor = fs.openSync(directory, "r");
  } catch (error) {
    if (process.platform === "win32") return;
    throw error;
  }
  try {
    fs.fsyncSync(descriptor);
  } catch (error) {
    if (!["EINVAL", "EISDIR", "EPERM"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
  } finally {
    fs.closeSync(descriptor);
  }
}
