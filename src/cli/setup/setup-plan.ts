/**
 * Plans and applies `ctxwin setup`'s edits: every file is read and checked, and its new text
 * computed, before any is written; then the changed files are written one by one, and if one
 * write fails the files already written get their old text back. So a refused or failed setup
 * leaves every file as it was.
 */
import { rmSync } from "node:fs";
import { CtxwinError } from "../../core/errors.js";
import { JsonShapeProblem, installJson, parseSettings, renderSettings, uninstallJson } from "./json-settings.js";
import { SettingsFileProblem, checkWritable, readSettingsFile, writeSettingsFile } from "./settings-file.js";
import type { SetupTarget } from "./setup-targets.js";
import { TomlShapeProblem, installTomlBlock, removeTomlBlock } from "./toml-block.js";

/** A setup that cannot go ahead: one line on stderr, exit code 1, no file changed. */
export class SetupCommandError extends CtxwinError {
  constructor(message: string) {
    super("SetupCommandError", message);
  }

  static override isInstance(error: unknown): error is SetupCommandError {
    return CtxwinError.isInstance(error) && error.name === "SetupCommandError";
  }
}

export interface FileChange {
  file: string;
  /** The text before; undefined when the file does not exist. */
  before: string | undefined;
  /** The text after; equal to `before` when setup changes nothing. */
  after: string | undefined;
  mode: number;
}

/**
 * @example const changes = planChanges(setupTargets(context), "install");
 */
export function planChanges(targets: readonly SetupTarget[], action: "install" | "remove"): FileChange[] {
  return targets.map((target) => {
    try {
      const { text: before, mode } = readSettingsFile(target.file);
      const after = nextText(target, action, before);
      if (after !== before) checkWritable(target.file);
      return { file: target.file, before, after, mode };
    } catch (error) {
      if (error instanceof SettingsFileProblem || error instanceof JsonShapeProblem || error instanceof TomlShapeProblem) {
        throw new SetupCommandError(`${target.file}: ${error.message}. Nothing was changed.`);
      }
      throw error;
    }
  });
}

function nextText(target: SetupTarget, action: "install" | "remove", before: string | undefined): string | undefined {
  if (action === "remove" && before === undefined) return undefined;
  if (target.kind === "toml") return action === "install" ? installTomlBlock(before ?? "", target.block, { clashes: target.clashes }) : removeTomlBlock(before ?? "");
  const settings = parseSettings(before);
  const next =
    action === "install"
      ? installJson(settings, target.entries)
      : uninstallJson(settings, {
          ...(target.entries.mcpServer === undefined ? {} : { mcpServer: target.entries.mcpServer }),
          sessionStart: target.entries.sessionStart !== undefined,
        });
  return renderSettings(before, settings, next);
}

/**
 * Writes the changed files (each with a backup of its old text); on a failure, restores the
 * files already written and throws.
 */
export function applyChanges(changes: readonly FileChange[]): void {
  const written: FileChange[] = [];
  for (const change of changes) {
    if (change.after === change.before || change.after === undefined) continue;
    try {
      writeSettingsFile({ file: change.file, text: change.after, mode: change.mode, backup: change.before });
      written.push(change);
    } catch (error) {
      const restored = restore(written);
      throw new SetupCommandError(`${change.file}: writing failed (${(error as Error).message}); ${restored}`);
    }
  }
}

function restore(written: readonly FileChange[]): string {
  try {
    for (const change of written) {
      if (change.before === undefined) rmSync(change.file, { force: true });
      else writeSettingsFile({ file: change.file, text: change.before, mode: change.mode, backup: undefined });
    }
    return written.length === 0 ? "nothing was changed." : "the files written before it were restored; nothing was changed.";
  } catch (error) {
    return `restoring the files written before it failed too (${(error as Error).message}); their old text is in the .ctxwin-backup files beside them.`;
  }
}
