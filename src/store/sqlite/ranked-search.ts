/**
 * Ranked search on the SQLite backend, at a cost bounded by `RANKED_CANDIDATE_LIMIT` rows
 * whatever the size of the session (ADR 0016):
 * 1. in a range of more rows than the limit, count each query word's rows there, newest first,
 *    stopping past the limit;
 * 2. keep the words the shared rule selects (`selectRankedWords`: rarest first, common words
 *    dropped when rarer ones fill the limit);
 * 3. score with BM25 only the newest `RANKED_CANDIDATE_LIMIT` rows that match any kept word,
 *    order them with the shared rule (`orderRankedCandidates`, ADR 0031) and read the page's rows.
 * When the row-key range holds only this session's rows (the usual case: one agent per session,
 * or sessions written one after another) the index is read alone; otherwise each index row is
 * joined to its row to leave out the other sessions'.
 */
import { RANKED_CANDIDATE_LIMIT, selectRankedWords } from "../../core/ranked-search-plan.js";
import { orderRankedCandidates, type ScoredCandidate } from "../../core/ranked-score.js";
import { hasSearchFilter, rowMatchesFilter } from "../../core/search-filter.js";
import { rankedQueryWords } from "../../core/search-query.js";
import { windowIdFor } from "../../core/windows.js";
import type { CheckedSearch } from "../options.js";
import { bodyMayMatchFilter } from "../row-codec.js";
import type { SearchHit, SearchPage } from "../port.js";
import type { CandidateRow, RowKeyRange, SearchDependencies } from "./search.js";
import type { SessionRecord } from "./statements.js";

/** Words are letters and digits only (`rankedQueryWords`), so quoting cannot be escaped. */
const phraseOf = (word: string) => `"${word}"`;

export function searchRankedWords(
  dependencies: Pick<SearchDependencies, "sql" | "decode">,
  session: SessionRecord,
  checked: CheckedSearch,
  range: RowKeyRange,
): SearchPage {
  const { sql } = dependencies;
  const plan = planRankedWords(sql, session, checked, range);
  const score = range.exclusive ? sql.scoreWordsNewest : sql.scoreSessionWordsNewest;
  const scored = score.all(plan.match, ...plan.bounds, RANKED_CANDIDATE_LIMIT) as RankedCandidate[];
  return rankedPage(dependencies, session, checked, scored);
}

/** A scored row of the word index: `position` is its place in the session (consecutive for consecutive rows). */
export interface RankedCandidate {
  row_key: number;
  position: number;
  score: number;
}

export interface RankedPlan {
  /** The FTS5 query of the kept words. */
  match: string;
  /** The bounds that follow the query in the scoring statements. */
  bounds: number[];
}

/** Steps 1 and 2: the words kept for this range, as an index query. */
export function planRankedWords(
  sql: SearchDependencies["sql"],
  session: SessionRecord,
  checked: CheckedSearch,
  range: RowKeyRange,
): RankedPlan {
  const bounds = range.exclusive
    ? [range.lowKey, range.highKey]
    : [range.lowKey, range.highKey, session.session_key, range.lowSeq, range.highSeq];
  const count = range.exclusive ? sql.countWordRows : sql.countSessionWordRows;
  const kept = selectRankedWords({
    words: rankedQueryWords(checked.query),
    rangeRows: range.rows,
    countRows: (word, cap) => (count.get(phraseOf(word), ...bounds, cap) as { matches: number }).matches,
  });
  return { match: kept.map(phraseOf).join(" OR "), bounds };
}

/** Step 3 past the scoring: the page of the newest `RANKED_CANDIDATE_LIMIT` scored rows, in their shared order. */
export function rankedPage(
  { sql, decode }: Pick<SearchDependencies, "sql" | "decode">,
  session: SessionRecord,
  checked: CheckedSearch,
  scored: readonly RankedCandidate[],
): SearchPage {
  const ordered = orderRankedCandidates(
    scored.map((candidate): ScoredCandidate<number> => ({ key: candidate.row_key, ...candidate })),
    { order: checked.order },
  );
  const load = (rowKey: number): SearchHit | undefined => {
    const candidate = sql.rowByKey.get(rowKey) as CandidateRow | undefined;
    // A row the filter drops is not decoded at all (ADR 0033).
    if (candidate !== undefined && !bodyMayMatchFilter(candidate.body, checked)) return undefined;
    const row = candidate === undefined ? undefined : decode(session.session_id, candidate);
    return candidate === undefined || row === undefined
      ? undefined
      : { row, windowId: windowIdFor(candidate.window_seq) };
  };
  if (hasSearchFilter(checked)) return filteredPage({ ordered, load, checked });
  const hits: SearchHit[] = [];
  for (const rowKey of ordered.slice(checked.offset, checked.offset + checked.limit)) {
    const hit = load(rowKey);
    if (hit !== undefined) hits.push(hit);
  }
  return { hits, hasMore: ordered.length > checked.offset + checked.limit };
}

/**
 * The page of the scored rows that pass the role and tool-name filters (ADR 0033), in their order:
 * rows are read one by one until the page and one more hit are found, at most every scored row.
 */
function filteredPage({
  ordered,
  load,
  checked,
}: {
  ordered: readonly number[];
  load: (rowKey: number) => SearchHit | undefined;
  checked: CheckedSearch;
}): SearchPage {
  const hits: SearchHit[] = [];
  let passed = 0;
  for (const rowKey of ordered) {
    const hit = load(rowKey);
    if (hit === undefined || !rowMatchesFilter(hit.row, checked)) continue;
    passed += 1;
    if (passed <= checked.offset) continue;
    if (hits.length === checked.limit) return { hits, hasMore: true };
    hits.push(hit);
  }
  return { hits, hasMore: false };
}
