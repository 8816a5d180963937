/**
 * How common each frequent word of the ranked index is, from the server's own statistics: the
 * share of rows whose `words` vector holds it (`pg_stats.most_common_elems`, gathered by ANALYZE
 * and autovacuum). Ranked search uses it only to choose how to count a word's rows (ADR 0036):
 * a common word is counted by walking rows until the cap, a rarer one through the word index.
 * The counts themselves are exact either way, so stale or missing statistics cost time, never
 * change a result. Read at most once per `ttlMs` per open store.
 */
import type pg from "pg";

export type WordShares = (client: pg.PoolClient) => Promise<ReadonlyMap<string, number>>;

/**
 * @example const shares = createWordShares({ schema: "ctxwin" }); (await shares(client)).get("the") // 0.995
 */
export function createWordShares({ schema, ttlMs = 10 * 60_000, now = Date.now }: { schema: string; ttlMs?: number; now?: () => number }): WordShares {
  let cached: { at: number; shares: ReadonlyMap<string, number> } | undefined;
  return async (client) => {
    if (cached !== undefined && now() - cached.at <= ttlMs) return cached.shares;
    const result = await client.query<{ words: string[] | null; shares: number[] | null }>(
      `SELECT most_common_elems::text::text[] AS words, most_common_elem_freqs AS shares FROM pg_stats
       WHERE schemaname = $1 AND tablename = 'ctxwin_rows' AND attname = 'words'`,
      [schema],
    );
    const { words, shares } = result.rows[0] ?? { words: null, shares: null };
    const map = new Map<string, number>();
    // The frequencies list ends with three summary figures; the words pair with its first entries.
    words?.forEach((word, index) => map.set(word, Number(shares?.[index] ?? 0)));
    cached = { at: now(), shares: map };
    return map;
  };
}
