/**
 * Where each format's transcripts live by default, and how a folder argument is expanded:
 * Claude Code keeps `~/.claude/projects/<folder>/<session>.jsonl`, Codex
 * `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`. Files are returned sorted, so imports are
 * repeatable.
 */
import { readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export type TranscriptFormat = "claude-code" | "codex";

/** The folder each format is read from when no path is given. */
export function defaultSourceFolder(format: TranscriptFormat, home: string = os.homedir()): string {
  return format === "claude-code" ? path.join(home, ".claude", "projects") : path.join(home, ".codex", "sessions");
}

/**
 * Expands folders into the transcript files below them (Claude Code: `*.jsonl` one level down
 * or directly inside; Codex: `rollout-*.jsonl` at any depth). Files given by name are kept.
 *
 * @example sourceFiles({ format: "codex", paths: ["~/.codex/sessions"] })
 */
export function sourceFiles({ format, paths }: { format: TranscriptFormat; paths: readonly string[] }): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  for (const given of paths) {
    const stat = statSync(given, { throwIfNoEntry: false });
    if (stat === undefined) {
      missing.push(given);
      continue;
    }
    if (!stat.isDirectory()) files.push(given);
    else if (format === "codex") walk(given, (file) => /^rollout-.*\.jsonl$/.test(path.basename(file)), files, 6);
    else walk(given, (file) => file.endsWith(".jsonl"), files, 2);
  }
  return { files: files.sort(), missing };
}

function walk(folder: string, accept: (file: string) => boolean, into: string[], depth: number): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory() && depth > 1) walk(full, accept, into, depth - 1);
    else if (entry.isFile() && accept(full)) into.push(full);
  }
}
