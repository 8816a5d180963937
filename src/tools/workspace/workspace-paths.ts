/**
 * Maps a path given to a workspace tool onto the file system without ever leaving the root.
 * Paths are relative to the root; an absolute path is accepted only when it already lies inside
 * the root (it is never reinterpreted, so "/etc/passwd" is refused, not read as "etc/passwd").
 * `..` may not climb above the root, NUL bytes are refused, `.git` and `.ctxwin` are off limits at
 * any depth, and every existing component is inspected with `lstat`: a symbolic link is followed
 * only when its real target is inside the root and not inside a protected folder.
 */
import fs from "node:fs";
import path from "node:path";
import { MAX_PATH_CHARS, PROTECTED_FOLDERS } from "./limits.js";
import { refusal, type Refusal } from "./results.js";
import type { Workspace } from "./workspace-root.js";

export type PathKind = "file" | "directory" | "other" | "missing";

export interface ResolvedPath {
  /** The normalized root-relative path shown to the model (`.` for the root itself). */
  shown: string;
  /** Where the content is: the real path when the entry exists, else the real parent plus the missing names. */
  target: string;
  kind: PathKind;
  /** `lstat` of the target when it exists (after following links). */
  stats: fs.Stats | undefined;
}

const HINT = 'Paths are relative to the workspace root, e.g. "src/index.ts"; "." is the root itself.';

/**
 * Resolves one tool path, or says why it is refused.
 *
 * @example
 * const resolved = resolveWorkspacePath({ workspace, input: "src/index.ts" });
 * if (!isRefusal(resolved) && resolved.kind === "file") fs.readFileSync(resolved.target, "utf8");
 */
export function resolveWorkspacePath({
  workspace,
  input,
}: {
  workspace: Workspace;
  input: string;
}): ResolvedPath | Refusal {
  const relative = normalizeWorkspacePath({ workspace, input });
  if (typeof relative !== "string") return relative;
  const segments = relative === "." ? [] : relative.split("/");

  let current = workspace.root;
  let stats = fs.statSync(current);
  for (let index = 0; index < segments.length; index += 1) {
    const name = segments[index] as string;
    const shownSoFar = segments.slice(0, index + 1).join("/");
    const entry = path.join(current, name);
    const linkStats = lstatOrUndefined(entry);
    if (linkStats === undefined) {
      return {
        shown: relative,
        target: path.join(entry, ...segments.slice(index + 1)),
        kind: "missing",
        stats: undefined,
      };
    }
    if (linkStats.isSymbolicLink()) {
      const real = realpathOrUndefined(entry);
      if (real === undefined) return refusal(`${shownSoFar} is a symbolic link whose target does not exist; refused.`);
      if (!isInside(real, workspace.root))
        return refusal(`${shownSoFar} is a symbolic link that points outside the workspace; refused.`);
      const protectedName = protectedSegment(path.relative(workspace.root, real).split(path.sep));
      if (protectedName !== undefined)
        return refusal(
          `${shownSoFar} is a symbolic link into ${protectedName}, which the workspace tools do not use; refused.`,
        );
      current = real;
      stats = fs.statSync(real);
    } else {
      current = entry;
      stats = linkStats;
    }
    if (index < segments.length - 1 && !stats.isDirectory())
      return refusal(`${shownSoFar} is a file, not a folder, so ${relative} cannot exist.`);
  }
  return { shown: relative, target: current, kind: kindOf(stats), stats };
}

/**
 * The checked, normalized root-relative form of a tool path (`.` for the root), or a refusal.
 * Purely lexical: no file system access.
 *
 * @example
 * normalizeWorkspacePath({ workspace, input: "./src//a/../b.ts" }) // "src/b.ts"
 */
export function normalizeWorkspacePath({
  workspace,
  input,
}: {
  workspace: Workspace;
  input: string;
}): string | Refusal {
  if (input.includes("\u0000")) return refusal(`the path contains a NUL byte; ${HINT}`);
  if (input.length > MAX_PATH_CHARS)
    return refusal(`the path is ${input.length} characters long, over the ${MAX_PATH_CHARS} limit.`);
  let relative = input === "" ? "." : input;
  if (path.isAbsolute(relative)) {
    const absolute = path.normalize(relative);
    const base = [workspace.root, workspace.givenRoot].find((root) => isInside(absolute, root));
    if (base === undefined) return refusal(`${JSON.stringify(shorten(input))} is outside the workspace. ${HINT}`);
    relative = path.relative(base, absolute) || ".";
  }
  relative = path.posix.normalize(relative.split(path.sep).join("/"));
  if (relative.length > 1 && relative.endsWith("/")) relative = relative.slice(0, -1);
  if (relative === ".." || relative.startsWith("../"))
    return refusal(`${JSON.stringify(shorten(input))} leaves the workspace through "..". ${HINT}`);
  const segments = relative === "." ? [] : relative.split("/");
  const protectedName = protectedSegment(segments);
  if (protectedName !== undefined) {
    return refusal(
      `${relative} is inside ${protectedName}, which the workspace tools do not read or write ` +
        "(the session store and memories have their own tools: session_history and memory).",
    );
  }
  return relative;
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

/**
 * The first protected folder name among `segments` (compared case-insensitively), if any.
 *
 * @example
 * protectedSegment(["pkg", ".GIT", "HEAD"]) // ".git"
 */
export function protectedSegment(segments: readonly string[]): string | undefined {
  for (const segment of segments) {
    const lower = segment.toLowerCase();
    if (PROTECTED_FOLDERS.includes(lower)) return lower;
  }
  return undefined;
}

function kindOf(stats: fs.Stats): PathKind {
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  return "other";
}

function shorten(text: string): string {
  return text.length <= 120 ? text : `${text.slice(0, 117)}...`;
}

function lstatOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function realpathOrUndefined(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP";
}
