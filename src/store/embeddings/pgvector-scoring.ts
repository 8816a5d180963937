/**
 * How a pgvector search scores a range (ADR 0096): exactly through the primary key when it holds
 * few embedded rows, else through the HNSW index; shared by one session's search
 * (`postgres-vector-index.ts`) and the search across sessions (`postgres-nearest-across.ts`).
 */

/** A vector as pgvector's text input. */
export const literalOf = (vector: Float32Array) => `[${Array.from(vector).join(",")}]`;

/**
 * Rows of a session's search range scored exactly instead of through the HNSW index: about as many
 * chunks as the index's first pass visits anyway (~2,800 at `ef_search` 60, measured), so the exact
 * scan costs no more and finds every nearest row (ADR 0096).
 */
const EXACT_SCAN_ROWS = 2_000;
/**
 * Up to this many rows, a range that is at most a tenth of the table is scored exactly too: the
 * index would fetch mostly other sessions' rows to filter them out (5,000 rows among 105,000:
 * 250–530 ms through the index, 15–20 ms exactly, measured).
 */
const EXACT_SCAN_SHARED_ROWS = 10_000;

/** Whether a search range is scored exactly rather than through the HNSW index (ADR 0096). */
export function scoredExactly(rowsInRange: number, tableChunks: number): boolean {
  if (rowsInRange <= EXACT_SCAN_ROWS) return true;
  // `reltuples` is -1 for a table never analyzed: then only the first rule holds.
  return rowsInRange <= EXACT_SCAN_SHARED_ROWS && tableChunks > 0 && rowsInRange * 10 <= tableChunks;
}
/** Chunks the index is asked for per wanted row (a row may have several chunks). */
const CHUNKS_PER_ROW = 2;

/** Chunks a search asks the table for to find `limit` rows (at most 1,000). */
export const chunksFor = (limit: number): number => Math.min(1_000, limit * CHUNKS_PER_ROW);

/**
 * Select-list items setting this transaction's HNSW walk, `$1` its `ef_search` (`efSearchOf`): with
 * the iterative scan the index keeps walking until enough chunks pass the statement's filters.
 */
export const HNSW_SETTINGS =
  "set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', $1, true)";

/** The `ef_search` for a search asking for `chunks` (pgvector's default, 40, at least). */
export const efSearchOf = (chunks: number): string => String(Math.max(40, chunks));

/** Each chunk's cosine distance to the vector `$1`, with the operator of pgvector's schema `installed`. */
export const distanceTo = (installed: string): string =>
  `embedding OPERATOR("${installed}".<=>) $1::"${installed}".vector`;
