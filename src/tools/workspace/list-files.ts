/**
 * `list_files`: the files under a workspace folder, one line each with its size, in the walk's
 * fixed order (depth-first, each folder's entries sorted by name). Recursive listings show files
 * (and symbolic links); a one-level listing also shows sub-folders as `name/`. Past the cap, a
 * last line says how many more entries there are and how to narrow the listing. Git-ignored
 * entries are left out (unless `respectGitignore` is false) and a note names the first few.
 */
import fs from "node:fs";
import { gitignoreRules } from "./gitignore-rules.js";
import { ignoredNote, ignoreProblemsNote } from "./ignore-notes.js";
import { isRefusal, refusal, formatSize, type Refusal } from "./results.js";
import { walkTree, type WalkEntry } from "./walk-tree.js";
import type { WorkspaceToolCall } from "./workspace-root.js";
import { resolveWorkspacePath } from "./workspace-paths.js";

export interface ListFilesInput {
  /** Folder (or file) to list, root-relative (default "."). */
  path?: string | null | undefined;
  /** Walk sub-folders too (default true). */
  recursive?: boolean | null | undefined;
}

/**
 * Runs one `list_files` call. A path that is named (a file, or the folder to list) is shown even
 * when it is git-ignored; only what the walk finds below it is filtered.
 *
 * @example
 * listWorkspaceFiles({ workspace, input: { path: "src", recursive: false }, maxListEntries: 200, respectGitignore: true })
 * // "src/cli/\nsrc/index.ts (4.1 KB)"
 */
export function listWorkspaceFiles({
  workspace,
  input,
  maxListEntries,
  respectGitignore,
}: WorkspaceToolCall<ListFilesInput> & {
  maxListEntries: number;
  respectGitignore: boolean;
}): string | Refusal {
  const resolved = resolveWorkspacePath({ workspace, input: input.path ?? "." });
  if (isRefusal(resolved)) return resolved;
  const shown = resolved.shown;
  if (resolved.kind === "missing")
    return refusal(`${shown} does not exist; list its parent folder to see what is there.`);
  if (resolved.kind === "file") return `${shown} (${formatSize(resolved.stats?.size ?? 0)})`;
  if (resolved.kind === "other") return refusal(`${shown} is not a file or folder (a device, socket or pipe).`);

  const recursive = input.recursive ?? true;
  const lines: string[] = [];
  let more = 0;
  /** Entries per direct sub-folder of the listed folder, to suggest where to narrow. */
  const perFolder = new Map<string, number>();
  const prefixLength = shown === "." ? 0 : shown.length + 1;
  const rules = respectGitignore ? gitignoreRules({ root: workspace.root }) : undefined;
  const summary = walkTree({
    absolute: resolved.target,
    shown,
    recursive,
    isIgnored: rules?.isIgnored,
    visit: (entry) => {
      if (entry.kind === "directory" && recursive) return true;
      const slash = entry.shown.indexOf("/", prefixLength);
      if (slash >= 0) {
        const folder = entry.shown.slice(0, slash);
        perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
      }
      if (lines.length < maxListEntries) lines.push(lineOf(entry));
      else more += 1;
      return true;
    },
  });

  const notes: string[] = [];
  if (more > 0 || summary.exhausted) {
    const count = summary.exhausted ? `more than ${more}` : String(more);
    const narrow = largestFolders(perFolder);
    const oneLevel = recursive ? ", or recursive: false for one level" : "";
    notes.push(
      `[… ${count} more entries not shown; list a sub-folder with path${narrow}${oneLevel}, or use search_text]`,
    );
  }
  if (summary.unreadableFolders > 0) notes.push(`[${summary.unreadableFolders} folder(s) could not be read]`);
  if (summary.ignored > 0) notes.push(ignoredNote({ summary, verb: "shown", hint: "pass one as path to list it" }));
  if (rules !== undefined && rules.problems.length > 0) notes.push(ignoreProblemsNote(rules.problems));
  if (lines.length === 0 && notes.length === 0) return recursive ? `No files in ${shown}.` : `${shown} is empty.`;
  if (lines.length === 0)
    lines.push(recursive ? `No files in ${shown} are shown.` : `No entries of ${shown} are shown.`);
  return [...lines, ...notes].join("\n");
}

/** ` (largest: "src" 420 entries, "dist" 300)`: the sub-folders holding the most entries, ties by name. */
function largestFolders(perFolder: Map<string, number>): string {
  const largest = [...perFolder]
    .sort(([leftName, left], [rightName, right]) => right - left || (leftName < rightName ? -1 : 1))
    .slice(0, 3);
  if (largest.length === 0) return "";
  return ` (largest: ${largest.map(([name, count], index) => `"${name}" ${count}${index === 0 ? " entries" : ""}`).join(", ")})`;
}

function lineOf(entry: WalkEntry): string {
  if (entry.kind === "directory") return `${entry.shown}/`;
  if (entry.kind === "link") return `${entry.shown} (symbolic link)`;
  if (entry.kind === "other") return `${entry.shown} (not a regular file)`;
  let size: number;
  try {
    size = fs.statSync(entry.absolute).size;
  } catch {
    return `${entry.shown} (unreadable)`;
  }
  return `${entry.shown} (${formatSize(size)})`;
}
