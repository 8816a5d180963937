/**
 * A clock for deadline tests that moves only when the store commits: each append moves it on by a
 * fixed step, so where an import stops depends on batches, never on the machine's speed.
 */
import type { HistoryStore } from "../../store/port.js";

/**
 * @example
 * const clock = { time: Date.now() };
 * const store = advancingOnAppend(openStore({ directory }), clock, 1_000);
 */
export function advancingOnAppend(store: HistoryStore, clock: { time: number }, stepMs: number): HistoryStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property === "append") {
        return async (...args: Parameters<HistoryStore["append"]>) => {
          const written = await target.append(...args);
          clock.time += stepMs;
          return written;
        };
      }
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
