/**
 * At most `limit` tasks at once; the others wait in order for a free slot.
 */
export interface ConcurrencyLimit {
  run<T>(work: () => Promise<T>): Promise<T>;
}

/** @example const limit = createConcurrencyLimit(2); await Promise.all(tasks.map((task) => limit.run(task))); */
export function createConcurrencyLimit(limit: number): ConcurrencyLimit {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    running -= 1;
    waiting.shift()?.();
  };
  return {
    async run(work) {
      if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      running += 1;
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}
