/**
 * What a session already holds, as the import engine needs it: the ids of its rows (the store is
 * the import's only state, ADR 0049), the tool calls it stored without a result, and which of its
 * rows are manual resets (rows a person added, never a sign of a different history).
 */
import type { HistoryStore } from "../store/port.js";

export interface StoredSession {
  /** The session's last seq when it was read: appends expect it. */
  lastSeq: number;
  /** Ids of the stored rows, in the form the source format writes today. */
  ids: Set<string>;
  /** Row id → ids of its tool calls stored without a result. */
  openCalls: Map<string, Set<string>>;
  /** Ids of stored rows that are manual resets. */
  resets: Set<string>;
}

const PAGE = 1_000;

/**
 * Undefined when `stopWhen` (asked before each page after the first) said stop.
 *
 * @example const stored = await readStoredSession(store, "claude-code:abc");
 */
export async function readStoredSession(
  store: HistoryStore,
  sessionId: string,
  normalizeId: (id: string) => string = (id) => id,
  stopWhen: () => boolean = () => false,
): Promise<StoredSession | undefined> {
  const stored: StoredSession = {
    lastSeq: await store.lastSeq(sessionId),
    ids: new Set(),
    openCalls: new Map(),
    resets: new Set(),
  };
  let afterSeq = 0;
  while (afterSeq < stored.lastSeq) {
    if (afterSeq > 0 && stopWhen()) return undefined;
    const page = await store.items(sessionId, {
      includeCleared: true,
      afterSeq,
      beforeSeq: stored.lastSeq + 1,
      limit: PAGE,
    });
    for (const row of page.rows) {
      const id = normalizeId(row.id);
      stored.ids.add(id);
      if (row.boundary?.kind === "reset") stored.resets.add(id);
      const open = row.parts.flatMap((part) =>
        part.type === "dynamic-tool" && (part as { state?: string }).state === "input-available"
          ? [(part as { toolCallId: string }).toolCallId]
          : [],
      );
      if (open.length > 0) stored.openCalls.set(id, new Set(open));
    }
    // Seqs are gap-free: the page covered one seq per row it returned or skipped as corrupt.
    afterSeq += page.rows.length + page.skipped;
    if (!page.hasMore || page.rows.length + page.skipped === 0) break;
  }
  return stored;
}
