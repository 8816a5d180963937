/**
 * Git's ignore rules for the walks of `list_files` and `search_text`: the `.gitignore` of every
 * folder from the workspace root down (a nested file's patterns are relative to its own folder)
 * and the root's `.git/info/exclude`. Patterns are matched by the `ignore` package; this module
 * only finds the files and applies git's precedence: for an entry, the deepest `.gitignore` with a
 * matching pattern decides (the last matching pattern of that file wins), then shallower ones, then
 * `.git/info/exclude`. Nothing above the root and no git configuration is read.
 *
 * A rules file that cannot be used (a symbolic link, which git does not follow either; a folder or
 * device; unreadable; over `MAX_IGNORE_FILE_BYTES` or `MAX_IGNORE_FILE_RULES`) is left out and
 * recorded in `problems`; loading never throws.
 */
import fs from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { MAX_IGNORE_FILE_BYTES, MAX_IGNORE_FILE_RULES } from "./limits.js";
import { formatSize } from "./results.js";
import { readAll } from "./text-file.js";

/** A rules file that was found but not used. */
export interface IgnoreFileProblem {
  /** Root-relative path of the rules file. */
  file: string;
  /** Why it was not used, as a predicate: "is a symbolic link (git does not follow it either)". */
  reason: string;
}

/** The ignore rules of one workspace, loaded folder by folder as a walk reaches them. */
export interface GitignoreRules {
  /**
   * Whether the entry at `absolute` (a real path inside the root, in a folder the walk is in) is
   * ignored. Symbolic links are not directories here, as in git.
   */
  isIgnored(absolute: string, isDirectory: boolean): boolean;
  /** Rules files found but not used, in the order they were met. */
  readonly problems: readonly IgnoreFileProblem[];
}

/**
 * Git compares ignore patterns case-insensitively where the file system usually is
 * (`core.ignoreCase`, set when a repository is created); the configuration itself is not read.
 */
const IGNORE_CASE = process.platform === "darwin" || process.platform === "win32";

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

interface RuleSource {
  /** Root-relative folder the patterns are relative to ("" for the root). */
  base: string;
  matcher: Ignore;
}

/**
 * Starts reading the ignore rules under `root` (the workspace's real path). Files are read when a
 * walk first needs them, once per call, so an edited `.gitignore` counts at the next tool call.
 *
 * @example
 * const rules = gitignoreRules({ root: workspace.root });
 * rules.isIgnored(path.join(workspace.root, "dist"), true) // true with "dist/" in .gitignore
 */
export function gitignoreRules({ root }: { root: string }): GitignoreRules {
  const problems: IgnoreFileProblem[] = [];
  const byFolder = new Map<string, readonly RuleSource[]>();

  const sourcesOf = (folder: string): readonly RuleSource[] => {
    const known = byFolder.get(folder);
    if (known !== undefined) return known;
    const inherited = folder === "" ? excludeSources({ root, problems }) : sourcesOf(parentOf(folder));
    const shown = folder === "" ? ".gitignore" : `${folder}/.gitignore`;
    const matcher = loadRulesFile({ file: path.join(root, ...shown.split("/")), shown, problems });
    const sources = matcher === undefined ? inherited : [...inherited, { base: folder, matcher }];
    byFolder.set(folder, sources);
    return sources;
  };

  return {
    problems,
    isIgnored: (absolute, isDirectory) => {
      const relative = path.relative(root, absolute).split(path.sep).join("/");
      if (relative === "" || relative === ".." || relative.startsWith("../") || path.isAbsolute(relative)) return false;
      const sources = sourcesOf(parentOf(relative));
      for (let index = sources.length - 1; index >= 0; index -= 1) {
        const verdict = verdictOf({ source: sources[index] as RuleSource, relative, isDirectory });
        if (verdict !== undefined) return verdict;
      }
      return false;
    },
  };
}

/**
 * What one rules file says about an entry: `true` ignored, `false` re-included by a `!` pattern,
 * `undefined` no opinion. The `ignore` package also counts an entry as ignored when one of its
 * folders is; but the walk is already inside that folder (it was named as the path, or a deeper
 * `.gitignore` re-included it), so such a file has no say about the folder's contents.
 */
function verdictOf({
  source,
  relative,
  isDirectory,
}: {
  source: RuleSource;
  relative: string;
  isDirectory: boolean;
}): boolean | undefined {
  const inBase = source.base === "" ? relative : relative.slice(source.base.length + 1);
  const slash = inBase.lastIndexOf("/");
  if (slash >= 0 && source.matcher.test(inBase.slice(0, slash + 1)).ignored) return undefined;
  const result = source.matcher.test(isDirectory ? `${inBase}/` : inBase);
  if (result.ignored) return true;
  if (result.unignored) return false;
  return undefined;
}

/** `.git/info/exclude` of the root, when `.git` and `info` are real folders (no link leads out). */
function excludeSources({ root, problems }: { root: string; problems: IgnoreFileProblem[] }): readonly RuleSource[] {
  const info = path.join(root, ".git", "info");
  if (!isRealFolder(path.join(root, ".git")) || !isRealFolder(info)) return [];
  const matcher = loadRulesFile({ file: path.join(info, "exclude"), shown: ".git/info/exclude", problems });
  return matcher === undefined ? [] : [{ base: "", matcher }];
}

function loadRulesFile({
  file,
  shown,
  problems,
}: {
  file: string;
  shown: string;
  problems: IgnoreFileProblem[];
}): Ignore | undefined {
  let descriptor: number;
  try {
    descriptor = fs.openSync(file, OPEN_FLAGS);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    const reason =
      code === "ELOOP" || code === "EMLINK"
        ? "is a symbolic link (git does not follow it either)"
        : `could not be opened (${code ?? "unknown error"})`;
    problems.push({ file: shown, reason });
    return undefined;
  }
  try {
    const stats = fs.fstatSync(descriptor);
    if (!stats.isFile())
      return noted({
        problems,
        file: shown,
        reason: stats.isDirectory() ? "is a folder, not a file" : "is not a regular file",
      });
    if (stats.size > MAX_IGNORE_FILE_BYTES)
      return noted({
        problems,
        file: shown,
        reason: `is ${formatSize(stats.size)}, over the ${formatSize(MAX_IGNORE_FILE_BYTES)} limit`,
      });
    const text = new TextDecoder("utf-8").decode(readAll({ descriptor, size: stats.size }));
    const patterns = text.split(/\r?\n/).filter((line) => line.trim() !== "" && !line.startsWith("#"));
    if (patterns.length > MAX_IGNORE_FILE_RULES)
      return noted({
        problems,
        file: shown,
        reason: `has ${patterns.length} patterns, over the ${MAX_IGNORE_FILE_RULES} limit`,
      });
    if (patterns.length === 0) return undefined;
    // allowRelativePaths: a path the package finds odd is tested, never thrown at.
    return ignore({ ignorecase: IGNORE_CASE, allowRelativePaths: true }).add(text);
  } catch (error) {
    return noted({ problems, file: shown, reason: `could not be read (${errorCode(error) ?? "unknown error"})` });
  } finally {
    fs.closeSync(descriptor);
  }
}

function noted({ problems, file, reason }: { problems: IgnoreFileProblem[]; file: string; reason: string }): undefined {
  problems.push({ file, reason });
  return undefined;
}

function isRealFolder(folder: string): boolean {
  try {
    return fs.lstatSync(folder).isDirectory();
  } catch {
    return false;
  }
}

/** "a/b" → "a", "a" → "". */
function parentOf(relative: string): string {
  const slash = relative.lastIndexOf("/");
  return slash < 0 ? "" : relative.slice(0, slash);
}

function errorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}
