/**
 * Where memory lives on disk. Default root: `.ctxwin/memory/` beside the store.
 *
 * ```
 * <root>/global/                 /memories/global     (or `globalRoot`, e.g. shared by all projects)
 * <root>/project/                /memories/project
 * <root>/workspaces/<session>/   /memories/workspace  (one directory per session)
 * <root>/hot-index.json          pins and access counts (see ADR 0007)
 * ```
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { assertSessionId } from "../../core/row.js";
import type { MemoryScope, VirtualPath } from "./virtual-path.js";

/** Default memory directory inside a project directory, beside `.ctxwin/ctxwin.db`. */
export const DEFAULT_MEMORY_DIRECTORY = path.join(".ctxwin", "memory");

export interface MemoryLayout {
  root: string;
  sessionId: string;
  /** Host directory of each scope. */
  scopeDirectories: Record<MemoryScope, string>;
  /** Directory name of this session's workspace below `<root>/workspaces`. */
  workspaceName: string;
  indexFile: string;
  indexLockFile: string;
}

export interface MemoryLocation {
  /** Memory root; default `<cwd>/.ctxwin/memory`. */
  root?: string;
  sessionId: string;
  /** Directory of `/memories/global`; default `<root>/global`. */
  globalRoot?: string;
}

/**
 * The memory root beside a store file, or inside a project directory.
 *
 * @example
 * defaultMemoryRoot({ storePath: "/work/app/.ctxwin/ctxwin.db" }) // "/work/app/.ctxwin/memory"
 * defaultMemoryRoot({ directory: "/work/app" })                   // "/work/app/.ctxwin/memory"
 */
export function defaultMemoryRoot({
  storePath,
  directory = process.cwd(),
}: { storePath?: string; directory?: string } = {}): string {
  if (storePath !== undefined) return path.join(path.dirname(path.resolve(storePath)), "memory");
  return path.resolve(directory, DEFAULT_MEMORY_DIRECTORY);
}

/**
 * Resolves the host directories for one session.
 *
 * @example
 * const layout = resolveMemoryLayout({ root: ".ctxwin/memory", sessionId: "build-42" });
 */
export function resolveMemoryLayout({
  root = defaultMemoryRoot(),
  sessionId,
  globalRoot,
}: MemoryLocation): MemoryLayout {
  assertSessionId(sessionId);
  const absoluteRoot = path.resolve(root);
  const workspaceName = workspaceDirectoryName(sessionId);
  return {
    root: absoluteRoot,
    sessionId,
    scopeDirectories: {
      global: path.resolve(globalRoot ?? path.join(absoluteRoot, "global")),
      project: path.join(absoluteRoot, "project"),
      workspace: path.join(absoluteRoot, "workspaces", workspaceName),
    },
    workspaceName,
    indexFile: path.join(absoluteRoot, "hot-index.json"),
    indexLockFile: path.join(absoluteRoot, ".hot-index.lock"),
  };
}

/**
 * A directory name for a session id that is safe on every file system, including case-insensitive
 * ones: lowercase ids of letters, digits, `-` and `_` are used as they are; any other id becomes a
 * readable prefix plus a hash (the `~` keeps the two forms apart).
 *
 * @example
 * workspaceDirectoryName("build-42")  // "build-42"
 * workspaceDirectoryName("Build/42")  // "build-42~6c1f…"
 */
export function workspaceDirectoryName(sessionId: string): string {
  if (/^[a-z0-9_-]{1,64}$/.test(sessionId)) return sessionId;
  const readable = sessionId
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .slice(0, 40);
  const hash = createHash("sha256").update(sessionId, "utf8").digest("hex").slice(0, 20);
  return `${readable}~${hash}`;
}

/**
 * The key of a file in the hot-memory index: its path relative to the memory root's layout
 * (`global/…`, `project/…`, `workspaces/<session>/…`).
 *
 * @example
 * indexKeyOf(layout, parsed) // "project/conventions.md"
 */
export function indexKeyOf(layout: MemoryLayout, virtualPath: VirtualPath): string {
  if (virtualPath.scope === undefined) return "";
  const prefix = virtualPath.scope === "workspace" ? `workspaces/${layout.workspaceName}` : virtualPath.scope;
  return [prefix, ...virtualPath.segments].join("/");
}

/**
 * The virtual path of an index key of this session, or `undefined` for another session's key.
 *
 * @example
 * virtualPathOfIndexKey(layout, "project/conventions.md") // "/memories/project/conventions.md"
 */
export function virtualPathOfIndexKey(layout: MemoryLayout, key: string): string | undefined {
  const workspacePrefix = `workspaces/${layout.workspaceName}/`;
  if (key.startsWith(workspacePrefix)) return `/memories/workspace/${key.slice(workspacePrefix.length)}`;
  if (key.startsWith("global/") || key.startsWith("project/")) return `/memories/${key}`;
  return undefined;
}
