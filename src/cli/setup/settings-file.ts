/**
 * Reading and writing the settings files `ctxwin setup` edits, safely: a symbolic link, a file
 * that is not a regular file, or one this user cannot write is refused before anything is
 * written; a change is written to a temporary file beside the target and renamed over it (a
 * reader sees the old file or the new one, never half of one), keeping the file's mode; the
 * previous text is kept beside it as `<file>.ctxwin-backup`.
 */
import { constants, accessSync, chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export const BACKUP_SUFFIX = ".ctxwin-backup";

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
  if (stats.isSymbolicLink()) throw new SettingsFileProblem("it is a symbolic link; ctxwin setup edits only regular files (edit the file it points to by hand, or replace the link with a copy)");
  if (!stats.isFile()) throw new SettingsFileProblem("it is not a regular file");
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
  } catch {
    throw new SettingsFileProblem("it is read-only for this user; make it writable (chmod u+w) and run setup again");
  }
  return { file, text: readFileSync(file, "utf8"), mode: stats.mode & 0o7777 };
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
      if (!stats.isDirectory() && !lstatSync(folder).isSymbolicLink()) throw new SettingsFileProblem(`${folder} is not a folder`);
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
 * Writes `text` to `file` atomically (temporary file, then rename); `backup` is the previous
 * text, written the same way to `<file>.ctxwin-backup` first.
 *
 * @example writeSettingsFile({ file, text: next, mode: 0o644, backup: previous });
 */
export function writeSettingsFile({ file, text, mode, backup }: { file: string; text: string; mode: number; backup: string | undefined }): void {
  mkdirSync(path.dirname(file), { recursive: true });
  if (backup !== undefined) writeAtomically(`${file}${BACKUP_SUFFIX}`, backup, mode);
  writeAtomically(file, text, mode);
}

function writeAtomically(file: string, text: string, mode: number): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.ctxwin-${process.pid}.tmp`);
  try {
    writeFileSync(temporary, text, { mode, flag: "wx" });
    chmodSync(temporary, mode);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
