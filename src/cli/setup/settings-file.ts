/**
 * Reading and writing the settings files `ctxwin setup` edits, safely: a symbolic link, a file
 * that is not a regular file, or one this user cannot write is refused before anything is
 * written; a change is written to a temporary file beside the target and renamed over it (a
 * reader sees the old file or the new one, never half of one), keeping the file's mode. The
 * first backup of a file, `<file>.ctxwin-backup`, is the user's text before ctxwin's first change
 * and is never overwritten. Concurrent setups take turns: each holds `<file>.ctxwin-lock` for
 * every file it edits while it reads, plans and writes (ADR 0075).
 */
import { constants, accessSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../../store/atomic-write.js";

export const BACKUP_SUFFIX = ".ctxwin-backup";
export const LOCK_SUFFIX = ".ctxwin-lock";

/** A settings file `ctxwin setup` will not touch, and why (one sentence). */
export class SettingsFileProblem extends Error {}

export interface SettingsFile {
  file: string;
  /** The file's text, or undefined when it does not exist yet. */
  text: string | undefined;
  /** Permission bits to give the new file (the old file's, or 0o644). */
  mode: number;
}

/**
 * @example const { text } = readSettingsFile("/home/me/.claude/settings.json");
 */
export function readSettingsFile(file: string): SettingsFile {
  let stats;
  try {
    stats = lstatSync(file, { throwIfNoEntry: false });
  } catch (error) {
    throw new SettingsFileProblem(`cannot look at it (${(error as Error).message})`);
  }
  if (stats === undefined) return { file, text: undefined, mode: 0o644 };
  if (stats.isSymbolicLink())
    throw new SettingsFileProblem(
      "it is a symbolic link; ctxwin setup edits only regular files (edit the file it points to by hand, or replace the link with a copy)",
    );
  if (!stats.isFile()) throw new SettingsFileProblem("it is not a regular file");
  // Root may write any file, so access() says yes; a file without its owner's write bit is the
  // owner saying "do not change this", and root's changes are refused too.
  const uid = process.getuid?.();
  if ((uid === 0 || uid === stats.uid) && (stats.mode & 0o200) === 0) throw new SettingsFileProblem(READ_ONLY);
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
  } catch {
    throw new SettingsFileProblem(READ_ONLY);
  }
  return { file, text: readFileSync(file, "utf8"), mode: stats.mode & 0o7777 };
}

const READ_ONLY = "it is read-only for this user; make it writable (chmod u+w) and run setup again";

/** The user's text before ctxwin's first change to `file` (its backup), if there is one. */
export function readBackup(file: string): string | undefined {
  const backup = `${file}${BACKUP_SUFFIX}`;
  return lstatSync(backup, { throwIfNoEntry: false })?.isFile() === true ? readFileSync(backup, "utf8") : undefined;
}

/** Deletes `file`'s backup (after `--remove` gave the file back exactly the backup's text). */
export function removeBackup(file: string): void {
  rmSync(`${file}${BACKUP_SUFFIX}`, { force: true });
}

/**
 * Runs `work` while holding `<file>.ctxwin-lock` for each file (sorted, so two setups cannot
 * wait for each other). A lock whose process has ended is taken over; `onWait` is told once when
 * another setup holds one; after `waitMs` the setup is refused.
 *
 * @example withLocks({ files: [settings], work: () => applyChanges(planChanges(targets, "install")) });
 */
export function withLocks<T>({
  files,
  work,
  createFolders = true,
  onWait,
  waitMs = 60_000,
}: {
  files: readonly string[];
  work: () => T;
  /** Create a missing folder to hold the lock (setup writes there anyway; `--remove` does not). */
  createFolders?: boolean;
  onWait?: (message: string) => void;
  waitMs?: number;
}): T {
  const held: string[] = [];
  try {
    for (const file of [...new Set(files)].sort()) {
      if (!existsSync(path.dirname(file))) {
        // A folder that is not there holds no file to remove; one setup cannot create is refused by the plan.
        if (!createFolders || !canCreateFolder(path.dirname(file))) continue;
        mkdirSync(path.dirname(file), { recursive: true });
      }
      acquire(`${file}${LOCK_SUFFIX}`, file, { onWait, waitMs });
      held.push(`${file}${LOCK_SUFFIX}`);
    }
    return work();
  } finally {
    for (const lock of held) rmSync(lock, { force: true });
  }
}

function acquire(
  lock: string,
  file: string,
  { onWait, waitMs }: { onWait: ((message: string) => void) | undefined; waitMs: number },
): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let waited = 0;
  for (;;) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: "wx" });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new SettingsFileProblem(`cannot create its lock ${lock} (${(error as Error).message})`);
      }
    }
    const content = readIfThere(lock);
    if (content === undefined) continue;
    const holder = Number.parseInt(content, 10);
    if (Number.isInteger(holder) && holder > 0 && !isRunning(holder)) {
      rmSync(lock, { force: true });
      continue;
    }
    const other = `another ctxwin setup (process ${Number.isNaN(holder) ? "?" : holder})`;
    if (waited === 0) onWait?.(`${file}: ${other} is editing it; waiting for it to finish`);
    if (waited >= waitMs) {
      throw new SettingsFileProblem(
        `${other} has held ${lock} for ${waitMs / 1000} s; if none is running, delete that file`,
      );
    }
    Atomics.wait(pause, 0, 0, 50);
    waited += 50;
  }
}

/** The file's text, or undefined when it is gone (a lock released while we looked). */
function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function canCreateFolder(folder: string): boolean {
  try {
    checkWritable(path.join(folder, "x"));
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks that `file` could be written (its folder exists or can be created, and is writable),
 * without writing anything.
 */
export function checkWritable(file: string): void {
  let folder = path.dirname(file);
  for (;;) {
    const stats = lstatSync(folder, { throwIfNoEntry: false });
    if (stats !== undefined) {
      if (!stats.isDirectory() && !lstatSync(folder).isSymbolicLink())
        throw new SettingsFileProblem(`${folder} is not a folder`);
      try {
        accessSync(folder, constants.W_OK | constants.X_OK);
      } catch {
        throw new SettingsFileProblem(`its folder ${folder} is not writable for this user`);
      }
      return;
    }
    const parent = path.dirname(folder);
    if (parent === folder) return;
    folder = parent;
  }
}

/**
 * Writes `text` to `file` atomically (`store/atomic-write.ts`: temporary file, fsync, rename).
 * `backup` is the text before this change: it becomes `<file>.ctxwin-backup`, with the file's
 * mode, only when there is no backup yet (the first backup is the user's original; ctxwin's own
 * output never replaces it).
 *
 * @example writeSettingsFile({ file, text: next, mode: 0o644, backup: previous });
 */
export function writeSettingsFile({
  file,
  text,
  mode,
  backup,
}: {
  file: string;
  text: string;
  mode: number;
  backup: string | undefined;
}): void {
  mkdirSync(path.dirname(file), { recursive: true });
  // An existing backup is the user's original: "exists" leaves it as it is.
  if (backup !== undefined)
    writeFileAtomic({ file: `${file}${BACKUP_SUFFIX}`, content: backup, expected: "absent", mode: mode & 0o777 });
  writeFileAtomic({ file, content: text, mode: mode & 0o777 });
}
