/**
 * One lock per store and session across the process: every agent object over the same session
 * (a route handler makes one per request) sends one at a time, so two requests of one chat are
 * queued, never interleaved. Sessions served by several processes need their requests routed to
 * one process for the same guarantee; the store keeps rows consistent either way.
 */
import type { HistoryStore } from "../store/port.js";
import { createSessionLock, type LockOutcome } from "./session-lock.js";

type Lock = ReturnType<typeof createSessionLock>;

const locks = new WeakMap<HistoryStore, Map<string, { lock: Lock; users: number }>>();

/**
 * Whether a send of the session holds or waits for the lock in this process.
 *
 * @example if (sendRunning({ store, sessionId })) throw new SessionBusyError(sessionId);
 */
export function sendRunning({ store, sessionId }: { store: HistoryStore; sessionId: string }): boolean {
  return (locks.get(store)?.get(sessionId)?.users ?? 0) > 0;
}

/**
 * Runs `task` when no other send of the session runs, unless `signal` aborts first.
 *
 * @example await withSendLock({ store, sessionId, signal }, () => send(input));
 */
export async function withSendLock<T>(
  { store, sessionId, signal }: { store: HistoryStore; sessionId: string; signal?: AbortSignal | undefined },
  task: () => Promise<T>,
): Promise<LockOutcome<T>> {
  let sessions = locks.get(store);
  if (sessions === undefined) locks.set(store, (sessions = new Map()));
  const entry = sessions.get(sessionId) ?? { lock: createSessionLock(), users: 0 };
  sessions.set(sessionId, entry);
  entry.users += 1;
  try {
    return await entry.lock.runUnlessAborted(task, signal);
  } finally {
    entry.users -= 1;
    if (entry.users === 0) sessions.delete(sessionId);
  }
}
