/**
 * Plans and applies `ctxwin setup`'s edits: every file is read and checked, and its new text
 * computed, before any is written; then the changed files are written one by one, and if one
 * write fails the files already written get their old text back. So a refused or failed setup
 * leaves every file as it was.
 */
import { rmSync } from "node:fs";
import { errorClass } from "../../core/errors.js";
import { JsonShapeProblem, installJson, uninstallJson } from "./json-settings.js";
import {
  SettingsFileProblem,
  checkWritable,
  readBackup,
  readSettingsFile,
  removeBackup,
  writeSettingsFile,
} from "./settings-file.js";
import type { SetupTarget } from "./setup-targets.js";
import { TomlShapeProblem, installTomlBlock, removeTomlEntries } from "./toml-block.js";

/** A setup that cannot go ahead: one line on stderr, exit code 1, no file changed. */
export class SetupCommandError extends errorClass("SetupCommandError") {}

export interface FileChange {
  file: string;
  /** The text before; undefined when the file does not exist. */
  before: string | undefined;
  /** The text after; equal to `before` when setup changes nothing. */
  after: string | undefined;
  mode: number;
  /** The user's text before ctxwin's first change (the backup beside the file), if any. */
  backup: string | undefined;
  action: "install" | "remove";
}

/**
 * @example const changes = planChanges(setupTargets(context), "install");
 */
export function planChanges(targets: readonly SetupTarget[], action: "install" | "remove"): FileChange[] {
  return targets.map((target) => {
    try {
      const { text: before, mode } = readSettingsFile(target.file);
      const backup = readBackup(target.file);
      const after = nextText(target, action, before, backup);
      if (after !== before) checkWritable(target.file);
      return { file: target.file, before, after, mode, backup, action };
    } catch (error) {
      if (
        error instanceof SettingsFileProblem ||
        error instanceof JsonShapeProblem ||
        error instanceof TomlShapeProblem
      ) {
        throw new SetupCommandError(`${target.file}: ${error.message}. Nothing was changed.`);
      }
      throw error;
    }
  });
}

function nextText(
  target: SetupTarget,
  action: "install" | "remove",
  before: string | undefined,
  backup: string | undefined,
): string | undefined {
  if (action === "remove" && before === undefined) return undefined;
  if (target.kind === "toml") {
    return action === "install"
      ? installTomlBlock(before ?? "", target.entries)
      : removeTomlEntries(before ?? "", target.entries.layout);
  }
  return action === "install"
    ? installJson(before, target.entries)
    : uninstallJson(before, target.entries, { original: backup });
}

/**
 * Writes the changed files (setup keeps the text before its first change as the backup); on a
 * failure, restores the files already written and throws.
 */
export function applyChanges(changes: readonly FileChange[]): void {
  const written: FileChange[] = [];
  for (const change of changes) {
    if (change.after === change.before || change.after === undefined) continue;
    try {
      // Only setup saves a backup: --remove on a file without one leaves none.
      writeSettingsFile({
        file: change.file,
        text: change.after,
        mode: change.mode,
        backup: change.action === "install" ? change.before : undefined,
      });
      written.push(change);
    } catch (error) {
      const restored = restore(written);
      throw new SetupCommandError(`${change.file}: writing failed (${(error as Error).message}); ${restored}`);
    }
  }
  // A file back to the user's own text: its backup says nothing more.
  for (const change of written)
    if (change.action === "remove" && change.after === change.backup) removeBackup(change.file);
}

function restore(written: readonly FileChange[]): string {
  try {
    for (const change of written) {
      if (change.before === undefined) rmSync(change.file, { force: true });
      else writeSettingsFile({ file: change.file, text: change.before, mode: change.mode, backup: undefined });
    }
    return written.length === 0
      ? "nothing was changed."
      : "the files written before it were restored; nothing was changed.";
  } catch (error) {
    return `restoring the files written before it failed too (${(error as Error).message}); their old text is in the .ctxwin-backup files beside them.`;
  }
}
