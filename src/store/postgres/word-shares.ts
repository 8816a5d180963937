/**
 * How common each frequent word of the ranked index is, from the server's own statistics: the
 * share of rows whose `words` vector holds it (`pg_stats.most_common_elems`, gathered by ANALYZE
 * and autovacuum). Ranked search uses it only to choose how to count a word's rows (ADR 0036):
 * a common word is counted by walking rows until the cap, a rarer one through the word index.
 * The counts themselves are exact either way, so stale or missing statistics cost time, never
 * change a result. Read at most once per `ttlMs` per open store.
 */
import type pg from "pg";

export interface WordStatistics {
  /** Share of the table's rows holding each frequent word. */
  shares: ReadonlyMap<string, number>;
  /** Rows in the table (all sessions), as the statistics last counted them. */
  tableRows: number;
}

export type WordShares = (client: pg.ClientBase) => Promise<WordStatistics>;

/**
 * @example const statistics = createWordShares({ schema: "ctxwin" }); (await statistics(client)).shares.get("the") // 0.995
 */
export function createWordShares({
  schema,
  ttlMs = 10 * 60_000,
  now = Date.now,
}: {
  schema: string;
  ttlMs?: number;
  now?: () => number;
}): WordShares {
  let cached: { at: number; statistics: WordStatistics } | undefined;
  return async (client) => {
    if (cached !== undefined && now() - cached.at <= ttlMs) return cached.statistics;
    const result = await client.query<{ words: string[] | null; shares: number[] | null; table_rows: number | null }>(
      `SELECT most_common_elems::text::text[] AS words, most_common_elem_freqs AS shares,
         (SELECT reltuples::float8 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = $1 AND c.relname = 'ctxwin_rows') AS table_rows
       FROM (SELECT 1) one LEFT JOIN pg_stats ON schemaname = $1 AND tablename = 'ctxwin_rows' AND attname = 'words'`,
      [schema],
    );
    const { words, shares, table_rows: tableRows } = result.rows[0] ?? { words: null, shares: null, table_rows: null };
    const map = new Map<string, number>();
    // The frequencies list ends with summary figures (lowest, highest); the words pair with its first entries.
    words?.forEach((word, index) => map.set(word, Number(shares?.[index] ?? 0)));
    cached = { at: now(), statistics: { shares: map, tableRows: Math.max(0, Number(tableRows ?? 0)) } };
    return cached.statistics;
  };
}
