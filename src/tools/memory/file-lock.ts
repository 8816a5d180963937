/**
 * A lock file shared by every process that writes one memory scope (or the hot-memory index).
 * It is created with `O_EXCL`, holds `<pid> <token>`, and is removed by its holder. A lock whose
 * holder process no longer exists, or that is older than `staleAfterMs`, is broken, so a crash
 * during a write does not block memory forever.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { MemoryLockTimeoutError } from "./errors.js";

export interface FileLockOptions<T> {
  lockFile: string;
  run: () => T | Promise<T>;
  /** Total time to wait for the lock, summed over the retry delays. */
  maxWaitMs?: number;
  /** Age after which a lock is considered abandoned even if its holder seems alive. */
  staleAfterMs?: number;
  /** Clock for the lock's age, compared with the file's modification time. */
  clock?: () => number;
}

/**
 * Runs `run` while holding `lockFile`; throws `MemoryLockTimeoutError` when the lock stays taken.
 *
 * @example
 * await withFileLock({ lockFile: path.join(scopeDirectory, ".ctxwin.lock"), run: () => editFile() });
 */
export async function withFileLock<T>({ lockFile, run, maxWaitMs = 10_000, staleAfterMs = 30_000, clock = Date.now }: FileLockOptions<T>): Promise<T> {
  const token = `${process.pid} ${randomBytes(8).toString("hex")}`;
  let waited = 0;
  let delay = 2;
  for (;;) {
    if (tryCreate(lockFile, token)) break;
    if (isStale(lockFile, staleAfterMs, clock)) {
      breakLock(lockFile);
      continue;
    }
    if (waited >= maxWaitMs) throw new MemoryLockTimeoutError(lockFile, waited);
    await sleep(delay);
    waited += delay;
    delay = Math.min(delay * 2, 50);
  }
  try {
    return await run();
  } finally {
    release(lockFile, token);
  }
}

function tryCreate(lockFile: string, token: string): boolean {
  let descriptor: number;
  try {
    descriptor = fs.openSync(lockFile, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    fs.writeSync(descriptor, token);
  } finally {
    fs.closeSync(descriptor);
  }
  return true;
}

function isStale(lockFile: string, staleAfterMs: number, clock: () => number): boolean {
  let content: string;
  let modifiedMs: number;
  try {
    content = fs.readFileSync(lockFile, "utf8");
    modifiedMs = fs.statSync(lockFile).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false; // released meanwhile: just retry
    throw error;
  }
  if (clock() - modifiedMs > staleAfterMs) return true;
  const pid = Number.parseInt(content.split(" ")[0] ?? "", 10);
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  return !processExists(pid);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

function breakLock(lockFile: string): void {
  // Move the lock aside first: of several waiters breaking the same lock, only one rename succeeds.
  const aside = `${lockFile}.stale-${randomBytes(6).toString("hex")}`;
  try {
    fs.renameSync(lockFile, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  fs.rmSync(aside, { force: true });
}

function release(lockFile: string, token: string): void {
  let content: string;
  try {
    content = fs.readFileSync(lockFile, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // broken as stale by another process
    throw error;
  }
  if (content === token) fs.rmSync(lockFile, { force: true });
}
