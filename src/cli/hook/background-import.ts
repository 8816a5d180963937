/**
 * Finishes an import the hook's budget cut short: `ctxwin import <client> <transcript>` into the
 * hook's store, as a detached process that outlives the hook (ADR 0076). The import resumes where
 * the hook stopped, as every import does (ADR 0049). One worker per transcript and store at a time:
 * its pid is kept in a file in the temporary folder, and a hook that finds that process alive
 * starts none (two workers would both be correct, only slower).
 */
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface BackgroundImportOptions {
  /** The words after `ctxwin`: `import <client> <transcript> --dir <project>` (or `--store <url>`). */
  args: readonly string[];
  /** Where the running worker's pid is kept (default: a file in the temporary folder named by `args`). */
  pidFile?: string;
  /** Starts the detached worker with these words (the hook command runs its own CLI file). */
  start: (args: readonly string[]) => ChildProcess;
}

export type BackgroundImportResult =
  { status: "started"; pid: number | undefined } | { status: "running"; pid: number };

/**
 * @example startBackgroundImport({ args: ["import", "claude-code", "/…/5f0c….jsonl", "--dir", "/home/me"], start })
 */
export function startBackgroundImport({
  args,
  pidFile = backgroundImportPidFile(args),
  start,
}: BackgroundImportOptions): BackgroundImportResult {
  const running = runningPid(pidFile);
  if (running !== undefined) return { status: "running", pid: running };
  const worker = start(args);
  if (worker.pid !== undefined) writeFileSync(pidFile, String(worker.pid));
  return { status: "started", pid: worker.pid };
}

/**
 * The pid of the worker running for these words, if one runs (benches wait for it).
 *
 * @example runningBackgroundImport(["import", "claude-code", "/…/5f0c….jsonl", "--store", "/tmp/x.db"])
 */
export function runningBackgroundImport(args: readonly string[]): number | undefined {
  return runningPid(backgroundImportPidFile(args));
}

/**
 * Where the pid of the worker for these words is kept; the file stays after the worker ended
 * (a later hook finds the pid dead and starts a new worker over it).
 *
 * @example backgroundImportPidFile(["import", "codex", "/…/rollout.jsonl", "--dir", "/p"]) // "/tmp/ctxwin-hook-import-….pid"
 */
export function backgroundImportPidFile(args: readonly string[]): string {
  const key = createHash("sha256").update(JSON.stringify(args)).digest("hex").slice(0, 16);
  return path.join(os.tmpdir(), `ctxwin-hook-import-${key}.pid`);
}

/** The pid in `pidFile` when that process still runs. */
function runningPid(pidFile: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, "utf8").trim());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM" ? pid : undefined;
  }
}
