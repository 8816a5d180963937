/**
 * `delete` and `rename`: remove or move a file or a whole folder inside the memory tree. Scope
 * roots and `/memories` itself cannot be deleted or moved; a move never replaces an existing entry.
 */
import fs from "node:fs";
import path from "node:path";
import {
  entryPathField,
  withScopeLocks,
  type CommandContext,
  type CommandInput,
  type CommandOutcome,
} from "./command-context.js";
import { resolveHostTarget } from "./host-paths.js";
import { isRefusal, refusal, type Refusal } from "./results.js";
import { countFiles } from "./text-files.js";
import type { MemoryScope, VirtualPath } from "./virtual-path.js";

export async function deleteCommand(context: CommandContext, input: CommandInput): Promise<CommandOutcome | Refusal> {
  const virtualPath = entryPathField(input, "path", "delete");
  if (isRefusal(virtualPath)) return virtualPath;
  return withScopeLocks(context, [virtualPath.scope as MemoryScope], () => {
    const target = resolveHostTarget({ layout: context.layout, virtualPath, createScope: true });
    if (isRefusal(target)) return target;
    if (target.kind === "missing")
      return refusal("not_found", `${virtualPath.text} does not exist; nothing was deleted.`);
    let text = `Deleted ${virtualPath.text}.`;
    if (target.isLink || target.kind !== "directory") fs.unlinkSync(target.entryPath);
    else {
      const files = countFiles({ directory: target.entryPath });
      fs.rmSync(target.entryPath, { recursive: true });
      text = `Deleted the folder ${virtualPath.text} and the ${files} file(s) in it.`;
    }
    return { text, changedPaths: [virtualPath.text], accessed: [], removed: virtualPath };
  });
}

export async function renameCommand(context: CommandContext, input: CommandInput): Promise<CommandOutcome | Refusal> {
  const from = entryPathField(input, "old_path", "rename");
  if (isRefusal(from)) return from;
  const to = entryPathField(input, "new_path", "rename");
  if (isRefusal(to)) return to;
  if (from.text === to.text) return refusal("invalid_input", "old_path and new_path are the same; nothing to rename.");
  if (to.text.startsWith(`${from.text}/`))
    return refusal("invalid_input", `${to.text} is inside ${from.text}; a folder cannot be moved into itself.`);

  return withScopeLocks(context, [from.scope as MemoryScope, to.scope as MemoryScope], () => {
    const source = resolveHostTarget({ layout: context.layout, virtualPath: from, createScope: true });
    if (isRefusal(source)) return source;
    if (source.kind === "missing") return refusal("not_found", `${from.text} does not exist; nothing was renamed.`);
    const destination = resolveHostTarget({ layout: context.layout, virtualPath: to, createScope: true });
    if (isRefusal(destination)) return destination;
    if (destination.kind !== "missing")
      return refusal("already_exists", `${to.text} already exists; delete it first or choose another name.`);
    if (source.scope !== destination.scope) {
      const moving = source.kind === "directory" && !source.isLink ? countFiles({ directory: source.entryPath }) : 1;
      const present = countFiles({
        directory: destination.scopeDirectory as string,
        stopAfter: context.maxFilesPerScope,
      });
      if (present + moving > context.maxFilesPerScope) {
        return refusal(
          "too_many_files",
          `Moving ${moving} file(s) into /memories/${destination.scope} would pass its limit of ${context.maxFilesPerScope} files.`,
        );
      }
    }
    fs.mkdirSync(path.dirname(destination.contentPath), { recursive: true });
    try {
      fs.renameSync(source.entryPath, destination.contentPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EXDEV") {
        return refusal(
          "io_error",
          `${from.text} and ${to.text} are stored on different file systems; copy the content with create, then delete the original.`,
        );
      }
      throw error;
    }
    return {
      text: `Renamed ${from.text} to ${to.text}.`,
      changedPaths: [from.text, to.text],
      accessed: [],
      moved: { from, to } satisfies { from: VirtualPath; to: VirtualPath },
    };
  });
}
