/**
 * Wrappers around a real store for tests: one records every append call (to check what was
 * written together), one makes chosen appends fail (fault injection). Reads go to the real store.
 */
import type { RowInput } from "../../core/row.js";
import type { AppendOptions, HistoryStore, StoredRow } from "../../store/port.js";

type Append = (sessionId: string, rows: readonly RowInput[], options?: AppendOptions) => Promise<StoredRow[]>;

function withAppend(store: HistoryStore, append: Append): HistoryStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === "append") return append;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * @example
 * const { store, appends } = recordingStore(memoryStore()); // appends[i] = rows of call i
 */
export function recordingStore(inner: HistoryStore): { store: HistoryStore; appends: RowInput[][] } {
  const appends: RowInput[][] = [];
  const store = withAppend(inner, async (sessionId, rows, options) => {
    const stored = await inner.append(sessionId, rows, options);
    appends.push([...rows]);
    return stored;
  });
  return { store, appends };
}

/**
 * An append for which `shouldFail(rows)` is true throws before anything reaches the real store.
 *
 * @example
 * const store = failingStore(inner, (rows) => rows.some((row) => row.boundary !== undefined));
 */
export function failingStore(inner: HistoryStore, shouldFail: (rows: readonly RowInput[]) => boolean): HistoryStore {
  return withAppend(inner, async (sessionId, rows, options) => {
    if (shouldFail(rows)) throw new Error("injected append failure: disk full");
    return inner.append(sessionId, rows, options);
  });
}
