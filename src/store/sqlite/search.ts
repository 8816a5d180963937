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
import { planRankedWords, rankedPage, searchRankedWords, type RankedCandidate } from "./ranked-search.js";
import { RANKED_CANDIDATE_LIMIT } from "../../core/ranked-search-plan.js";
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

export function searchSession(
  dependencies: SearchDependencies,
  session: SessionRecord,
  checked: CheckedSearch,
  floor: number,
): SearchPage {
  const { sql } = dependencies;
  const range = rowKeyRange(sql, session, checked, floor);
  if (range === undefined) return { hits: [], hasMore: false };
  const term = filterWalkTerm(checked);
  // Rows of the range that can pass the filter, counted up to the literal scan bound.
  const termRows =
    term === undefined
      ? undefined
      : (
          sql.countFilterTermRows.get(session.session_key, term, range.lowSeq, range.highSeq, LITERAL_SCAN_LIMIT) as {
            matches: number;
          }
        ).matches;
  if (termRows === 0) return { hits: [], hasMore: false };
  if (checked.mode === "ranked") return searchRankedWords(dependencies, session, checked, range);
  return searchLiteralRows(dependencies, session, checked, range, termRows);
}

/** One session's search in `searchParts`: its record, its checked options, the floor that applies. */
export interface SearchPart {
  session: SessionRecord;
  checked: CheckedSearch;
  floor: number;
}

/** Index keys between two ranges above which one walk over both costs more than two walks. */
const MERGE_GAP_KEYS = 2_000;

/**
 * The same pages as `searchSession` on each part. Two ranked parts without a filter, whose ranges
 * do not overlap and lie close (a fork's own rows and its origin's up to the fork point), the newer
 * of at most `RANKED_CANDIDATE_LIMIT` rows and both keeping the same words, are scored in one walk
 * of the word index: FTS5 reads a word's whole position list whatever the rowid bounds, so a second
 * walk costs as much as the first. A row's BM25 score does not depend on the range it is found in.
 */
export function searchParts(dependencies: SearchDependencies, parts: readonly SearchPart[]): SearchPage[] {
  const [first, second] = parts;
  const merged =
    parts.length === 2 && first !== undefined && second !== undefined
      ? rankedPartsInOneWalk(dependencies, first, second)
      : undefined;
  return merged ?? parts.map((part) => searchSession(dependencies, part.session, part.checked, part.floor));
}

function rankedPartsInOneWalk(
  dependencies: SearchDependencies,
  first: SearchPart,
  second: SearchPart,
): SearchPage[] | undefined {
  const { sql } = dependencies;
  const parts = [first, second];
  if (parts.some((part) => part.checked.mode !== "ranked" || filterWalkTerm(part.checked) !== undefined))
    return undefined;
  const ranges = parts.map((part) => rowKeyRange(sql, part.session, part.checked, part.floor));
  const [firstRange, secondRange] = ranges;
  if (firstRange === undefined || secondRange === undefined) return undefined;
  const [upper, lower] =
    firstRange.lowKey > secondRange.highKey ? [firstRange, secondRange] : [secondRange, firstRange];
  if (
    upper.lowKey <= lower.highKey ||
    upper.rows > RANKED_CANDIDATE_LIMIT ||
    upper.lowKey - lower.highKey > MERGE_GAP_KEYS
  )
    return undefined;
  const plans = parts.map((part, index) =>
    planRankedWords(sql, part.session, part.checked, ranges[index] as RowKeyRange),
  );
  const match = plans[0]?.match;
  if (match === undefined || plans[1]?.match !== match) return undefined;
  const upperScored: RankedCandidate[] = [];
  const lowerScored: RankedCandidate[] = [];
  // Two ranges that hold only their sessions' rows need no join: a key between them is skipped.
  const exclusive = firstRange.exclusive && secondRange.exclusive;
  const walk = (
    exclusive
      ? sql.scoreWordsBetweenNewest.iterate(match, lower.lowKey, upper.highKey)
      : sql.scoreTwoSessionsWordsNewest.iterate(
          match,
          lower.lowKey,
          upper.highKey,
          first.session.session_key,
          firstRange.lowSeq,
          firstRange.highSeq,
          second.session.session_key,
          secondRange.lowSeq,
          secondRange.highSeq,
        )
  ) as Iterable<RankedCandidate>;
  for (const candidate of walk) {
    // Each part's rows lie in its own key range; the upper part has no more rows than the limit.
    if (candidate.row_key >= upper.lowKey) upperScored.push(candidate);
    else if (candidate.row_key > lower.highKey) continue;
    else if (lowerScored.push(candidate) >= RANKED_CANDIDATE_LIMIT) break;
  }
  const scoredOf = (range: RowKeyRange) => (range === upper ? upperScored : lowerScored);
  return [
    rankedPage(dependencies, first.session, first.checked, scoredOf(firstRange)),
    rankedPage(dependencies, second.session, second.checked, scoredOf(secondRange)),
  ];
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
function rowKeyRange(
  sql: SearchDependencies["sql"],
  session: SessionRecord,
  checked: CheckedSearch,
  floor: number,
): RowKeyRange | undefined {
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
