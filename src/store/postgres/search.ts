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
 *   at most `LITERAL_SCAN_LIMIT` matches and then says where to resume. The filter terms (ADR
 *   0051) say first how many rows of the range can pass: none, and the answer is empty at once;
 *   fewer than a call reads, and a literal search reads only those.
 */
import type pg from "pg";
import { foldCase, rankedQueryWords } from "../../core/search-query.js";
import { RANKED_CANDIDATE_LIMIT, selectRankedWords } from "../../core/ranked-search-plan.js";
import { orderRankedCandidates } from "../../core/ranked-score.js";
import { filterWalkTerm, hasSearchFilter, rowMatchesFilter } from "../../core/search-filter.js";
import { windowIdFor } from "../../core/windows.js";
import type { CheckedSearch } from "../options.js";
import { LITERAL_SCAN_LIMIT, filteredScan } from "../filtered-scan.js";
import { bodyMayMatchFilter } from "../row-codec.js";
import type { SearchHit, SearchPage, StoredRow } from "../port.js";
import type { TableNames } from "./schema.js";
import { anyWordQuery } from "./word-vector.js";
import type { WordShares, WordStatistics } from "./word-shares.js";

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
  /** The schema has pg_trgm's index on `literal_text`. */
  trigramIndex: boolean;
}

/** `LIKE` pattern matching `text` anywhere (backslash is the default escape). */
export function containsPattern(text: string): string {
  return `%${foldCase(text).replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export async function searchRows(context: SearchContext, checked: CheckedSearch): Promise<SearchPage> {
  if (context.highSeq - context.lowSeq <= 1) return { hits: [], hasMore: false };
  if (hasSearchFilter(checked)) return filteredRows(context, checked);
  const walk: WalkBound = {};
  const rows = checked.mode === "literal" ? await literalRows(context, checked, walk) : await rankedRows(context, checked);
  const hits: SearchHit[] = [];
  for (const encoded of rows.slice(0, checked.limit)) {
    const row = context.decode(context.sessionId, encoded);
    if (row !== undefined) hits.push({ row, windowId: windowIdFor(encoded.window_seq) });
  }
  if (rows.length <= checked.limit && walk.resumeBeforeSeq !== undefined) return { hits, hasMore: true, resumeBeforeSeq: walk.resumeBeforeSeq };
  return { hits, hasMore: rows.length > checked.limit };
}

async function literalRows(context: SearchContext, checked: CheckedSearch, walk: WalkBound): Promise<EncodedRow[]> {
  const wanted = checked.offset + checked.limit + 1;
  const rows: EncodedRow[] = [];
  for await (const batch of literalBatches(context, checked, walk, wanted)) {
    rows.push(...batch);
    if (rows.length >= wanted) break;
  }
  return rows.slice(checked.offset, wanted);
}

/** Rows read per query while looking for rows that pass a filter. */
const FILTER_BATCH = 200;

/**
 * A page of the rows that pass the role and tool-name filters, in result order: literal matches
 * are read newest first in batches, ranked ones from the scored rows, until the page and one more
 * hit are found.
 */
async function filteredRows(context: SearchContext, checked: CheckedSearch): Promise<SearchPage> {
  // The rows of the range that can pass the filter (ADR 0051): none, and there is nothing to read.
  const term = filterWalkTerm(checked) as string;
  const termRows = await countTermRows(context, term);
  if (termRows === 0) return { hits: [], hasMore: false };
  // A literal scan stops after LITERAL_SCAN_LIMIT matches and says where to resume (ADR 0033).
  const scan = filteredScan<SearchHit>({ ...checked, scanLimit: checked.mode === "literal" ? LITERAL_SCAN_LIMIT : Number.POSITIVE_INFINITY });
  const hitOf = (encoded: EncodedRow): SearchHit | undefined => {
    if (!bodyMayMatchFilter(encoded.body, checked)) return undefined;
    const row = context.decode(context.sessionId, encoded);
    return row === undefined || !rowMatchesFilter(row, checked) ? undefined : { row, windowId: windowIdFor(encoded.window_seq) };
  };
  // Fewer rows can pass the filter than one call reads: a literal search reads just those.
  const walk: WalkBound = {};
  const batches =
    checked.mode === "ranked" ? rankedBatches(context, checked) : termRows < LITERAL_SCAN_LIMIT ? termRowBatches(context, checked, term) : literalBatches(context, checked, walk);
  for await (const batch of batches) {
    for (const encoded of batch) if (scan.take(Number(encoded.seq), hitOf(encoded))) return scan.page();
  }
  return scan.page(walk.resumeBeforeSeq);
}

/** Rows of the range holding the filter term `term`, counted up to `LITERAL_SCAN_LIMIT`. */
async function countTermRows({ client, tables, sessionKey, lowSeq, highSeq }: SearchContext, term: string): Promise<number> {
  const result = await client.query<{ matches: number }>(
    `SELECT count(*)::int AS matches FROM (SELECT 1 FROM ${tables.filterTerms}
     WHERE session_key = $1 AND term = $2 AND seq > $3 AND seq < $4 LIMIT $5) holding`,
    [sessionKey, term, lowSeq, highSeq, LITERAL_SCAN_LIMIT],
  );
  return result.rows[0]?.matches ?? 0;
}

/** The rows holding the filter term `term` and the literal query, newest first (one batch: they are fewer than a call reads). */
async function* termRowBatches({ client, tables, sessionKey, lowSeq, highSeq }: SearchContext, checked: CheckedSearch, term: string): AsyncGenerator<EncodedRow[]> {
  // Each listed row is read by its key (the rows are few); never a scan of the session.
  const result = await withPlan(client, WALK_ROWS, () =>
    client.query<EncodedRow>(
      `SELECT r.seq, r.window_seq, r.body FROM ${tables.filterTerms} f JOIN ${tables.rows} r ON r.session_key = f.session_key AND r.seq = f.seq
       WHERE f.session_key = $1 AND f.term = $2 AND f.seq > $3 AND f.seq < $4 AND r.visible AND r.literal_text LIKE $5
       ORDER BY f.seq DESC`,
      [sessionKey, term, lowSeq, highSeq, containsPattern(checked.query)],
    ),
  );
  yield result.rows;
}

/** Newest rows of the range a literal search tests one by one before it may turn to the trigram index. */
const LITERAL_WALK_ROWS = 100;
/** Most rows a literal search expects to walk for one batch before it prefers the trigram index. */
const LITERAL_WALK_LIMIT = 2_000;

/** Set by a literal search whose walk tested `LITERAL_SCAN_LIMIT` rows: the rows below this seq are not searched yet (ADR 0051). */
interface WalkBound {
  resumeBeforeSeq?: number;
}

/**
 * The rows holding the literal query, newest first, in batches of at most `batch`. The planner
 * cannot tell how many rows a `LIKE` pattern matches, and its guess flipped a common word from a
 * 2 ms walk to a 265 ms trigram-index plan (docs/benchmarks.md, store, PostgreSQL), so ctxwin
 * decides: the newest `LITERAL_WALK_ROWS` rows are tested one by one (a common query fills its
 * page there), and older rows are walked on while the matches seen so far say a batch lies within
 * `LITERAL_WALK_LIMIT` rows; else they come from the trigram index, when it can serve the query.
 * Walks test at most `LITERAL_SCAN_LIMIT` rows per call (ADR 0051): a query the index cannot serve
 * (no run of three letters or digits, or no pg_trgm) and that few rows hold then stops and sets
 * `walk.resumeBeforeSeq`, instead of testing every row of the session.
 */
async function* literalBatches(context: SearchContext, checked: CheckedSearch, walk: WalkBound, batch = FILTER_BATCH): AsyncGenerator<EncodedRow[]> {
  const { client, tables, sessionKey, lowSeq, highSeq, lastSeq } = context;
  const top = Math.min(highSeq, lastSeq + 1);
  const walkLow = Math.max(lowSeq, top - 1 - LITERAL_WALK_ROWS);
  let walkedMatches = 0;
  let walkedRows = 0;
  const olderRowsPlan = () => {
    const rowsPerBatch = walkedMatches > 0 ? (batch * (top - 1 - walkLow)) / walkedMatches : Number.POSITIVE_INFINITY;
    return !trigramIndexServes(context, checked.query) || rowsPerBatch <= LITERAL_WALK_LIMIT ? WALK_ROWS : USE_TEXT_INDEX;
  };
  const segments = [
    { low: walkLow, high: top, walk: true, plan: () => WALK_ROWS },
    { low: lowSeq, high: walkLow + 1, walk: false, plan: olderRowsPlan },
  ];
  for (const segment of segments) {
    for (let before = segment.high; before - segment.low > 1; ) {
      if (walkedRows >= LITERAL_SCAN_LIMIT) {
        walk.resumeBeforeSeq = before;
        return;
      }
      const plan = segment.plan();
      const walking = plan === WALK_ROWS;
      // A walk tests every row it passes: it goes no lower than the rows it may still test.
      const low = walking ? Math.max(segment.low, before - 1 - (LITERAL_SCAN_LIMIT - walkedRows)) : segment.low;
      const result = await withPlan(client, plan, () =>
        client.query<EncodedRow>(
          `SELECT seq, window_seq, body FROM ${tables.rows}
           WHERE session_key = $1 AND seq > $2 AND seq < $3 AND visible AND literal_text LIKE $4
           ORDER BY seq DESC LIMIT $5`,
          [sessionKey, low, before, containsPattern(checked.query), batch],
        ),
      );
      if (segment.walk) walkedMatches += result.rows.length;
      yield result.rows;
      const last = result.rows.at(-1);
      const full = result.rows.length === batch && last !== undefined;
      if (walking) walkedRows += full ? before - Number(last.seq) : before - 1 - low;
      if (full) before = Number(last.seq);
      else if (low > segment.low) before = low + 1;
      else break;
    }
  }
}

/**
 * Whether pg_trgm's index narrows the rows for `query`: it needs the index, and a run of three
 * letters or digits in the query (a shorter pattern makes it list every row).
 */
function trigramIndexServes({ trigramIndex }: SearchContext, query: string): boolean {
  return trigramIndex && /[\p{L}\p{N}]{3}/u.test(query);
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

/** Testing one row's words on a walk costs about as much as this many word-index entries (docs/benchmarks.md). */
const WALK_ROW_IN_INDEX_ENTRIES = 16;

/**
 * How many of the newest rows to walk to find `wanted` rows of a word, or undefined when listing
 * all of the word's rows from the word index costs less. The walk reads about `wanted / share`
 * rows and the index `share × tableRows` entries; the walk is allowed four times its expected
 * rows, since the share is the whole table's and this session's may be lower (the index then
 * takes over). A word without statistics counts as rare.
 */
function walkLimit(word: string, wanted: number, { shares, tableRows }: WordStatistics): number | undefined {
  const share = shares.get(word) ?? 0;
  if (share <= 0 || (wanted / share) * WALK_ROW_IN_INDEX_ENTRIES >= share * tableRows) return undefined;
  return Math.ceil((4 * wanted) / share);
}

/**
 * Runs `work` with the planner methods `off` disabled and the others enabled: ctxwin picks the
 * plan where it knows more than the planner's statistics. The settings are local to the search's
 * read transaction (`set_config(..., true)`), so they end with it; each planned statement sets
 * all three, and the statements between them (rows by seq) are served alike by any plan.
 */
async function withPlan<T>(client: pg.PoolClient, off: readonly PlannerMethod[], work: () => Promise<T>): Promise<T> {
  if (off.length === 0) return work();
  const methods: PlannerMethod[] = ["enable_seqscan", "enable_indexscan", "enable_bitmapscan"];
  const settings = methods.map((method) => `set_config('${method}', '${off.includes(method) ? "off" : "on"}', true)`);
  await client.query(`SELECT ${settings.join(", ")}`);
  return work();
}

type PlannerMethod = "enable_seqscan" | "enable_indexscan" | "enable_bitmapscan";
/** Read the range's rows newest first (primary key), testing each row's words. */
const WALK_ROWS: PlannerMethod[] = ["enable_seqscan", "enable_bitmapscan"];
/** Read the rows the word index lists. */
const USE_WORD_INDEX: PlannerMethod[] = ["enable_seqscan", "enable_indexscan"];
/** Read the rows an index lists (GIN indexes serve only bitmap scans: the trigram one, or the key's range). */
const USE_TEXT_INDEX = USE_WORD_INDEX;

/** Seqs of the scored rows (at most `RANKED_CANDIDATE_LIMIT`), in result order. */
async function rankedOrder(context: SearchContext, checked: CheckedSearch): Promise<number[]> {
  const { client, tables, sessionKey, lastSeq, lowSeq, highSeq, wordShares } = context;
  // Seqs are gap-free from 1 to lastSeq, so the range's row count needs no query.
  const top = Math.min(highSeq, lastSeq + 1);
  const rangeRows = Math.max(0, top - 1 - lowSeq);
  /** The lower seq bound of a walk over the newest `rows` rows of the range. */
  const walkFloor = (rows: number) => Math.max(lowSeq, top - 1 - rows);
  const count = (word: string, cap: number, low: number, plan: PlannerMethod[]) =>
    withPlan(client, plan, async () => {
      const result = await client.query<{ matches: number }>(
        `SELECT count(*)::int AS matches FROM (SELECT 1 FROM ${tables.rows}
         WHERE session_key = $1 AND seq > $2 AND seq < $3 AND words @@ $4::tsquery LIMIT $5) matching`,
        [sessionKey, low, highSeq, anyWordQuery([word]), cap],
      );
      return result.rows[0]?.matches ?? 0;
    });
  // A row's words are stored out of line and compressed, so testing a row costs ~8 µs: a common
  // word reaches the cap within a few thousand rows, a rarer one is counted from the word index
  // (walkLimit; docs/benchmarks.md, store, PostgreSQL). A walk that ends short of the cap
  // proves nothing about the older rows: the index counts the whole range then.
  const countRows = async (word: string, cap: number, statistics: WordStatistics) => {
    const walk = walkLimit(word, cap, statistics);
    const walked = walk === undefined ? 0 : await count(word, cap, walkFloor(walk), WALK_ROWS);
    return walked >= cap ? walked : count(word, cap, lowSeq, USE_WORD_INDEX);
  };
  // selectRankedWords asks for counts synchronously, and only in this case: count first.
  const words = rankedQueryWords(checked.query);
  const counts = new Map<string, number>();
  const statistics = rangeRows > RANKED_CANDIDATE_LIMIT ? await wordShares(client) : undefined;
  if (words.length > 1 && statistics !== undefined) {
    for (const word of words) counts.set(word, await countRows(word, RANKED_CANDIDATE_LIMIT + 1, statistics));
  }
  const kept = selectRankedWords({ words, rangeRows, countRows: (word) => counts.get(word) ?? 0 });
  const keptRows = kept.reduce((sum, word) => sum + (counts.get(word) ?? 0), 0);
  const score = (low: number, plan: PlannerMethod[]) =>
    withPlan(client, plan, async () => {
      const result = await client.query<{ seq: number; score: number }>(
        `SELECT seq, ts_rank(words, $4::tsquery, 1)::float8 AS score FROM ${tables.rows}
         WHERE session_key = $1 AND seq = ANY (ARRAY(SELECT seq FROM ${tables.rows}
           WHERE session_key = $1 AND seq > $2 AND seq < $3 AND words @@ $4::tsquery
           ORDER BY seq DESC LIMIT $5))`,
        [sessionKey, low, highSeq, anyWordQuery(kept), RANKED_CANDIDATE_LIMIT],
      );
      return result.rows;
    });
  // The newest matching rows (at most RANKED_CANDIDATE_LIMIT) are scored here; core orders them
  // (ADR 0031: a row right after another matching row is lifted), like every backend. When the
  // words were counted, how they are read follows the counts, not the planner's statistics, whose
  // guesses flipped the plan between runs (docs/benchmarks.md): few matches come from the word
  // index (walking the rows newest first would read the whole range), many from the rows newest
  // first (the word index would list every match in the table before sorting). A single word,
  // not counted, walks a bounded number of rows by its share and turns to the index if they hold
  // too few. Only the rows kept are scored: ranking every match first would read each one twice.
  let scored: { seq: number; score: number }[];
  if (counts.size > 0) scored = await score(lowSeq, keptRows <= RANKED_CANDIDATE_LIMIT ? USE_WORD_INDEX : WALK_ROWS);
  else if (kept.length !== 1 || statistics === undefined) scored = await score(lowSeq, []);
  else {
    const walk = walkLimit(kept[0]!, RANKED_CANDIDATE_LIMIT, statistics);
    const walked = walk === undefined ? [] : await score(walkFloor(walk), WALK_ROWS);
    const walkedEnough = walked.length >= RANKED_CANDIDATE_LIMIT || (walk !== undefined && walkFloor(walk) === lowSeq);
    scored = walkedEnough ? walked : await score(lowSeq, USE_WORD_INDEX);
  }
  return orderRankedCandidates(
    scored.map(({ seq, score }) => ({ key: Number(seq), position: Number(seq), score: Number(score) })),
    { order: checked.order },
  );
}
