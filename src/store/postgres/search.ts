/**
 * Search on the PostgreSQL backend (ADR 0036). `core/` decides the rules; these queries execute
 * them, with the privacy floor, window and before-item bounds inside every query:
 * - Literal: `literal_text LIKE '%<folded query>%'`, where `literal_text` is the row's searchable
 *   text folded by `core/`'s `foldCase` when it was stored, so the match is exactly
 *   `containsLiteral`; newest first. A pg_trgm GIN index serves queries of three or more
 *   characters when the extension is installed.
 * - Ranked: PostgreSQL full-text search over the `words` vector (`core/`'s `tokenizeWords`),
 *   under the same bound as every backend (ADR 0016): `selectRankedWords` keeps the rarest words
 *   when the range holds more than `RANKED_CANDIDATE_LIMIT` rows, and only the newest
 *   `RANKED_CANDIDATE_LIMIT` matching rows are scored (`ts_rank`, length-normalized), newest first
 *   among equal scores.
 * - Role and tool-name filters (ADR 0033) are checked on each row, in result order, before it
 *   counts as a hit: for ranked search among the scored rows only; a filtered literal search reads
 *   at most `FILTER_SCAN_LIMIT` matches and then says where to resume.
 */
import type pg from "pg";
import { foldCase, rankedQueryWords } from "../../core/search-query.js";
import { RANKED_CANDIDATE_LIMIT, selectRankedWords } from "../../core/ranked-search-plan.js";
import { orderRankedCandidates } from "../../core/ranked-score.js";
import { hasSearchFilter, rowMatchesFilter } from "../../core/search-filter.js";
import { windowIdFor } from "../../core/windows.js";
import type { CheckedSearch } from "../options.js";
import { FILTER_SCAN_LIMIT, filteredScan } from "../filtered-scan.js";
import { bodyMayMatchFilter } from "../row-codec.js";
import type { SearchHit, SearchPage, StoredRow } from "../port.js";
import type { TableNames } from "./schema.js";
import { anyWordQuery } from "./word-vector.js";
import type { WordShares } from "./word-shares.js";

export interface EncodedRow {
  seq: number;
  window_seq: number;
  body: string;
}

export interface SearchContext {
  client: pg.PoolClient;
  tables: TableNames;
  sessionKey: number;
  sessionId: string;
  lastSeq: number;
  /** Exclusive seq bounds of the searched range (floor, window, before-item applied). */
  lowSeq: number;
  highSeq: number;
  decode: (sessionId: string, row: EncodedRow) => StoredRow | undefined;
  wordShares: WordShares;
}

/** `LIKE` pattern matching `text` anywhere (backslash is the default escape). */
export function containsPattern(text: string): string {
  return `%${foldCase(text).replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export async function searchRows(context: SearchContext, checked: CheckedSearch): Promise<SearchPage> {
  if (context.highSeq - context.lowSeq <= 1) return { hits: [], hasMore: false };
  if (hasSearchFilter(checked)) return filteredRows(context, checked);
  const rows = checked.mode === "literal" ? await literalRows(context, checked) : await rankedRows(context, checked);
  const hits: SearchHit[] = [];
  for (const encoded of rows.slice(0, checked.limit)) {
    const row = context.decode(context.sessionId, encoded);
    if (row !== undefined) hits.push({ row, windowId: windowIdFor(encoded.window_seq) });
  }
  return { hits, hasMore: rows.length > checked.limit };
}

async function literalRows({ client, tables, sessionKey, lowSeq, highSeq }: SearchContext, checked: CheckedSearch): Promise<EncodedRow[]> {
  const result = await client.query<EncodedRow>(
    `SELECT seq, window_seq, body FROM ${tables.rows}
     WHERE session_key = $1 AND seq > $2 AND seq < $3 AND visible AND literal_text LIKE $4
     ORDER BY seq DESC LIMIT $5 OFFSET $6`,
    [sessionKey, lowSeq, highSeq, containsPattern(checked.query), checked.limit + 1, checked.offset],
  );
  return result.rows;
}

/** Rows read per query while looking for rows that pass a filter. */
const FILTER_BATCH = 200;

/**
 * A page of the rows that pass the role and tool-name filters, in result order: literal matches
 * are read newest first in batches, ranked ones from the scored rows, until the page and one more
 * hit are found.
 */
async function filteredRows(context: SearchContext, checked: CheckedSearch): Promise<SearchPage> {
  // A literal scan stops after FILTER_SCAN_LIMIT matches and says where to resume (ADR 0033).
  const scan = filteredScan<SearchHit>({ ...checked, scanLimit: checked.mode === "literal" ? FILTER_SCAN_LIMIT : Number.POSITIVE_INFINITY });
  const hitOf = (encoded: EncodedRow): SearchHit | undefined => {
    if (!bodyMayMatchFilter(encoded.body, checked)) return undefined;
    const row = context.decode(context.sessionId, encoded);
    return row === undefined || !rowMatchesFilter(row, checked) ? undefined : { row, windowId: windowIdFor(encoded.window_seq) };
  };
  const batches = checked.mode === "literal" ? literalBatches(context, checked) : rankedBatches(context, checked);
  for await (const batch of batches) {
    for (const encoded of batch) if (scan.take(Number(encoded.seq), hitOf(encoded))) return scan.page();
  }
  return scan.page();
}

async function* literalBatches({ client, tables, sessionKey, lowSeq, highSeq }: SearchContext, checked: CheckedSearch): AsyncGenerator<EncodedRow[]> {
  for (let before = highSeq; ; ) {
    const result = await client.query<EncodedRow>(
      `SELECT seq, window_seq, body FROM ${tables.rows}
       WHERE session_key = $1 AND seq > $2 AND seq < $3 AND visible AND literal_text LIKE $4
       ORDER BY seq DESC LIMIT $5`,
      [sessionKey, lowSeq, before, containsPattern(checked.query), FILTER_BATCH],
    );
    yield result.rows;
    const last = result.rows.at(-1);
    if (result.rows.length < FILTER_BATCH || last === undefined) return;
    before = Number(last.seq);
  }
}

async function* rankedBatches(context: SearchContext, checked: CheckedSearch): AsyncGenerator<EncodedRow[]> {
  const ordered = await rankedOrder(context, checked);
  for (let start = 0; start < ordered.length; start += FILTER_BATCH) {
    yield await rowsBySeq(context, ordered.slice(start, start + FILTER_BATCH));
  }
}

async function rankedRows(context: SearchContext, checked: CheckedSearch): Promise<EncodedRow[]> {
  const ordered = await rankedOrder(context, checked);
  return rowsBySeq(context, ordered.slice(checked.offset, checked.offset + checked.limit + 1));
}

/** The rows of `seqs`, in that order (rows gone meanwhile left out). */
async function rowsBySeq({ client, tables, sessionKey }: SearchContext, seqs: readonly number[]): Promise<EncodedRow[]> {
  if (seqs.length === 0) return [];
  const result = await client.query<EncodedRow>(
    `SELECT seq, window_seq, body FROM ${tables.rows} WHERE session_key = $1 AND seq = ANY($2::bigint[])`,
    [sessionKey, seqs],
  );
  const bySeq = new Map(result.rows.map((row) => [Number(row.seq), row]));
  return seqs.map((seq) => bySeq.get(seq)).filter((row): row is EncodedRow => row !== undefined);
}

/** Share of rows holding a word (server statistics) from which its rows are counted by walking the rows. */
const WALK_COUNT_SHARE = 0.2;

/**
 * Runs `work` with the planner methods `off` disabled (for this transaction only), then enables
 * them again: ctxwin picks the plan where it knows more than the planner's statistics.
 */
async function withPlan<T>(client: pg.PoolClient, off: readonly PlannerMethod[], work: () => Promise<T>): Promise<T> {
  if (off.length === 0) return work();
  const set = (value: "on" | "off") => client.query(`SELECT ${off.map((method) => `set_config('${method}', '${value}', true)`).join(", ")}`);
  await set("off");
  const result = await work();
  await set("on");
  return result;
}

type PlannerMethod = "enable_seqscan" | "enable_indexscan" | "enable_bitmapscan";
/** Read the range's rows newest first (primary key), testing each row's words. */
const WALK_ROWS: PlannerMethod[] = ["enable_seqscan", "enable_bitmapscan"];
/** Read the rows the word index lists. */
const USE_WORD_INDEX: PlannerMethod[] = ["enable_seqscan", "enable_indexscan"];

/** Seqs of the scored rows (at most `RANKED_CANDIDATE_LIMIT`), in result order. */
async function rankedOrder({ client, tables, sessionKey, lastSeq, lowSeq, highSeq, wordShares }: SearchContext, checked: CheckedSearch): Promise<number[]> {
  // Seqs are gap-free from 1 to lastSeq, so the range's row count needs no query.
  const rangeRows = Math.max(0, Math.min(highSeq - 1, lastSeq) - lowSeq);
  const range = [sessionKey, lowSeq, highSeq];
  // A row's words are stored out of line and compressed, so testing a row costs ~8 µs: a word in
  // a fifth or more of the rows reaches the cap within a few thousand rows, a rarer one is
  // counted from the word index (docs/benchmarks.md, store, PostgreSQL).
  const countRows = async (word: string, cap: number, shares: ReadonlyMap<string, number>) =>
    withPlan(client, (shares.get(word) ?? 0) >= WALK_COUNT_SHARE ? WALK_ROWS : USE_WORD_INDEX, async () => {
      const result = await client.query<{ matches: number }>(
        `SELECT count(*)::int AS matches FROM (SELECT 1 FROM ${tables.rows}
         WHERE session_key = $1 AND seq > $2 AND seq < $3 AND words @@ $4::tsquery LIMIT $5) matching`,
        [...range, anyWordQuery([word]), cap],
      );
      return result.rows[0]?.matches ?? 0;
    });
  // selectRankedWords asks for counts synchronously, and only in this case: count first.
  const words = rankedQueryWords(checked.query);
  const counts = new Map<string, number>();
  const shares = rangeRows > RANKED_CANDIDATE_LIMIT ? await wordShares(client) : new Map<string, number>();
  if (words.length > 1 && rangeRows > RANKED_CANDIDATE_LIMIT) {
    for (const word of words) counts.set(word, await countRows(word, RANKED_CANDIDATE_LIMIT + 1, shares));
  }
  const kept = selectRankedWords({ words, rangeRows, countRows: (word) => counts.get(word) ?? 0 });
  const keptRows = kept.reduce((sum, word) => sum + (counts.get(word) ?? 0), 0);
  const single = kept.length === 1 && kept[0] !== undefined && rangeRows > RANKED_CANDIDATE_LIMIT ? kept[0] : undefined;
  // The newest matching rows (at most RANKED_CANDIDATE_LIMIT) are scored here; core orders them
  // (ADR 0031: a row right after another matching row is lifted), like every backend. When the
  // words were counted, how they are read follows the counts, not the planner's statistics, whose
  // guesses flipped the plan between runs (docs/benchmarks.md): few matches come from the word
  // index (walking the rows newest first would read the whole range), many from the rows newest
  // first (the word index would list every match in the table before sorting); a single word
  // uncounted goes by its share, like a count. Only the rows kept are scored: ranking every
  // match before the limit would read each one's words again.
  const plan =
    counts.size > 0
      ? keptRows <= RANKED_CANDIDATE_LIMIT
        ? USE_WORD_INDEX
        : WALK_ROWS
      : single !== undefined
        ? (shares.get(single) ?? 0) >= WALK_COUNT_SHARE
          ? WALK_ROWS
          : USE_WORD_INDEX
        : [];
  const scored = await withPlan(client, plan, () =>
    client.query<{ seq: number; score: number }>(
      `SELECT seq, ts_rank(words, $4::tsquery, 1)::float8 AS score FROM ${tables.rows}
       WHERE session_key = $1 AND seq = ANY (ARRAY(SELECT seq FROM ${tables.rows}
         WHERE session_key = $1 AND seq > $2 AND seq < $3 AND words @@ $4::tsquery
         ORDER BY seq DESC LIMIT $5))`,
      [...range, anyWordQuery(kept), RANKED_CANDIDATE_LIMIT],
    ),
  );
  return orderRankedCandidates(
    scored.rows.map(({ seq, score }) => ({ key: Number(seq), position: Number(seq), score: Number(score) })),
    { order: checked.order },
  );
}
