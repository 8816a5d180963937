/**
 * Search over the SQLite backend's FTS5 indexes (ADR 0004).
 * - The session's row-key range bounds every index query, so a search costs what this session
 *   (and its window, floor and before-seq bounds) holds, not what the whole file holds.
 * - Literal: candidates from the trigram index (rows holding the query's rarest trigrams, chosen
 *   by `trigram-plan.ts`: the index keeps no positions, ADR 0032), newest first, each verified
 *   with the rule every backend shares (`containsLiteral`). When those trigrams are common and the
 *   query holds two or more whole ASCII words, the (stemmed) word index first serves as a phrase
 *   pre-filter, and trigrams take over if that produces too many misses.
 * - Ranked: BM25 over the word index, at most `RANKED_CANDIDATE_LIMIT` rows scored (ADR 0016,
 *   `ranked-search.ts`).
 * - Role and tool-name filters are checked on each row before it counts as a hit (ADR 0033); for
 *   ranked search among the scored rows only; a filtered literal search reads at most
 *   `FILTER_SCAN_LIMIT` candidates and then says where to resume.
 */
import { hasSearchFilter, rowMatchesFilter } from "../../core/search-filter.js";
import { containsLiteral, literalTermPhrase } from "../../core/search-query.js";
import { renderSearchText } from "../../core/search-text.js";
import { windowIdFor } from "../../core/windows.js";
import type { CheckedSearch } from "../options.js";
import { FILTER_SCAN_LIMIT, filteredScan } from "../filtered-scan.js";
import { bodyMayMatchFilter } from "../row-codec.js";
import type { SearchHit, SearchPage, StoredRow } from "../port.js";
import { searchRankedWords } from "./ranked-search.js";
import type { SessionRecord, StatementName, WindowRecord } from "./statements.js";
import { planTrigramQuery, type TrigramRarity } from "./trigram-plan.js";
import { ownTextMatch } from "./word-index.js";
import type Database from "better-sqlite3";

export interface CandidateRow {
  row_key: number;
  seq: number;
  window_seq: number;
  body: string;
}

/** Failed verifications of word-phrase candidates before the trigram index takes over. */
const phraseMissBudget = 200;
/** Trigram candidates expected above which a query of whole words tries the word-phrase pre-filter first. */
const PHRASE_FIRST_ABOVE = 256;

export interface SearchDependencies {
  sql: Record<StatementName, Database.Statement>;
  decode: (sessionId: string, candidate: CandidateRow) => StoredRow | undefined;
  trigramRarity: TrigramRarity;
}

export function searchSession({ sql, decode, trigramRarity }: SearchDependencies, session: SessionRecord, checked: CheckedSearch, floor: number): SearchPage {
  const range = rowKeyRange(sql, session, checked, floor);
  if (range === undefined) return { hits: [], hasMore: false };
  if (checked.mode === "ranked") return searchRankedWords({ sql, decode }, session, checked, range);

  const filters = [session.session_key, range.lowSeq, range.highSeq];
  const hits: SearchHit[] = [];
  const sessionId = session.session_id;
  const wanted = checked.offset + checked.limit + 1;
  let matched = 0;
  // A filtered search reads at most FILTER_SCAN_LIMIT candidates, then says where to resume (ADR 0033).
  const scan = hasSearchFilter(checked) ? filteredScan<SearchHit>({ ...checked, scanLimit: FILTER_SCAN_LIMIT }) : undefined;
  let stopped = false;
  /** Verifies one candidate; returns false only when it does not hold the query (a phrase miss). */
  const consider = (candidate: CandidateRow): boolean => {
    if (scan !== undefined && !bodyMayMatchFilter(candidate.body, checked)) {
      stopped = scan.take(candidate.seq, undefined);
      return true;
    }
    const row = decode(sessionId, candidate);
    const found = row !== undefined && containsLiteral(renderSearchText(row), checked.query);
    if (scan !== undefined) {
      const passes = found && rowMatchesFilter(row, checked);
      stopped = scan.take(candidate.seq, passes ? { row, windowId: windowIdFor(candidate.window_seq) } : undefined);
      return found || row === undefined;
    }
    if (!found) return false;
    matched += 1;
    if (matched > checked.offset) hits.push({ row, windowId: windowIdFor(candidate.window_seq) });
    return true;
  };
  const done = () => (scan === undefined ? matched >= wanted : stopped);
  const page = (): SearchPage => scan?.page() ?? { hits: hits.slice(0, checked.limit), hasMore: hits.length > checked.limit };

  let highKey = range.highKey;
  const plan = planTrigramQuery({ query: checked.query, rangeKeys: range.highKey - range.lowKey + 1, rarity: trigramRarity });
  const phrase = literalTermPhrase(checked.query);
  if (phrase !== undefined && (plan === undefined || plan.expectedRows > PHRASE_FIRST_ABOVE)) {
    const match = ownTextMatch(`"${phrase.join(" ")}"`);
    let misses = 0;
    let switched = false;
    for (const candidate of sql.searchWordPhrase.iterate(match, range.lowKey, highKey, ...filters) as Iterable<CandidateRow>) {
      const held = consider(candidate);
      if (done()) return page();
      if (!held && (misses += 1) > phraseMissBudget) {
        // The phrase is common here: continue below this row with the precise trigram index.
        highKey = candidate.row_key - 1;
        switched = true;
        break;
      }
    }
    if (!switched) return page();
  }

  const candidates =
    plan !== undefined
      ? trigramCandidates(sql, plan.match, range.lowKey, highKey, filters)
      : // Shorter than a trigram, or none the index folds alike: scan the range newest first.
        (sql.scanVisible.iterate(range.lowKey, highKey, ...filters) as Iterable<CandidateRow>);
  for (const candidate of candidates) {
    consider(candidate);
    if (done()) break;
  }
  return page();
}

/** A trigram query with at most this many matches in the range is answered by one ascending walk. */
const FEW_TRIGRAM_MATCHES = 64;

/**
 * The rows holding every trigram of the query, newest first. FTS5 walks an AND of trigrams in a
 * `detail=none` index 2–3× faster ascending than descending (docs/benchmarks.md, history-tool):
 * a rare query (the common case for an identifier) is answered by one bounded ascending walk,
 * whose matches are then read newest first; a query with more matches than that is walked
 * newest first, so that it stops at the page's last hit.
 */
function* trigramCandidates(sql: SearchDependencies["sql"], match: string, lowKey: number, highKey: number, filters: number[]): Generator<CandidateRow> {
  const keys = (sql.literalKeysAscending.all(match, lowKey, highKey, FEW_TRIGRAM_MATCHES + 1) as { row_key: number }[]).map((entry) => entry.row_key);
  if (keys.length > FEW_TRIGRAM_MATCHES) {
    yield* sql.searchLiteral.iterate(match, lowKey, highKey, ...filters) as Iterable<CandidateRow>;
    return;
  }
  for (const key of keys.reverse()) {
    const candidate = sql.sessionRowByKey.get(key, ...filters) as CandidateRow | undefined;
    if (candidate !== undefined) yield candidate;
  }
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
