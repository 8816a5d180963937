/**
 * Every window of a session, oldest first and numbered from 1, as the person's views need them
 * (cleared history included: only search applies the privacy floor). Read from the store's window
 * summaries, so the cost follows the number of windows, not of rows; cached per session until its
 * last seq or incarnation changes.
 */
import type { HistoryStore, WindowSummary } from "../store/port.js";
import { readAllWindows } from "../store/read-timeline.js";

export interface NumberedWindow extends WindowSummary {
  /** 1 for the session's first window. */
  number: number;
}

export interface SessionWindows {
  /** Oldest first. */
  windows: NumberedWindow[];
  /** The window a row with this seq belongs to (the first window for seqs before any boundary). */
  windowOf(seq: number): NumberedWindow | undefined;
}

/**
 * @example
 * const cache = createWindowCache({ store });
 * const { windowOf } = await cache.windowsOf("s1");
 */
export function createWindowCache({ store }: { store: HistoryStore }) {
  // Promises, so that requests arriving together (the UI asks for windows and rows at once) share one read.
  const cache = new Map<string, { key: string; value: Promise<SessionWindows> }>();
  return {
    async windowsOf(sessionId: string): Promise<SessionWindows> {
      const summary = await store.session(sessionId);
      if (summary === undefined) return numbered([]);
      const key = `${summary.incarnation}:${summary.lastSeq}`;
      const cached = cache.get(sessionId);
      if (cached !== undefined && cached.key === key) return cached.value;
      const value = readAllWindows({ store, sessionId }).then(numbered);
      cache.set(sessionId, { key, value });
      try {
        return await value;
      } catch (error) {
        // A failed read is not kept: the next request reads again.
        if (cache.get(sessionId)?.value === value) cache.delete(sessionId);
        throw error;
      }
    },
  };
}

export type WindowCache = ReturnType<typeof createWindowCache>;

function numbered(windows: readonly WindowSummary[]): SessionWindows {
  const list = windows.map((window, index) => ({ ...window, number: index + 1 }));
  return {
    windows: list,
    windowOf(seq) {
      let low = 0;
      let high = list.length - 1;
      let found: NumberedWindow | undefined = list[0];
      while (low <= high) {
        const middle = (low + high) >> 1;
        const candidate = list[middle] as NumberedWindow;
        if (candidate.boundarySeq <= seq) {
          found = candidate;
          low = middle + 1;
        } else {
          high = middle - 1;
        }
      }
      return found;
    },
  };
}
