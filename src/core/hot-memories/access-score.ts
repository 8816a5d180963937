/**
 * Access statistics of one memory file and the decayed score that ranks unpinned files.
 * An access weighs 1 when it happens and half as much after each half-life.
 */

/** What is remembered about a file's use. Times are epoch milliseconds. */
export interface AccessRecord {
  /** Accesses ever counted (never decays). */
  count: number;
  /** Decayed score as of `scoreAt`. */
  score: number;
  scoreAt: number;
  lastAccessAt: number;
}

/** A file's record (`undefined` when it was never accessed), the time to score it at, and the half-life. */
export interface AccessAt {
  record: AccessRecord | undefined;
  now: number;
  halfLifeMs: number;
}

/**
 * The score of `record` at `now`; 0 for a file never accessed.
 *
 * @example
 * decayedScore({ record: { count: 1, score: 1, scoreAt: 0, lastAccessAt: 0 }, now: 7 * 86_400_000, halfLifeMs: 7 * 86_400_000 }) // 0.5
 */
export function decayedScore({ record, now, halfLifeMs }: AccessAt): number {
  if (record === undefined || record.count <= 0) return 0;
  const age = Math.max(0, now - record.scoreAt);
  return record.score * Math.pow(0.5, age / halfLifeMs);
}

/**
 * The record after one more access at `now`.
 *
 * @example
 * const record = recordAccess({ record: undefined, now: Date.now(), halfLifeMs });
 */
export function recordAccess({ record, now, halfLifeMs }: AccessAt): AccessRecord {
  const score = decayedScore({ record, now, halfLifeMs }) + 1;
  return {
    count: (record?.count ?? 0) + 1,
    score,
    scoreAt: Math.max(now, record?.scoreAt ?? now),
    lastAccessAt: Math.max(now, record?.lastAccessAt ?? now),
  };
}
