/**
 * Cross-session search on the SQLite backend (ADR 0089): one walk of an FTS5 index over the whole
 * file, newest row first, each match kept only when the scope (the visible sessions' floors and
 * lineage, worked out from the sessions table) shows its stored row under some session.
 * - Literal: the trigram index's candidates for the query's rarest trigrams (`trigram-plan.ts`),
 *   or, for a query without one, the visible rows themselves; each verified with `containsLiteral`.
 *   A row whose every session already has its hits and one more is not read at all.
 * - Ranked: the words `selectRankedWords` keeps over the whole file, scored with FTS5's BM25, whose
 *   weights are the whole file's: one BM25 over all sessions.
 * The indexes hold visible rows only, so hidden rows are never candidates.
 */
import type Database from "better-sqlite3";
import { selectRankedWords } from "../../core/ranked-search-plan.js";
import { containsLiteral, rankedQueryWords } from "../../core/search-query.js";
import { renderSearchText } from "../../core/search-text.js";
import { windowIdFor } from "../../core/windows.js";
import { ownerCounter, type ScopeMatch, type ScopeSearchRequest, type ScopeSearchResult } from "../cross-search/cross-search.js";
import { SCOPE_SESSION_COLUMNS, ownersOf, scopeSessionOf, type ScopeSessionRecord } from "../cross-search/search-scope.js";
import type { StoredRow } from "../port.js";
import { planTrigramQuery, type TrigramRarity } from "./trigram-plan.js";
import { WORD_SCORE } from "./word-index.js";

const candidateColumns = "r.row_key, r.session_key, r.seq, r.window_seq, r.body";

/** The statements of a cross-session search; the FTS5 index drives each (CROSS JOIN), newest first. */
export const crossSearchSql = {
  crossLiteral: `SELECT ${candidateColumns} FROM ctxwin_search_literal f CROSS JOIN ctxwin_rows r ON r.row_key = f.rowid
     WHERE ctxwin_search_literal MATCH ? ORDER BY f.rowid DESC`,
  crossScan: `SELECT ${candidateColumns} FROM ctxwin_rows r WHERE r.visible = 1 ORDER BY r.row_key DESC`,
  crossCountWords: `SELECT count(*) AS matches FROM (SELECT 1 FROM ctxwin_search_words WHERE ctxwin_search_words MATCH ? LIMIT ?)`,
  crossScoreWords: `SELECT f.rowid AS row_key, r.session_key, r.seq, ${WORD_SCORE} AS score FROM ctxwin_search_words f
     CROSS JOIN ctxwin_rows r ON r.row_key = f.rowid WHERE ctxwin_search_words MATCH ? ORDER BY f.rowid DESC`,
  topRowKey: "SELECT coalesce(max(row_key), 0) AS top FROM ctxwin_rows",
  scopeSessions: `SELECT ${SCOPE_SESSION_COLUMNS} FROM ctxwin_sessions`,
} as const;

export type CrossSearchStatements = Record<keyof typeof crossSearchSql, Database.Statement>;

/** Prepared on first use: a store opened before its lineage columns exist prepares them after the migration. */
export function prepareCrossSearch(db: Database.Database): () => CrossSearchStatements {
  let prepared: CrossSearchStatements | undefined;
  return () => (prepared ??= Object.fromEntries(Object.entries(crossSearchSql).map(([name, text]) => [name, db.prepare(text)])) as CrossSearchStatements);
}

interface CrossCandidate {
  row_key: number;
  session_key: number;
  seq: number;
  window_seq: number;
  body: string;
}

/** Words are letters and digits only (`rankedQueryWords`), so quoting cannot be escaped. */
const phraseOf = (word: string) => `"${word}"`;

/** Runs inside one read transaction of the caller. */
export function searchScopeRows(
  { sql, decode, trigramRarity }: { sql: CrossSearchStatements; decode: (sessionId: string, candidate: CrossCandidate) => StoredRow | undefined; trigramRarity: TrigramRarity },
  request: ScopeSearchRequest,
): ScopeSearchResult {
  const { query, scanLimit } = request;
  const records = sql.scopeSessions.all() as ScopeSessionRecord[];
  const scope = request.scopeOf(records.map(scopeSessionOf));
  const storedBy = new Map<number, string>();
  for (const record of records) if (scope.segments.has(record.session_id)) storedBy.set(Number(record.session_key), record.session_id);
  if (storedBy.size === 0) return { scope, matches: [], partial: false };
  const topKey = (sql.topRowKey.get() as { top: number }).top;
  const matches: ScopeMatch[] = [];
  let read = 0;
  if (request.mode === "ranked") {
    const kept = selectRankedWords({
      words: rankedQueryWords(query),
      rangeRows: topKey,
      countRows: (word, cap) => (sql.crossCountWords.get(phraseOf(word), cap) as { matches: number }).matches,
    });
    for (const candidate of sql.crossScoreWords.iterate(kept.map(phraseOf).join(" OR ")) as Iterable<{ session_key: number; seq: number; score: number }>) {
      const storedIn = storedBy.get(candidate.session_key);
      if (storedIn === undefined || ownersOf(scope, storedIn, candidate.seq).length === 0) continue;
      if ((read += 1) > scanLimit) return { scope, matches, partial: true };
      matches.push({ storedIn, seq: candidate.seq, score: candidate.score });
    }
    return { scope, matches, partial: false };
  }
  const plan = planTrigramQuery({ query, rangeKeys: topKey, rarity: trigramRarity });
  const candidates = (plan === undefined ? sql.crossScan.iterate() : sql.crossLiteral.iterate(plan.match)) as Iterable<CrossCandidate>;
  const counter = ownerCounter({ scope, hitsPerSession: request.hitsPerSession });
  for (const candidate of candidates) {
    const storedIn = storedBy.get(candidate.session_key);
    if (storedIn === undefined || !counter.wanted(storedIn, candidate.seq)) continue;
    if ((read += 1) > scanLimit) return { scope, matches, partial: true };
    const row = decode(storedIn, candidate);
    if (row === undefined || !containsLiteral(renderSearchText(row), query)) continue;
    counter.add(storedIn, candidate.seq);
    matches.push({ storedIn, seq: candidate.seq, score: 0, hit: { row, windowId: windowIdFor(candidate.window_seq) } });
  }
  return { scope, matches, partial: false };
}
