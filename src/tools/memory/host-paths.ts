/**
 * Maps a checked virtual path to the host file system without ever leaving its scope directory.
 * Every existing component is inspected with `lstat`; a symbolic link is followed only when its
 * real target stays inside the same scope, and a dangling link is refused (writing through it
 * could create a file anywhere).
 */
import fs from "node:fs";
import path from "node:path";
import type { MemoryLayout } from "./layout.js";
import { refusal, type Refusal } from "./results.js";
import type { MemoryScope, VirtualPath } from "./virtual-path.js";

export type HostKind = "file" | "directory" | "other" | "missing";

export interface HostTarget {
  virtualPath: VirtualPath;
  scope: MemoryScope;
  /** Real path of the scope directory (`undefined` when it does not exist yet). */
  scopeDirectory: string | undefined;
  /** The entry itself: real parent directory + last name (a link stays a link). */
  entryPath: string;
  /** Where content lives: the real path when the entry exists, else `entryPath`. */
  contentPath: string;
  kind: HostKind;
  isLink: boolean;
}

/**
 * Resolves a virtual path below a scope (not `/memories` itself).
 *
 * @example
 * const target = resolveHostTarget({ layout, virtualPath, createScope: true });
 * if (!isRefusal(target) && target.kind === "file") fs.readFileSync(target.contentPath);
 */
export function resolveHostTarget({
  layout,
  virtualPath,
  createScope,
}: {
  layout: MemoryLayout;
  virtualPath: VirtualPath;
  createScope: boolean;
}): HostTarget | Refusal {
  const scope = virtualPath.scope;
  if (scope === undefined)
    return refusal("invalid_input", `${virtualPath.text} is the memory root, not a file or scope.`);
  const configured = layout.scopeDirectories[scope];
  const linked = linkedScopeComponent(layout.root, configured);
  if (linked !== undefined) {
    return refusal(
      "outside_memory",
      `/memories/${scope} is stored in ${linked}, which is a symbolic link; ` +
        "scope folders must be real folders inside the memory root (a link could lead anywhere). " +
        "Replace the link with a folder.",
    );
  }
  if (createScope) fs.mkdirSync(configured, { recursive: true });
  const scopeDirectory = realpathIfExists(configured);
  const base = { virtualPath, scope, scopeDirectory, isLink: false };
  if (scopeDirectory === undefined) {
    const entryPath = path.join(configured, ...virtualPath.segments);
    return { ...base, entryPath, contentPath: entryPath, kind: "missing" };
  }
  if (!fs.statSync(scopeDirectory).isDirectory())
    return refusal("io_error", `The storage of /memories/${scope} is not a directory.`);

  let current = scopeDirectory;
  let stats: fs.Stats = fs.statSync(scopeDirectory);
  let isLink = false;
  const segments = virtualPath.segments;
  for (let index = 0; index < segments.length; index += 1) {
    const name = segments[index] as string;
    const entryPath = path.join(current, name);
    const shownSoFar = [`/memories/${scope}`, ...segments.slice(0, index + 1)].join("/");
    const linkStats = lstatIfExists(entryPath);
    if (linkStats === undefined) {
      const missing = path.join(entryPath, ...segments.slice(index + 1));
      return { ...base, entryPath: missing, contentPath: missing, kind: "missing" };
    }
    isLink = linkStats.isSymbolicLink();
    let next = entryPath;
    if (isLink) {
      const real = realpathIfExists(entryPath);
      if (real === undefined)
        return refusal("outside_memory", `${shownSoFar} is a symbolic link whose target does not exist; refused.`);
      if (!isInside(real, scopeDirectory)) {
        return refusal(
          "outside_memory",
          `${shownSoFar} is a symbolic link that points outside /memories/${scope}; refused.`,
        );
      }
      next = real;
      stats = fs.statSync(real);
    } else stats = linkStats;
    const last = index === segments.length - 1;
    if (!last && !stats.isDirectory()) return refusal("not_a_directory", `${shownSoFar} is a file, not a directory.`);
    if (last) return { ...base, entryPath, contentPath: next, kind: kindOf(stats), isLink };
    current = next;
  }
  return { ...base, entryPath: scopeDirectory, contentPath: scopeDirectory, kind: kindOf(stats), isLink: false };
}

/**
 * The first folder between the memory root (exclusive) and a scope directory that is a symbolic
 * link, if any. The root itself may be a link (the user chose it); a scope configured outside the
 * root (a separate global root) is checked from its own parent.
 *
 * @example
 * linkedScopeComponent("/m", "/m/workspaces/s1") // "/m/workspaces" when that folder is a link
 */
export function linkedScopeComponent(root: string, scopeDirectory: string): string | undefined {
  const start = isInside(scopeDirectory, root) ? root : path.dirname(scopeDirectory);
  const relative = path.relative(start, scopeDirectory);
  if (relative === "") return undefined;
  let current = start;
  for (const name of relative.split(path.sep)) {
    current = path.join(current, name);
    const stats = lstatIfExists(current);
    if (stats === undefined) return undefined;
    if (stats.isSymbolicLink()) return current;
  }
  return undefined;
}

/**
 * Whether `child` is `parent` or inside it (both absolute and normalized).
 *
 * @example
 * isInside("/a/b/c", "/a/b") // true
 * isInside("/a/bc", "/a/b")  // false
 */
export function isInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : `${parent}${path.sep}`;
  return child.startsWith(prefix);
}

export function realpathIfExists(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export function lstatIfExists(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP";
}

function kindOf(stats: fs.Stats): HostKind {
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  return "other";
}
