/**
 * Search over the SQLite backend's FTS5 indexes (ADR 0004).
 * - The session's row-key range bounds every index query, so a search costs what this session
 *   (and its window, floor and before-seq bounds) holds, not what the whole file holds.
 * - A role or tool filter first asks the filter terms (ADR 0051) how many rows of the range can
 *   pass it: none, and the answer is empty without reading a row.
 * - Literal: `literal-search.ts` (trigram and word indexes, or the filter's rows; at most
 *   `LITERAL_SCAN_LIMIT` candidates a call, then it says where to resume).
 * - Ranked: BM25 over the word index, at most `RANKED_CANDIDATE_LIMIT` rows scored (ADR 0016,
 *   `ranked-search.ts`); a filter keeps the scored rows that pass (ADR 0033).
 */
import { filterWalkTerm } from "../../core/search-filter.js";
import type { CheckedSearch } from "../options.js";
import { LITERAL_SCAN_LIMIT } from "../filtered-scan.js";
import type { SearchPage, StoredRow } from "../port.js";
import { searchLiteralRows } from "./literal-search.js";
import { searchRankedWords } from "./ranked-search.js";
import type { SessionRecord, StatementName, WindowRecord } from "./statements.js";
import type { TrigramRarity } from "./trigram-plan.js";
import type Database from "better-sqlite3";

export interface CandidateRow {
  row_key: number;
  seq: number;
  window_seq: number;
  body: string;
}

export interface SearchDependencies {
  sql: Record<StatementName, Database.Statement>;
  decode: (sessionId: string, candidate: CandidateRow) => StoredRow | undefined;
  trigramRarity: TrigramRarity;
}

export function searchSession(dependencies: SearchDependencies, session: SessionRecord, checked: CheckedSearch, floor: number): SearchPage {
  const { sql } = dependencies;
  const range = rowKeyRange(sql, session, checked, floor);
  if (range === undefined) return { hits: [], hasMore: false };
  const term = filterWalkTerm(checked);
  // Rows of the range that can pass the filter, counted up to the literal scan bound.
  const termRows =
    term === undefined ? undefined : (sql.countFilterTermRows.get(session.session_key, term, range.lowSeq, range.highSeq, LITERAL_SCAN_LIMIT) as { matches: number }).matches;
  if (termRows === 0) return { hits: [], hasMore: false };
  if (checked.mode === "ranked") return searchRankedWords(dependencies, session, checked, range);
  return searchLiteralRows(dependencies, session, checked, range, termRows);
}

export interface RowKeyRange {
  lowKey: number;
  highKey: number;
  /** Exclusive seq bounds, applied again on the rows themselves. */
  lowSeq: number;
  highSeq: number;
  /** Rows of the session in the range, of any kind. */
  rows: number;
  /** The range holds nothing but the session's rows between the bounds (no other session wrote in between). */
  exclusive: boolean;
}

/**
 * The row keys of the first and last row a search may return. Row keys grow with seq inside a
 * session (rows are never updated or moved), so the range holds exactly the session's rows
 * between the bounds, plus rows of other sessions written in between (filtered out by seq).
 */
function rowKeyRange(sql: SearchDependencies["sql"], session: SessionRecord, checked: CheckedSearch, floor: number): RowKeyRange | undefined {
  let lowSeq = floor;
  let highSeq = checked.beforeSeq ?? Number.MAX_SAFE_INTEGER;
  if (checked.windowSeq !== undefined) {
    const window = sql.window.get(session.session_key, checked.windowSeq) as WindowRecord | undefined;
    if (window === undefined) return undefined;
    lowSeq = Math.max(lowSeq, window.first_seq - 1);
    highSeq = Math.min(highSeq, window.last_seq + 1);
  }
  const low = sql.firstRowKeyAfter.get(session.session_key, lowSeq) as { row_key: number; seq: number } | undefined;
  const high = sql.lastRowKeyBefore.get(session.session_key, highSeq) as { row_key: number; seq: number } | undefined;
  if (low === undefined || high === undefined || low.row_key > high.row_key) return undefined;
  // Seqs are gap-free, so the session has exactly `high.seq - low.seq + 1` rows in the range; when
  // the range has no more keys than that, every key in it is one of them.
  const exclusive = high.row_key - low.row_key === high.seq - low.seq;
  return { lowKey: low.row_key, highKey: high.row_key, lowSeq, highSeq, rows: high.seq - low.seq + 1, exclusive };
}
