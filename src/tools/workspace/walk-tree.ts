/**
 * Depth-first walk of a workspace folder in a fixed order: the entries of each folder sorted by
 * name (UTF-16 code-unit order, independent of locale), a folder's contents right after the
 * folder. `.git`, `node_modules` and `.ctxwin` are never entered (nor shown); symbolic links are reported but
 * never followed (no loops, no escapes). With `isIgnored` (git's ignore rules), ignored entries are
 * counted but not shown, and ignored folders are not entered. The walk stops after
 * `MAX_WALK_ENTRIES` entries.
 */
import fs from "node:fs";
import path from "node:path";
import { MAX_WALK_ENTRIES, PROTECTED_FOLDERS, SKIPPED_FOLDERS } from "./limits.js";

export type WalkEntryKind = "file" | "directory" | "link" | "other";

export interface WalkEntry {
  /** Root-relative path shown to the model. */
  shown: string;
  absolute: string;
  kind: WalkEntryKind;
}

export interface WalkSummary {
  /** Folders that could not be listed (permission denied, vanished). */
  unreadableFolders: number;
  /** The walk hit `maxEntries` before it was done. */
  exhausted: boolean;
  /** Entries left out by `isIgnored` (an ignored folder counts once: it is not entered). */
  ignored: number;
  /** The first few of them in walk order, shown paths with a trailing `/` for folders. */
  firstIgnored: string[];
}

/** How many ignored entries `WalkSummary.firstIgnored` keeps. */
export const IGNORED_EXAMPLES = 3;

/**
 * Visits the entries under `absolute` (not the folder itself); `visit` returns `false` to stop.
 *
 * @example
 * walkTree({ absolute: workspace.root, shown: ".", recursive: true, visit: (entry) => { names.push(entry.shown); return true; } });
 */
export function walkTree({
  absolute,
  shown,
  recursive,
  visit,
  isIgnored,
  maxEntries = MAX_WALK_ENTRIES,
}: {
  absolute: string;
  shown: string;
  recursive: boolean;
  visit: (entry: WalkEntry) => boolean;
  /** Leaves an entry out (and a folder unentered), e.g. `GitignoreRules.isIgnored`. */
  isIgnored?: ((absolute: string, isDirectory: boolean) => boolean) | undefined;
  maxEntries?: number;
}): WalkSummary {
  const summary: WalkSummary = { unreadableFolders: 0, exhausted: false, ignored: 0, firstIgnored: [] };
  let visited = 0;

  const walk = (folder: string, prefix: string): boolean => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      summary.unreadableFolders += 1;
      return true;
    }
    entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    for (const entry of entries) {
      const kind = kindOf(entry);
      if (isSkippedEntry(entry.name, kind)) continue;
      if (visited >= maxEntries) {
        summary.exhausted = true;
        return false;
      }
      const childShown = prefix === "." ? entry.name : `${prefix}/${entry.name}`;
      const childAbsolute = path.join(folder, entry.name);
      if (isIgnored?.(childAbsolute, kind === "directory") === true) {
        summary.ignored += 1;
        if (summary.firstIgnored.length < IGNORED_EXAMPLES)
          summary.firstIgnored.push(kind === "directory" ? `${childShown}/` : childShown);
        continue;
      }
      visited += 1;
      if (!visit({ shown: childShown, absolute: childAbsolute, kind })) return false;
      if (recursive && kind === "directory" && !walk(childAbsolute, childShown)) return false;
    }
    return true;
  };

  walk(absolute, shown);
  return summary;
}

/**
 * Whether the walk leaves an entry out: skipped folders, and anything named `.git` or `.ctxwin`
 * in any letter case (a `.git` file points to a repository elsewhere).
 *
 * @example
 * isSkippedEntry("node_modules", "directory") // true
 */
export function isSkippedEntry(name: string, kind: WalkEntryKind): boolean {
  if (PROTECTED_FOLDERS.includes(name.toLowerCase())) return true;
  return kind === "directory" && SKIPPED_FOLDERS.includes(name);
}

function kindOf(entry: fs.Dirent): WalkEntryKind {
  if (entry.isSymbolicLink()) return "link";
  if (entry.isDirectory()) return "directory";
  if (entry.isFile()) return "file";
  return "other";
}
