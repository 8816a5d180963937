/**
 * Cross-session search on the SQLite backend (ADR 0089): one walk of an FTS5 index over the whole
 * file, newest row first, each match kept only when the scope (the visible sessions' floors and
 * lineage, worked out from the sessions table) shows its stored row under some session.
 * - Literal: the trigram index's candidates for the query's rarest trigrams (`trigram-plan.ts`),
 *   or, for a query without one, the visible rows themselves; each verified with `containsLiteral`.
 *   A row whose every session already has its hits and one more is not read at all.
 * - Ranked: the words `selectRankedWords` keeps over the whole file, scored with FTS5's BM25, whose
 *   weights are the whole file's: one BM25 over all sessions.
 * The indexes hold visible rows only, so hidden rows are never candidates. A role or tool filter
 * (ADR 0093) is part of the walk: a candidate must hold the filter's terms (ADR 0051, one
 * primary-key lookup each) to be verified or counted; at most `examineLimit` rows of the scope are
 * looked at, then the page is `partial`.
 */
import type Database from "better-sqlite3";
import { selectRankedWords } from "../../core/ranked-search-plan.js";
import { filterTermsRequired } from "../../core/search-filter.js";
import { containsLiteral, rankedQueryWords } from "../../core/search-query.js";
import { renderSearchText } from "../../core/search-text.js";
import { windowIdFor } from "../../core/windows.js";
import {
  ownerCounter,
  type ScopeMatch,
  type ScopeSearchRequest,
  type ScopeSearchResult,
} from "../cross-search/cross-search.js";
import {
  SCOPE_SESSION_COLUMNS,
  ownersOf,
  scopeSessionOf,
  type ScopeSession,
  type ScopeSessionRecord,
  type SearchScope,
} from "../cross-search/search-scope.js";
import type { StoredRow } from "../port.js";
import { FILTER_TERMS_TABLE } from "./filter-terms.js";
import { planTrigramQuery, type TrigramRarity } from "./trigram-plan.js";
import { WORD_SCORE } from "./word-index.js";

/** A literal walk's columns: with a filter, the body of a row that passes it only (null otherwise). */
const candidateColumns = (passes: string) =>
  `r.row_key, r.session_key, r.seq, r.window_seq, ${passes === "1" ? "r.body" : `CASE WHEN ${passes} THEN r.body END AS body`}`;

/**
 * The walks of a cross-session search; `passes` is the condition that the row passes the filter
 * ("1": no filter). Its filter terms (a `?` each) come first in the SELECT list, so they are the
 * first parameters. A literal walk hands out the bodies of the rows that pass (a row's JSON is the
 * walk's main cost), a ranked walk says `passes`.
 */
const walkSql = {
  crossLiteral: (passes: string) => `SELECT ${candidateColumns(passes)} FROM ctxwin_search_literal f
     CROSS JOIN ctxwin_rows r ON r.row_key = f.rowid WHERE ctxwin_search_literal MATCH ? ORDER BY f.rowid DESC`,
  crossScan: (passes: string) =>
    `SELECT ${candidateColumns(passes)} FROM ctxwin_rows r WHERE r.visible = 1 ORDER BY r.row_key DESC`,
  crossScoreWords: (passes: string) => `SELECT f.rowid AS row_key, r.session_key, r.seq, ${WORD_SCORE} AS score,
       ${passes} AS passes
     FROM ctxwin_search_words f CROSS JOIN ctxwin_rows r ON r.row_key = f.rowid
     WHERE ctxwin_search_words MATCH ? ORDER BY f.rowid DESC`,
} as const;

type WalkName = keyof typeof walkSql;

/** Whether the row `r` holds `terms` filter terms, the parameters in order (ADR 0051). */
const holdsTerms = (terms: number) =>
  Array.from(
    { length: terms },
    () =>
      `EXISTS (SELECT 1 FROM ${FILTER_TERMS_TABLE} t WHERE t.session_key = r.session_key AND t.term = ? AND t.seq = r.seq)`,
  ).join(" AND ");

/** The statements of a cross-session search; the FTS5 index drives each (CROSS JOIN), newest first. */
export const crossSearchSql = {
  crossLiteral: walkSql.crossLiteral("1"),
  crossScan: walkSql.crossScan("1"),
  crossCountWords: `SELECT count(*) AS matches FROM (SELECT 1 FROM ctxwin_search_words WHERE ctxwin_search_words MATCH ? LIMIT ?)`,
  crossScoreWords: walkSql.crossScoreWords("1"),
  topRowKey: "SELECT coalesce(max(row_key), 0) AS top FROM ctxwin_rows",
  scopeSessions: `SELECT ${SCOPE_SESSION_COLUMNS}, last_seq FROM ctxwin_sessions`,
} as const;

export type CrossSearchStatements = Record<keyof typeof crossSearchSql, Database.Statement>;

export interface CrossSearchState {
  sql: CrossSearchStatements;
  /** A walk that says whether rows hold `terms` filter terms (prepared on first use; 0 is the plain walk). */
  walk: (name: WalkName, terms: number) => Database.Statement;
  /** The sessions table's scope rows, read again only when the file changed since the last read. */
  sessions: () => { sessions: readonly ScopeSession[]; keys: ReadonlyMap<string, number> };
}

/**
 * Prepared on first use: a store opened before its lineage columns exist prepares them after the
 * migration. The sessions rows are kept while `PRAGMA data_version` (commits of other connections)
 * and `total_changes()` (this connection's writes) stay the same: then no session changed.
 */
export function prepareCrossSearch(db: Database.Database): () => CrossSearchState {
  let state: CrossSearchState | undefined;
  return () => {
    if (state !== undefined) return state;
    const sql = Object.fromEntries(
      Object.entries(crossSearchSql).map(([name, text]) => [name, db.prepare(text)]),
    ) as CrossSearchStatements;
    const dataVersion = db.prepare("PRAGMA data_version").pluck();
    const totalChanges = db.prepare("SELECT total_changes()").pluck();
    const walks = new Map<string, Database.Statement>();
    const walk = (name: WalkName, terms: number) => {
      if (terms === 0) return sql[name];
      const key = `${name}:${terms}`;
      let statement = walks.get(key);
      if (statement === undefined) walks.set(key, (statement = db.prepare(walkSql[name](holdsTerms(terms)))));
      return statement;
    };
    let cached: { version: string; sessions: ScopeSession[]; keys: Map<string, number> } | undefined;
    const sessions = () => {
      const version = `${String(dataVersion.get())}:${String(totalChanges.get())}`;
      if (cached?.version !== version) {
        const records = sql.scopeSessions.all() as ScopeSessionRecord[];
        cached = {
          version,
          sessions: records.map(scopeSessionOf),
          keys: new Map(records.map((record) => [record.session_id, Number(record.session_key)])),
        };
      }
      return cached;
    };
    return (state = { sql, walk, sessions });
  };
}

interface CrossCandidate {
  row_key: number;
  session_key: number;
  seq: number;
  window_seq: number;
  /** Null for a row that does not pass the filter. */
  body: string | null;
}

/** Words are letters and digits only (`rankedQueryWords`), so quoting cannot be escaped. */
const phraseOf = (word: string) => `"${word}"`;

/** The sessions of a scope by their keys in the rows table (a scope is reused while the sessions table is unchanged). */
const storedByScope = new WeakMap<SearchScope, Map<number, string>>();

/** Runs inside one read transaction of the caller. */
export function searchScopeRows(
  {
    state,
    decode,
    trigramRarity,
  }: {
    state: CrossSearchState;
    decode: (sessionId: string, candidate: CrossCandidate & { body: string }) => StoredRow | undefined;
    trigramRarity: TrigramRarity;
  },
  request: ScopeSearchRequest,
): ScopeSearchResult {
  const { query, scanLimit } = request;
  const { sql, walk } = state;
  const terms = filterTermsRequired(request.filter);
  const { sessions, keys } = state.sessions();
  const scope = request.scopeOf(sessions);
  let storedBy = storedByScope.get(scope);
  if (storedBy === undefined) {
    storedBy = new Map<number, string>();
    for (const storedIn of scope.segments.keys()) {
      const key = keys.get(storedIn);
      if (key !== undefined) storedBy.set(key, storedIn);
    }
    storedByScope.set(scope, storedBy);
  }
  if (storedBy.size === 0) return { scope, matches: [], partial: false };
  const topKey = (sql.topRowKey.get() as { top: number }).top;
  const matches: ScopeMatch[] = [];
  let read = 0;
  // With a filter, the rows of the scope looked at (passing or not) are bounded too.
  let examined = 0;
  const examineLimit = terms.length === 0 ? Number.POSITIVE_INFINITY : request.examineLimit;
  if (request.mode === "ranked") {
    const kept = selectRankedWords({
      words: rankedQueryWords(query),
      rangeRows: topKey,
      countRows: (word, cap) => (sql.crossCountWords.get(phraseOf(word), cap) as { matches: number }).matches,
    });
    const scored = walk("crossScoreWords", terms.length).iterate(...terms, kept.map(phraseOf).join(" OR "));
    for (const candidate of scored as Iterable<{
      session_key: number;
      seq: number;
      score: number;
      passes: number;
    }>) {
      const storedIn = storedBy.get(candidate.session_key);
      if (storedIn === undefined || ownersOf(scope, storedIn, candidate.seq).length === 0) continue;
      if ((examined += 1) > examineLimit) return { scope, matches, partial: true };
      if (candidate.passes !== 1) continue;
      if ((read += 1) > scanLimit) return { scope, matches, partial: true };
      matches.push({ storedIn, seq: candidate.seq, score: candidate.score });
    }
    return { scope, matches, partial: false };
  }
  const plan = planTrigramQuery({ query, rangeKeys: topKey, rarity: trigramRarity });
  const candidates = (
    plan === undefined
      ? walk("crossScan", terms.length).iterate(...terms)
      : walk("crossLiteral", terms.length).iterate(...terms, plan.match)
  ) as Iterable<CrossCandidate>;
  const counter = ownerCounter({ scope, hitsPerSession: request.hitsPerSession });
  for (const candidate of candidates) {
    const storedIn = storedBy.get(candidate.session_key);
    if (storedIn === undefined || !counter.wanted(storedIn, candidate.seq)) continue;
    if ((examined += 1) > examineLimit) return { scope, matches, partial: true };
    if (candidate.body === null) continue;
    if ((read += 1) > scanLimit) return { scope, matches, partial: true };
    const row = decode(storedIn, candidate as CrossCandidate & { body: string });
    if (row === undefined || !containsLiteral(renderSearchText(row), query)) continue;
    counter.add(storedIn, candidate.seq);
    matches.push({ storedIn, seq: candidate.seq, score: 0, hit: { row, windowId: windowIdFor(candidate.window_seq) } });
  }
  return { scope, matches, partial: false };
}
