/**
 * The transcripts of one project, for a project's own store (`ctxwin setup --scope project`,
 * `ctxwin mcp --import-project`): never the sessions of the user's other projects.
 * - Claude Code keeps a project's sessions in one folder under `~/.claude/projects`, named by the
 *   project's absolute path with every character other than a letter or digit replaced by `-`
 *   (`/home/dev/shop-api` → `-home-dev-shop-api`); its sub-agents' files sit below it.
 * - Codex keeps every session under `~/.codex/sessions/YYYY/MM/DD/`; a session belongs to the
 *   project when the `cwd` of its first line (`session_meta`) is the project folder or inside it.
 */
import path from "node:path";
import { jsonLines } from "./jsonl-lines.js";
import { defaultSourceFolder, sourceFiles, type TranscriptFormat } from "./source-files.js";

/**
 * Claude Code's folder name for a project path.
 *
 * @example claudeCodeProjectFolderName("/home/dev/shop-api") // "-home-dev-shop-api"
 */
export function claudeCodeProjectFolderName(project: string): string {
  return path.resolve(project).replace(/[^a-zA-Z0-9]/g, "-");
}

export interface ProjectSourceOptions {
  format: TranscriptFormat;
  /** The project folder (made absolute). */
  project: string;
  /** Where the CLI keeps its transcripts (default: `~/.claude/projects` or `~/.codex/sessions`). */
  sourceFolder?: string;
}

/**
 * The paths to import for one project's sessions: Claude Code's project folder (a folder that
 * does not exist yet imports nothing), or the Codex rollouts whose `cwd` is inside the project.
 *
 * @example await projectSourcePaths({ format: "codex", project: "/home/dev/shop-api" })
 */
export async function projectSourcePaths({
  format,
  project,
  sourceFolder = defaultSourceFolder(format),
}: ProjectSourceOptions): Promise<string[]> {
  const root = path.resolve(project);
  if (format === "claude-code") return [path.join(sourceFolder, claudeCodeProjectFolderName(root))];
  const { files } = sourceFiles({ format, paths: [sourceFolder] });
  const inside: string[] = [];
  for (const file of files) {
    const cwd = await codexSessionCwd(file);
    if (cwd !== undefined && isInside(path.resolve(cwd), root)) inside.push(file);
  }
  return inside;
}

/** The `cwd` of a Codex rollout's `session_meta` line (its first), if it has one. */
async function codexSessionCwd(file: string): Promise<string | undefined> {
  try {
    for await (const entry of jsonLines(file)) {
      if (!entry.ok) return undefined;
      const value = entry.value as { type?: unknown; payload?: { cwd?: unknown } } | null;
      const cwd = value?.type === "session_meta" ? value.payload?.cwd : undefined;
      return typeof cwd === "string" && cwd !== "" ? cwd : undefined;
    }
  } catch (error) {
    // A rollout that cannot be read is not the project's as far as this import knows.
    if ((error as NodeJS.ErrnoException).code === undefined) throw error;
  }
  return undefined;
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
