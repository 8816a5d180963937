/**
 * Search on the PostgreSQL backend (ADR 0036). `core/` decides the rules; these queries execute
 * them, with the privacy floor, window and before-item bounds inside every query:
 * - Literal: `literal_text LIKE '%<folded query>%'`, where `literal_text` is the row's searchable
 *   text folded by `core/`'s `foldCase` when it was stored, so the match is exactly
 *   `containsLiteral`; newest first. A pg_trgm GIN index serves queries of three or more
 *   characters when the extension is installed.
 * - Ranked: PostgreSQL full-text search over the `words` vector (`core/`'s `rankedTerms`, with each
 *   row's context, ADR 0052), under the same bound as every backend (ADR 0016), scored with BM25
 *   exactly as SQLite's FTS5 computes it (`ranked-order.ts`).
 * - Role and tool-name filters (ADR 0033) are checked on each row, in result order, before it
 *   counts as a hit: for ranked search among the scored rows only; a filtered literal search reads
 *   at most `LITERAL_SCAN_LIMIT` matches and then says where to resume. The filter terms (ADR
 *   0051) say first how many rows of the range can pass: none, and the answer is empty at once;
 *   fewer than a call reads, and a literal search reads only those.
 */
import { foldCase } from "../../core/search-query.js";
import { filterWalkTerm, hasSearchFilter, rowMatchesFilter } from "../../core/search-filter.js";
import { windowIdFor } from "../../core/windows.js";
import type { CheckedSearch } from "../options.js";
import { LITERAL_SCAN_LIMIT, filteredScan } from "../filtered-scan.js";
import { bodyMayMatchFilter } from "../row-codec.js";
import type { SearchHit, SearchPage, StoredRow } from "../port.js";
import { USE_TEXT_INDEX, WALK_ROWS, withPlan } from "./planner-methods.js";
import { rankedOrder, type RankedOrderContext } from "./ranked-order.js";

export interface EncodedRow {
  seq: number;
  window_seq: number;
  body: string;
}

export interface SearchContext extends RankedOrderContext {
  sessionId: string;
  decode: (sessionId: string, row: EncodedRow) => StoredRow | undefined;
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
  const rows =
    checked.mode === "literal" ? await literalRows(context, checked, walk) : await rankedRows(context, checked);
  const hits: SearchHit[] = [];
  for (const encoded of rows.slice(0, checked.limit)) {
    const row = context.decode(context.sessionId, encoded);
    if (row !== undefined) hits.push({ row, windowId: windowIdFor(encoded.window_seq) });
  }
  if (rows.length <= checked.limit && walk.resumeBeforeSeq !== undefined)
    return { hits, hasMore: true, resumeBeforeSeq: walk.resumeBeforeSeq };
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
  const scan = filteredScan<SearchHit>({
    ...checked,
    scanLimit: checked.mode === "literal" ? LITERAL_SCAN_LIMIT : Number.POSITIVE_INFINITY,
  });
  const hitOf = (encoded: EncodedRow): SearchHit | undefined => {
    if (!bodyMayMatchFilter(encoded.body, checked)) return undefined;
    const row = context.decode(context.sessionId, encoded);
    return row === undefined || !rowMatchesFilter(row, checked)
      ? undefined
      : { row, windowId: windowIdFor(encoded.window_seq) };
  };
  // Fewer rows can pass the filter than one call reads: a literal search reads just those.
  const walk: WalkBound = {};
  const batches =
    checked.mode === "ranked"
      ? rankedBatches(context, checked)
      : termRows < LITERAL_SCAN_LIMIT
        ? termRowBatches(context, checked, term)
        : literalBatches(context, checked, walk);
  for await (const batch of batches) {
    for (const encoded of batch) if (scan.take(Number(encoded.seq), hitOf(encoded))) return scan.page();
  }
  return scan.page(walk.resumeBeforeSeq);
}

/** Rows of the range holding the filter term `term`, counted up to `LITERAL_SCAN_LIMIT`. */
async function countTermRows(
  { client, tables, sessionKey, lowSeq, highSeq }: SearchContext,
  term: string,
): Promise<number> {
  const result = await client.query<{ matches: number }>(
    `SELECT count(*)::int AS matches FROM (SELECT 1 FROM ${tables.filterTerms}
     WHERE session_key = $1 AND term = $2 AND seq > $3 AND seq < $4 LIMIT $5) holding`,
    [sessionKey, term, lowSeq, highSeq, LITERAL_SCAN_LIMIT],
  );
  return result.rows[0]?.matches ?? 0;
}

/** The rows holding the filter term `term` and the literal query, newest first (one batch: they are fewer than a call reads). */
async function* termRowBatches(
  { client, tables, sessionKey, lowSeq, highSeq }: SearchContext,
  checked: CheckedSearch,
  term: string,
): AsyncGenerator<EncodedRow[]> {
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
async function* literalBatches(
  context: SearchContext,
  checked: CheckedSearch,
  walk: WalkBound,
  batch = FILTER_BATCH,
): AsyncGenerator<EncodedRow[]> {
  const { client, tables, sessionKey, lowSeq, highSeq, lastSeq } = context;
  const top = Math.min(highSeq, lastSeq + 1);
  const walkLow = Math.max(lowSeq, top - 1 - LITERAL_WALK_ROWS);
  let walkedMatches = 0;
  let walkedRows = 0;
  const olderRowsPlan = () => {
    const rowsPerBatch = walkedMatches > 0 ? (batch * (top - 1 - walkLow)) / walkedMatches : Number.POSITIVE_INFINITY;
    return !trigramIndexServes(context, checked.query) || rowsPerBatch <= LITERAL_WALK_LIMIT
      ? WALK_ROWS
      : USE_TEXT_INDEX;
  };
  const segments = [
    { low: walkLow, high: top, walk: true, plan: () => WALK_ROWS },
    { low: lowSeq, high: walkLow + 1, walk: false, plan: olderRowsPlan },
  ];
  for (const segment of segments) {
    for (let before = segment.high; before - segment.low > 1;) {
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
async function rowsBySeq(
  { client, tables, sessionKey }: SearchContext,
  seqs: readonly number[],
): Promise<EncodedRow[]> {
  if (seqs.length === 0) return [];
  const result = await client.query<EncodedRow>(
    `SELECT seq, window_seq, body FROM ${tables.rows} WHERE session_key = $1 AND seq = ANY($2::bigint[])`,
    [sessionKey, seqs],
  );
  const bySeq = new Map(result.rows.map((row) => [Number(row.seq), row]));
  return seqs.map((seq) => bySeq.get(seq)).filter((row): row is EncodedRow => row !== undefined);
}
