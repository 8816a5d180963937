/**
 * A lock file shared by every process that writes one memory scope (or the hot-memory index).
 * Taking it is atomic with its contents: `<pid> <token>` is written to a private file first, which
 * is then hard-linked to the lock name (`link` fails when the name exists). So a lock file is never
 * seen empty, whatever moment a holder is killed at (ADR 0017). A lock whose holder process no
 * longer exists is broken at once; one without a readable owner (left by an older ctxwin) after
 * `unreadableAfterMs`; any lock older than `staleAfterMs` as a last resort.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { MemoryLockTimeoutError } from "./errors.js";

export interface FileLockOptions<T> {
  lockFile: string;
  run: () => T | Promise<T>;
  /** Total time to wait for the lock, summed over the retry delays. */
  maxWaitMs?: number;
  /** Age after which a lock is considered abandoned even if its holder seems alive. */
  staleAfterMs?: number;
  /** Age after which a lock without a readable `<pid> <token>` owner is broken. */
  unreadableAfterMs?: number;
  /** Clock for the lock's age, compared with the file's modification time. */
  clock?: () => number;
}

/** Suffix of the private file a taker writes before linking it to the lock name. */
export const LOCK_TAKING_SUFFIX = ".taking";

/**
 * Runs `run` while holding `lockFile`; throws `MemoryLockTimeoutError` when the lock stays taken.
 *
 * @example
 * await withFileLock({ lockFile: path.join(scopeDirectory, ".ctxwin.lock"), run: () => editFile() });
 */
export async function withFileLock<T>(options: FileLockOptions<T>): Promise<T> {
  const {
    lockFile,
    run,
    maxWaitMs = 10_000,
    staleAfterMs = 30_000,
    unreadableAfterMs = 1_000,
    clock = Date.now,
  } = options;
  const token = `${process.pid} ${randomBytes(8).toString("hex")}`;
  let waited = 0;
  let delay = 2;
  for (;;) {
    if (tryCreate(lockFile, token)) break;
    if (isStale(lockFile, { staleAfterMs, unreadableAfterMs, clock })) {
      breakLock(lockFile);
      continue;
    }
    if (waited >= maxWaitMs) throw new MemoryLockTimeoutError(lockFile, waited);
    await sleep(delay);
    waited += delay;
    delay = Math.min(delay * 2, 50);
  }
  removeAbandonedTakingFiles(lockFile);
  try {
    return await run();
  } finally {
    release(lockFile, token);
  }
}

function tryCreate(lockFile: string, token: string): boolean {
  const taking = `${lockFile}.${process.pid}-${randomBytes(6).toString("hex")}${LOCK_TAKING_SUFFIX}`;
  fs.writeFileSync(taking, token, { flag: "wx", mode: 0o644 });
  try {
    fs.linkSync(taking, lockFile);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    fs.rmSync(taking, { force: true });
  }
}

/** A taker killed before it linked its private file leaves it behind: the next holder removes it. */
function removeAbandonedTakingFiles(lockFile: string): void {
  const directory = path.dirname(lockFile);
  const prefix = `${path.basename(lockFile)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(directory);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(LOCK_TAKING_SUFFIX)) continue;
    const pid = Number.parseInt(name.slice(prefix.length), 10);
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !processExists(pid)) {
      fs.rmSync(path.join(directory, name), { force: true });
    }
  }
}

interface StaleRules {
  staleAfterMs: number;
  unreadableAfterMs: number;
  clock: () => number;
}

function isStale(lockFile: string, { staleAfterMs, unreadableAfterMs, clock }: StaleRules): boolean {
  let content: string;
  let modifiedMs: number;
  try {
    content = fs.readFileSync(lockFile, "utf8");
    modifiedMs = fs.statSync(lockFile).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false; // released meanwhile: just retry
    throw error;
  }
  const age = clock() - modifiedMs;
  if (age > staleAfterMs) return true;
  const owner = /^(\d+) \S+$/.exec(content);
  const pid = owner === null ? Number.NaN : Number(owner[1]);
  // No readable owner: an older ctxwin killed between creating and filling its lock.
  if (!Number.isSafeInteger(pid) || pid <= 0) return age > unreadableAfterMs;
  if (pid === process.pid) return false;
  return !processExists(pid);
}

/** Whether a process with this pid exists (one we may not signal counts as existing). */
export function processExists(pid: number): boolean {
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
