/**
 * SQLite's candidate stage of a vector search across sessions (ADR 0105): each session's sign bits
 * are scanned where the sign cache holds them (`SessionSigns.scan`), and the `k` vectors of all
 * sessions nearest by Hamming distance are kept, the newest vectors first on a tie at the cut, as
 * one session's search keeps them. The caller rescores those exactly, as for one session.
 */
import type { SessionSigns } from "./sign-cache.js";
import { inSegments, type SeqSegment } from "./vector-index.js";

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
  const ids: number[] = [];
  const distances: number[] = [];
  let histogram = new Int32Array(0);
  for (const [signs, segments] of sessions) {
    if (histogram.length === 0) histogram = new Int32Array(signs.words * 32 + 2);
    signs.scan(
      query,
      (seq) => inSegments(segments, seq),
      (id, distance) => {
        ids.push(id);
        distances.push(distance);
        histogram[distance] = (histogram[distance] as number) + 1;
      },
    );
  }
  if (ids.length <= k) return ids;
  // The smallest distance `cut` such that at most k rows are strictly nearer; the newest rows at `cut` fill the rest.
  let taken = 0;
  let cut = 0;
  while (cut < histogram.length && taken + (histogram[cut] as number) <= k) {
    taken += histogram[cut] as number;
    cut += 1;
  }
  const found: number[] = [];
  const atCut: number[] = [];
  for (let row = 0; row < ids.length; row += 1) {
    const distance = distances[row] as number;
    if (distance < cut) found.push(ids[row] as number);
    else if (distance === cut) atCut.push(ids[row] as number);
  }
  atCut.sort((left, right) => right - left);
  return [...found, ...atCut.slice(0, k - taken)];
}
