/**
 * A FIFO lock: turns, clears and compactions of one session object run one at a time. A send
 * waiting for it can give up when its signal aborts, without disturbing the order of the others.
 */

export type LockOutcome<T> = { status: "ran"; value: T } | { status: "aborted" };

/**
 * @example
 * const lock = createSessionLock();
 * await lock.run(async () => { ... });
 * const outcome = await lock.runUnlessAborted(async () => 1, signal); // { status: "aborted" } if signal fires first
 */
export function createSessionLock() {
  let tail: Promise<void> = Promise.resolve();
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      const previous = tail;
      let release!: () => void;
      tail = new Promise<void>((resolve) => (release = resolve));
      await previous;
      try {
        return await task();
      } finally {
        release();
      }
    },
    /**
     * Runs `task` under the lock unless `signal` aborts first (before or while waiting). A waiter
     * that gives up hands its place on: whoever queued behind it still waits for those before it.
     */
    async runUnlessAborted<T>(task: () => Promise<T>, signal: AbortSignal | undefined): Promise<LockOutcome<T>> {
      if (signal?.aborted === true) return { status: "aborted" };
      const previous = tail;
      let release!: (after?: Promise<void>) => void;
      tail = new Promise<void>((resolve) => (release = resolve));
      if (!(await acquired(previous, signal))) {
        release(previous);
        return { status: "aborted" };
      }
      try {
        return { status: "ran", value: await task() };
      } finally {
        release();
      }
    },
  };
}

/** Whether `previous` settled before `signal` aborted. */
async function acquired(previous: Promise<void>, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal === undefined) {
    await previous;
    return true;
  }
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<false>((resolve) => {
    onAbort = () => resolve(false);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([previous.then(() => true as const), aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
