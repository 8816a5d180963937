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
 *   at most `FILTER_SCAN_LIMIT` matches and then says where to resume.
 */
import { foldCase } from "../../core/search-query.js";
import { hasSearchFilter, rowMatchesFilter } from "../../core/search-filter.js";
import { windowIdFor } from "../../core/windows.js";
import type { CheckedSearch } from "../options.js";
import { FILTER_SCAN_LIMIT, filteredScan } from "../filtered-scan.js";
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
  const rows = checked.mode === "literal" ? await literalRows(context, checked) : await rankedRows(context, checked);
  const hits: SearchHit[] = [];
  for (const encoded of rows.slice(0, checked.limit)) {
    const row = context.decode(context.sessionId, encoded);
    if (row !== undefined) hits.push({ row, windowId: windowIdFor(encoded.window_seq) });
  }
  return { hits, hasMore: rows.length > checked.limit };
}

async function literalRows(context: SearchContext, checked: CheckedSearch): Promise<EncodedRow[]> {
  const wanted = checked.offset + checked.limit + 1;
  const rows: EncodedRow[] = [];
  for await (const batch of literalBatches(context, checked, wanted)) {
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

/** Newest rows of the range a literal search tests one by one before it may turn to the trigram index. */
const LITERAL_WALK_ROWS = 100;
/** Most rows a literal search expects to walk for one batch before it prefers the trigram index. */
const LITERAL_WALK_LIMIT = 2_000;

/**
 * The rows holding the literal query, newest first, in batches of at most `batch`. The planner
 * cannot tell how many rows a `LIKE` pattern matches, and its guess flipped a common word from a
 * 2 ms walk to a 265 ms trigram-index plan (docs/benchmarks.md, store, PostgreSQL), so ctxwin
 * decides: the newest `LITERAL_WALK_ROWS` rows are tested one by one (a common query fills its
 * page there), and older rows are walked on while the matches seen so far say a batch lies within
 * `LITERAL_WALK_LIMIT` rows; else they come from the trigram index, when it can serve the query.
 */
async function* literalBatches(context: SearchContext, checked: CheckedSearch, batch = FILTER_BATCH): AsyncGenerator<EncodedRow[]> {
  const { client, tables, sessionKey, lowSeq, highSeq, lastSeq } = context;
  const top = Math.min(highSeq, lastSeq + 1);
  const walkLow = Math.max(lowSeq, top - 1 - LITERAL_WALK_ROWS);
  let walkedMatches = 0;
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
      const result = await withPlan(client, segment.plan(), () =>
        client.query<EncodedRow>(
          `SELECT seq, window_seq, body FROM ${tables.rows}
           WHERE session_key = $1 AND seq > $2 AND seq < $3 AND visible AND literal_text LIKE $4
           ORDER BY seq DESC LIMIT $5`,
          [sessionKey, segment.low, before, containsPattern(checked.query), batch],
        ),
      );
      if (segment.walk) walkedMatches += result.rows.length;
      yield result.rows;
      const last = result.rows.at(-1);
      if (result.rows.length < batch || last === undefined) break;
      before = Number(last.seq);
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

