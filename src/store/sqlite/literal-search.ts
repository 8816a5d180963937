/**
 * Literal search on the SQLite backend: candidates newest first, each verified with the rule
 * every backend shares (`containsLiteral`) and, with a role or tool filter, `rowMatchesFilter`.
 * Candidates come from, in this order of preference:
 * - the filter terms (ADR 0051), when a filter is given and fewer rows of the range hold its term
 *   than the text index is expected to offer: every row that can pass the filter, and no other;
 * - the (stemmed) word index as a phrase pre-filter, when the query holds two or more whole ASCII
 *   words, not all of them stop words, and its trigrams are common; trigrams take over after too
 *   many misses;
 * - the trigram index (rows holding the query's rarest trigrams, `trigram-plan.ts`, ADR 0032);
 * - the range itself, newest first, for a query without a usable trigram (shorter than three
 *   characters, or none the index folds alike), or when the range spans a few row keys only.
 * Whatever the source, one call reads at most `LITERAL_SCAN_LIMIT` candidates and then says where
 * to resume (ADR 0033, 0051), so a query whose candidates rarely match costs a bounded call.
 */
import { filterWalkTerm, hasSearchFilter, rowMatchesFilter } from "../../core/search-filter.js";
import { containsLiteral, literalTermPhrase } from "../../core/search-query.js";
import { renderSearchText } from "../../core/search-text.js";
import { isStopWord } from "../../core/stop-words.js";
import { windowIdFor } from "../../core/windows.js";
import { LITERAL_SCAN_LIMIT, filteredScan } from "../filtered-scan.js";
import type { CheckedSearch } from "../options.js";
import type { SearchHit, SearchPage } from "../port.js";
import { bodyMayMatchFilter } from "../row-codec.js";
import type { CandidateRow, RowKeyRange, SearchDependencies } from "./search.js";
import type { SessionRecord } from "./statements.js";
import { planTrigramQuery } from "./trigram-plan.js";
import { ownTextMatch } from "./word-index.js";

/** Failed verifications of word-phrase candidates before the trigram index takes over. */
const phraseMissBudget = 200;
/** Trigram candidates expected above which a query of whole words tries the word-phrase pre-filter first. */
const PHRASE_FIRST_ABOVE = 256;
/** A trigram query with at most this many matches in the range is answered by one ascending walk. */
const FEW_TRIGRAM_MATCHES = 64;
/**
 * A range of at most this many row keys is read whole, newest first, without an index: FTS5 loads
 * a common trigram's whole position list whatever the rowid bounds, so a few rows (a fork's own
 * rows after its fork point, a session just started) cost less read than looked up.
 */
const SCAN_RANGE_KEYS = 32;

export function searchLiteralRows(
  { sql, decode, trigramRarity }: SearchDependencies,
  session: SessionRecord,
  checked: CheckedSearch,
  range: RowKeyRange,
  /** Rows of the range holding the filter's term, counted up to `LITERAL_SCAN_LIMIT` (undefined without a filter). */
  termRows: number | undefined,
): SearchPage {
  const filters = [session.session_key, range.lowSeq, range.highSeq];
  const filtered = hasSearchFilter(checked);
  const scan = filteredScan<SearchHit>({ offset: checked.offset, limit: checked.limit, scanLimit: LITERAL_SCAN_LIMIT });
  let stopped = false;
  /** Verifies one candidate; returns false only when it does not hold the query (a phrase miss). */
  const consider = (candidate: CandidateRow): boolean => {
    // A row the filter drops is judged from its JSON alone, without the full decode (ADR 0033).
    if (filtered && !bodyMayMatchFilter(candidate.body, checked)) {
      stopped = scan.take(candidate.seq, undefined);
      return true;
    }
    const row = decode(session.session_id, candidate);
    const found = row !== undefined && containsLiteral(renderSearchText(row), checked.query);
    const passes = found && (!filtered || rowMatchesFilter(row, checked));
    stopped = scan.take(candidate.seq, passes ? { row, windowId: windowIdFor(candidate.window_seq) } : undefined);
    return found || row === undefined;
  };
  const readAll = (candidates: Iterable<CandidateRow>): SearchPage => {
    for (const candidate of candidates) {
      consider(candidate);
      if (stopped) break;
    }
    return scan.page();
  };

  const term = filterWalkTerm(checked);
  const fewKeys = range.highKey - range.lowKey < SCAN_RANGE_KEYS;
  // Without a filter, a small range is read before the trigram plan is even looked up.
  if (fewKeys && term === undefined)
    return readAll(sql.scanVisible.iterate(range.lowKey, range.highKey, ...filters) as Iterable<CandidateRow>);
  const plan = planTrigramQuery({
    query: checked.query,
    rangeKeys: range.highKey - range.lowKey + 1,
    rarity: trigramRarity,
  });
  const expectedCandidates = plan?.expectedRows ?? range.rows;
  if (term !== undefined && termRows !== undefined && termRows < LITERAL_SCAN_LIMIT && termRows <= expectedCandidates) {
    return readAll(
      sql.filterTermRows.iterate(session.session_key, term, range.lowSeq, range.highSeq) as Iterable<CandidateRow>,
    );
  }

  if (fewKeys)
    return readAll(sql.scanVisible.iterate(range.lowKey, range.highKey, ...filters) as Iterable<CandidateRow>);

  let highKey = range.highKey;
  const phrase = literalTermPhrase(checked.query);
  // A phrase of stop words only ("the of", "be or not to") walks position lists found in nearly every row, at a
  // cost that grows with the session whether or not it matches: the trigram candidates, bounded per call, serve it.
  const selective = phrase !== undefined && !phrase.every(isStopWord);
  if (phrase !== undefined && selective && (plan === undefined || plan.expectedRows > PHRASE_FIRST_ABOVE)) {
    const match = ownTextMatch(`"${phrase.join(" ")}"`);
    let misses = 0;
    let switched = false;
    for (const candidate of sql.searchWordPhrase.iterate(
      match,
      range.lowKey,
      highKey,
      ...filters,
    ) as Iterable<CandidateRow>) {
      const held = consider(candidate);
      if (stopped) return scan.page();
      if (!held && (misses += 1) > phraseMissBudget) {
        // The phrase is common here: continue below this row with the precise trigram index.
        highKey = candidate.row_key - 1;
        switched = true;
        break;
      }
    }
    if (!switched) return scan.page();
  }

  return readAll(
    plan !== undefined
      ? trigramCandidates(sql, plan.match, range.lowKey, highKey, filters)
      : // Shorter than a trigram, or none the index folds alike: scan the range newest first.
        (sql.scanVisible.iterate(range.lowKey, highKey, ...filters) as Iterable<CandidateRow>),
  );
}

/**
 * The rows holding every trigram of the query, newest first. FTS5 walks an AND of trigrams in a
 * `detail=none` index 2–3× faster ascending than descending (docs/benchmarks.md, history-tool):
 * a rare query (the common case for an identifier) is answered by one bounded ascending walk,
 * whose matches are then read newest first; a query with more matches than that is walked
 * newest first, so that it stops at the page's last hit.
 */
function* trigramCandidates(
  sql: SearchDependencies["sql"],
  match: string,
  lowKey: number,
  highKey: number,
  filters: number[],
): Generator<CandidateRow> {
  const keys = (
    sql.literalKeysAscending.all(match, lowKey, highKey, FEW_TRIGRAM_MATCHES + 1) as { row_key: number }[]
  ).map((entry) => entry.row_key);
  if (keys.length > FEW_TRIGRAM_MATCHES) {
    yield* sql.searchLiteral.iterate(match, lowKey, highKey, ...filters) as Iterable<CandidateRow>;
    return;
  }
  for (const key of keys.reverse()) {
    const candidate = sql.sessionRowByKey.get(key, ...filters) as CandidateRow | undefined;
    if (candidate !== undefined) yield candidate;
  }
}
