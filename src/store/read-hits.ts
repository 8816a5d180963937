/**
 * `readHits` (several rows by seq, with their window ids) shared by the backends: the order of the
 * answer, and the row-by-row reading a fork's view uses (its origin rows are read through the origin).
 */
import { windowIdFor } from "../core/windows.js";
import type { FloorOptions, HistoryStore, SearchHit } from "./port.js";

/**
 * The hits of `seqs` in the order asked, the seqs `hitOf` does not find left out.
 *
 * @example hitsInOrder([3, 1], (seq) => found.get(seq)) // [hit of 3, hit of 1]
 */
export function hitsInOrder(seqs: readonly number[], hitOf: (seq: number) => SearchHit | undefined): SearchHit[] {
  const hits: SearchHit[] = [];
  for (const seq of seqs) {
    const hit = hitOf(seq);
    if (hit !== undefined) hits.push(hit);
  }
  return hits;
}

/**
 * `readHits` through `read` and `windows`, one seq at a time (a fork's rows, whose origin rows come
 * from the origin session).
 *
 * @example const hits = await readHitsOneByOne(store, "fork", [12, 4], {});
 */
export async function readHitsOneByOne(
  store: Pick<HistoryStore, "read" | "windows">,
  sessionId: string,
  seqs: readonly number[],
  options: FloorOptions,
): Promise<SearchHit[]> {
  const hits: SearchHit[] = [];
  for (const seq of seqs) {
    const row = await store.read(sessionId, seq, options);
    if (row === undefined) continue;
    const page = await store.windows(sessionId, { beforeWindow: windowIdFor(seq + 1), limit: 1, includeCleared: true });
    hits.push({ row, windowId: page.windows[0]?.windowId ?? windowIdFor(0) });
  }
  return hits;
}
