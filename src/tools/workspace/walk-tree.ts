/**
 * Depth-first walk of a workspace folder in a fixed order: the entries of each folder sorted by
 * name (UTF-16 code-unit order, independent of locale), a folder's contents right after the
 * folder. `.git`, `node_modules` and `.ctxwin` are never entered (nor shown); symbolic links are reported but
 * never followed (no loops, no escapes). The walk stops after `MAX_WALK_ENTRIES` entries.
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
}

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
  maxEntries = MAX_WALK_ENTRIES,
}: {
  absolute: string;
  shown: string;
  recursive: boolean;
  visit: (entry: WalkEntry) => boolean;
  maxEntries?: number;
}): WalkSummary {
  const summary: WalkSummary = { unreadableFolders: 0, exhausted: false };
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
      visited += 1;
      const childShown = prefix === "." ? entry.name : `${prefix}/${entry.name}`;
      const childAbsolute = path.join(folder, entry.name);
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
