/**
 * SQLite's candidate stage of a vector search across sessions (ADR 0105). Scanning each session's
 * signatures where the sign cache holds them costs ~14 µs a session whatever its size (each lives
 * in its own WebAssembly memory: 1,000 sessions of 100 rows took 14 ms, one session of 100,000 rows
 * 2.5 ms, measured), so the sessions of a search are copied once into one signature block
 * (`CombinedSigns`), kept while the file and the sessions searched are unchanged, and scanned in one
 * pass. The `k` vectors nearest by Hamming distance are kept, the newest vectors first on a tie at
 * the cut, as one session's search keeps them; the caller rescores those exactly.
 */
import { SessionSigns, distanceCut } from "./sign-cache.js";
import type { SeqSegment } from "./vector-index.js";

/** Several sessions' signatures side by side, each row with the position of its session. */
export interface CombinedSigns {
  signs: SessionSigns;
  /** By row: the position of its session in `sessionIds`. */
  sessionOf: Int32Array;
  sessionIds: readonly string[];
  /** Bytes held (for the cache's budget). */
  bytes: number;
}

/**
 * One block of the sessions' signatures, in the order given.
 *
 * @example const combined = combineSigns([["s1", signsOfS1], ["s2", signsOfS2]], 384);
 */
export function combineSigns(
  sessions: readonly (readonly [string, SessionSigns])[],
  dimensions: number,
): CombinedSigns {
  const rows = sessions.reduce((sum, [, signs]) => sum + signs.count, 0);
  const signs = new SessionSigns(dimensions, { capacity: Math.max(1, rows) });
  const sessionOf = new Int32Array(rows);
  let at = 0;
  sessions.forEach(([, own], position) => {
    const { ids, seqs, bits } = own.rows();
    signs.addRows(ids, seqs, bits);
    sessionOf.fill(position, at, at + own.count);
    at += own.count;
  });
  return {
    signs,
    sessionOf,
    sessionIds: sessions.map(([sessionId]) => sessionId),
    bytes: signs.bytes + sessionOf.byteLength,
  };
}

/**
 * The vector ids of the (at most) `k` signatures of `combined` nearest to `query` among each
 * session's segments (`segments[position]`, the positions of `combined.sessionIds`).
 *
 * @example nearestSignsAcross({ combined, segments: [[{ low: 0, high: 40 }]], query, k: 400 })
 */
export function nearestSignsAcross({
  combined,
  segments,
  query,
  k,
}: {
  combined: CombinedSigns;
  segments: readonly (readonly SeqSegment[])[];
  query: Uint32Array;
  k: number;
}): number[] {
  const { distances, ids, seqs } = combined.signs.distancesTo(query);
  const histogram = new Int32Array(combined.signs.words * 32 + 2);
  // Rows outside their session's segments are marked -1; the others counted by distance.
  for (let row = 0; row < distances.length; row += 1) {
    const seq = seqs[row] as number;
    const parts = segments[combined.sessionOf[row] as number] ?? [];
    let inside = false;
    for (const part of parts) if (seq > part.low && seq <= part.high) inside = true;
    if (!inside) distances[row] = -1;
    else histogram[distances[row] as number] = (histogram[distances[row] as number] as number) + 1;
  }
  // Rows nearer than `cut` are taken; the newest rows at `cut` fill the rest.
  const { cut, taken } = distanceCut(histogram, k);
  const found: number[] = [];
  const atCut: number[] = [];
  for (let row = 0; row < distances.length; row += 1) {
    const distance = distances[row] as number;
    if (distance < 0 || distance > cut) continue;
    if (distance < cut) found.push(ids[row] as number);
    else atCut.push(ids[row] as number);
  }
  if (atCut.length > k - taken) atCut.sort((left, right) => right - left);
  return [...found, ...atCut.slice(0, k - taken)];
}
