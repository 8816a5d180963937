/**
 * SQLite's candidate stage of a vector search across sessions (ADR 0105): each session's sign bits
 * are scanned where the sign cache holds them (`SessionSigns.distancesTo`), and the `k` vectors of
 * all sessions nearest by Hamming distance are kept, the newest vectors first on a tie at the cut,
 * as one session's search keeps them. The caller rescores those exactly, as for one session.
 */
import type { SessionSigns } from "./sign-cache.js";
import type { SeqSegment } from "./vector-index.js";

/**
 * The vector ids of the (at most) `k` signatures nearest to `query` among every session's segments.
 *
 * @example nearestSignsAcross({ sessions: [[signs, [{ low: 0, high: 40 }]]], query, k: 400 })
 */
export function nearestSignsAcross({
  sessions,
  query,
  k,
}: {
  sessions: Iterable<readonly [SessionSigns, readonly SeqSegment[]]>;
  query: Uint32Array;
  k: number;
}): number[] {
  const scanned: { distances: Int32Array; ids: Float64Array }[] = [];
  let histogram = new Int32Array(0);
  // Pass 1: every session's distances (rows outside its segments marked -1), counted by distance.
  for (const [signs, segments] of sessions) {
    if (histogram.length === 0) histogram = new Int32Array(signs.words * 32 + 2);
    const { distances, ids, seqs } = signs.distancesTo(query);
    const single = segments.length === 1 ? segments[0] : undefined;
    for (let row = 0; row < distances.length; row += 1) {
      const seq = seqs[row] as number;
      const inside =
        single !== undefined
          ? seq > single.low && seq <= single.high
          : segments.some((segment) => seq > segment.low && seq <= segment.high);
      if (!inside) distances[row] = -1;
      else histogram[distances[row] as number] = (histogram[distances[row] as number] as number) + 1;
    }
    scanned.push({ distances, ids });
  }
  // The smallest distance `cut` such that at most k rows are strictly nearer; the newest rows at `cut` fill the rest.
  let taken = 0;
  let cut = 0;
  while (cut < histogram.length && taken + (histogram[cut] as number) <= k) {
    taken += histogram[cut] as number;
    cut += 1;
  }
  // Pass 2: the rows nearer than the cut, and those at it.
  const found: number[] = [];
  const atCut: number[] = [];
  for (const { distances, ids } of scanned) {
    for (let row = 0; row < distances.length; row += 1) {
      const distance = distances[row] as number;
      if (distance < 0 || distance > cut) continue;
      if (distance < cut) found.push(ids[row] as number);
      else atCut.push(ids[row] as number);
    }
  }
  if (atCut.length > k - taken) atCut.sort((left, right) => right - left);
  return [...found, ...atCut.slice(0, k - taken)];
}
