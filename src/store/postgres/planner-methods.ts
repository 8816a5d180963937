/**
 * How the PostgreSQL backend picks a search statement's plan where it knows more than the
 * planner's statistics (ADR 0036; docs/benchmarks.md, store, PostgreSQL): walk the newest rows of
 * the range testing each, or read what an index lists.
 */
import type pg from "pg";
import type { WordStatistics } from "./word-shares.js";

export type PlannerMethod = "enable_seqscan" | "enable_indexscan" | "enable_bitmapscan";
/** Read the range's rows newest first (primary key), testing each row's words. */
export const WALK_ROWS: PlannerMethod[] = ["enable_seqscan", "enable_bitmapscan"];
/** Read the rows the word index lists. */
export const USE_WORD_INDEX: PlannerMethod[] = ["enable_seqscan", "enable_indexscan"];
/** Read the rows an index lists (GIN indexes serve only bitmap scans: the trigram one, or the key's range). */
export const USE_TEXT_INDEX = USE_WORD_INDEX;

/**
 * Runs `work` with the planner methods `off` disabled and the others enabled: ctxwin picks the
 * plan where it knows more than the planner's statistics. The settings are local to the search's
 * read transaction (`set_config(..., true)`), so they end with it; each planned statement sets
 * all three, and the statements between them (rows by seq) are served alike by any plan.
 *
 * @example await withPlan(client, WALK_ROWS, () => client.query(...));
 */
export async function withPlan<T>(
  client: pg.PoolClient,
  off: readonly PlannerMethod[],
  work: () => Promise<T>,
): Promise<T> {
  if (off.length === 0) return work();
  await client.query(`SELECT ${planSettings(off)}`);
  return work();
}

/**
 * The select list that sets the planner methods as `withPlan` does, for a statement that has
 * another job too (one round trip less).
 *
 * @example await client.query(`SELECT ${planSettings(WALK_ROWS)}, count(*) FROM t`);
 */
export function planSettings(off: readonly PlannerMethod[]): string {
  const methods: PlannerMethod[] = ["enable_seqscan", "enable_indexscan", "enable_bitmapscan"];
  return methods.map((method) => `set_config('${method}', '${off.includes(method) ? "off" : "on"}', true)`).join(", ");
}

/**
 * Testing one row's words on a walk costs about as much as this many word-index entries: 4–7 since
 * the words are kept in the row (format 5, ADR 0103: 2–4 µs a row against 0.5–0.9 µs an entry);
 * 15–49 when they were out of line (ADR 0095).
 */
const WALK_ROW_IN_INDEX_ENTRIES = 5;

/**
 * How many of the newest rows to walk to find `wanted` rows holding any of `words`, or undefined
 * when listing all of their rows from the word index costs less. The walk reads about
 * `wanted / share` rows and the index `share × tableRows` entries, where a list's share is its
 * words' shares summed (at most 1: an upper bound of the rows holding any); the walk is allowed
 * four times its expected rows, since the share is the whole table's and this session's may be
 * lower (the index then takes over). A word without statistics counts as rare.
 *
 * @example walkLimit(["the"], 500, { shares: new Map([["the", 0.99]]), tableRows: 100_000 }) // 2021
 * walkLimit(["founder"], 501, { shares: new Map([["founder", 0.26]]), tableRows: 100_000 }) // 7708
 */
export function walkLimit(
  words: readonly string[],
  wanted: number,
  { shares, tableRows }: WordStatistics,
): number | undefined {
  const share = shareOf(words, shares);
  if (share <= 0 || (wanted / share) * WALK_ROW_IN_INDEX_ENTRIES >= share * tableRows) return undefined;
  return Math.ceil((4 * wanted) / share);
}

/**
 * How many of the newest rows to ask the word index about first when the newest `wanted` rows
 * holding any of `words` are wanted in order and `walkLimit` chose the index: twice the rows
 * expected to hold `wanted` of them. An ordered read from the index visits every match in the
 * table before it sorts (a word in a quarter of 100,000 long rows: 26,000 visits, ~130 ms); asked
 * about this span only (its list ANDed with the key's range, which reads an entry of the key for
 * each row of the span) it visits about `2 × wanted`. Undefined for words without statistics, and
 * when the span holds more rows than the table holds matches: a word in 3% of 100,000 rows is
 * listed whole (2,700 visits) faster than its span of 37,000 keys is read (ADR 0095).
 *
 * @example indexReach(["founder"], 501, { shares: new Map([["founder", 0.26]]), tableRows: 100_000 }) // 3854
 * indexReach(["plan"], 501, { shares: new Map([["plan", 0.027]]), tableRows: 100_000 }) // undefined
 */
export function indexReach(
  words: readonly string[],
  wanted: number,
  { shares, tableRows }: WordStatistics,
): number | undefined {
  const share = shareOf(words, shares);
  if (share <= 0) return undefined;
  const reach = Math.ceil((2 * wanted) / share);
  return reach < share * tableRows ? reach : undefined;
}

/** The words' shares of rows summed, at most 1: an upper bound of the share holding any of them (0 without statistics). */
function shareOf(words: readonly string[], shares: ReadonlyMap<string, number>): number {
  return Math.min(
    1,
    words.reduce((sum, word) => sum + (shares.get(word) ?? 0), 0),
  );
}
