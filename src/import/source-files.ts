/**
 * Where each format's transcripts live by default, and how the paths given to an import become
 * files: Claude Code keeps `~/.claude/projects/<folder>/<session>.jsonl`, Codex
 * `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`; ctxwin exports are `*.jsonl` files. Symbolic
 * links are followed (each folder once, so a link loop ends); a file reached twice (named twice,
 * or named and inside a named folder) is read once. A path that cannot be read is a warning and
 * the other paths still import. A path that is neither a file nor a folder (a named pipe, a device,
 * a socket) is refused unread: reading one could wait forever. Files are returned sorted, so
 * imports are repeatable.
 */
import { readdirSync, realpathSync, statSync, type Stats } from "node:fs";
import os from "node:os";
import path from "node:path";
import { claudeConfigFolder, codexHome } from "./client-folders.js";

export type SourceFormatName = "ctxwin" | "claude-code" | "codex";
export type TranscriptFormat = Exclude<SourceFormatName, "ctxwin">;

/** The folder each format is read from when no path is given (`CLAUDE_CONFIG_DIR` and `CODEX_HOME` honoured). */
export function defaultSourceFolder(
  format: TranscriptFormat,
  home: string = os.homedir(),
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return format === "claude-code"
    ? path.join(claudeConfigFolder({ home, env }), "projects")
    : path.join(codexHome({ home, env }), "sessions");
}

const RULES: Record<SourceFormatName, { accept: (name: string) => boolean; depth: number }> = {
  ctxwin: { accept: (name) => name.endsWith(".jsonl"), depth: 1 },
  "claude-code": { accept: (name) => name.endsWith(".jsonl"), depth: 2 },
  codex: { accept: (name) => /^rollout-.*\.jsonl$/.test(name), depth: 6 },
};

export interface SourceFiles {
  files: string[];
  /** Paths that do not exist. */
  missing: string[];
  /** Paths (given or found in a folder) that could not be read, one sentence each. */
  warnings: string[];
}

/**
 * @example sourceFiles({ format: "codex", paths: ["~/.codex/sessions"] })
 */
export function sourceFiles({ format, paths }: { format: SourceFormatName; paths: readonly string[] }): SourceFiles {
  const found = new Map<string, string>();
  const visitedFolders = new Set<string>();
  const result: SourceFiles = { files: [], missing: [], warnings: [] };
  const { accept, depth } = RULES[format];

  const add = (file: string) => {
    const real = realPath(file);
    if (real === undefined || found.has(real)) return;
    found.set(real, file);
    if (format === "claude-code") for (const companion of claudeCodeCompanions(file, result.warnings)) add(companion);
  };
  const walk = (folder: string, levels: number) => {
    const real = realPath(folder);
    if (real === undefined || visitedFolders.has(real)) return;
    visitedFolders.add(real);
    let entries: string[];
    try {
      entries = readdirSync(folder);
    } catch (error) {
      result.warnings.push(`${folder}: ${(error as Error).message}`);
      return;
    }
    for (const name of entries) {
      const full = path.join(folder, name);
      const stat = statOrWarn(full, result.warnings);
      if (stat === undefined) continue;
      if (stat.isDirectory() && levels > 1) walk(full, levels - 1);
      else if (stat.isFile() && accept(name)) add(full);
    }
  };

  for (const given of paths) {
    let stat: Stats | undefined;
    try {
      stat = statSync(given, { throwIfNoEntry: false });
    } catch (error) {
      result.warnings.push(`${given}: ${(error as Error).message}`);
      continue;
    }
    if (stat === undefined) result.missing.push(given);
    else if (stat.isDirectory()) walk(given, depth);
    else if (stat.isFile()) add(given);
    else result.warnings.push(`${given} is ${specialKind(stat)}, not a transcript file; it was not read.`);
  }
  result.files = [...found.values()].sort();
  return result;
}

/**
 * What a path that is neither a file nor a folder is, in words.
 *
 * @example specialKind(statSync("/dev/null")) // "a character device"
 */
export function specialKind(stat: Stats): string {
  if (stat.isFIFO()) return "a named pipe (FIFO)";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isDirectory()) return "a folder";
  return "not a regular file";
}

function realPath(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** A folder entry's target (links followed); a link that leads nowhere or loops is a warning. */
function statOrWarn(file: string, warnings: string[]): Stats | undefined {
  try {
    return statSync(file);
  } catch (error) {
    warnings.push(`${file}: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * Claude Code keeps a session's sub-agents beside it (`<folder>/<session>/subagents/agent-<id>.jsonl`):
 * a session file brings its sub-agents' files, and a sub-agent's file its session's, so a child is
 * always imported with its parent (ADR 0067).
 *
 * @example claudeCodeCompanions("/p/abc.jsonl") // ["/p/abc/subagents/agent-1.jsonl", ...]
 */
export function claudeCodeCompanions(file: string, warnings: string[] = []): string[] {
  const folder = path.dirname(file);
  const name = path.basename(file, ".jsonl");
  if (name.startsWith("agent-") && path.basename(folder) === "subagents") {
    const session = path.join(path.dirname(path.dirname(folder)), `${path.basename(path.dirname(folder))}.jsonl`);
    return isFile(session) ? [session] : [];
  }
  const subagents = path.join(folder, name, "subagents");
  let entries: string[];
  try {
    entries = readdirSync(subagents);
  } catch (error) {
    // Most sessions started no sub-agent: no folder. A folder that cannot be read is a warning.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") warnings.push(`${subagents}: ${(error as Error).message}`);
    return [];
  }
  return entries
    .filter((entry) => /^agent-.*\.jsonl$/.test(entry))
    .map((entry) => path.join(subagents, entry))
    .filter(isFile);
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
