/**
 * A FIFO lock: turns, clears and compactions of one session object run one at a time.
 */

/**
 * @example
 * const lock = createSessionLock();
 * await lock.run(async () => { ... });
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
  };
}
