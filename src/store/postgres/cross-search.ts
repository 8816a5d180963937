/**
 * Cross-session search on the PostgreSQL backend (ADR 0089): one statement over the whole rows
 * table, restricted to the sessions the scope names (the visible sessions' floors and lineage,
 * worked out from the sessions table), each match kept when the scope shows its stored row.
 * - Literal: `literal_text LIKE` the folded query, exactly `containsLiteral`, from pg_trgm's index
 *   when it serves the query; the rows are read for the page only.
 * - Ranked: the words `selectRankedWords` keeps over the whole table, scored with BM25 as FTS5
 *   computes it, with the whole store's weights (every session's indexed rows and terms, and each
 *   word's rows counted up to `WORD_ROWS_CAP`): one BM25 over all sessions.
 * Hidden rows are never matches (`visible`). A role or tool filter (ADR 0093) is part of each
 * statement: a row must hold the filter's terms (`holdsFilterTerms`).
 */
import type pg from "pg";
import { bm25Scorer, type TermCounts } from "../../core/bm25.js";
import { selectRankedWords } from "../../core/ranked-search-plan.js";
import { rankedQueryWords } from "../../core/search-query.js";
import type { ScopeMatch, ScopeSearchRequest, ScopeSearchResult } from "../cross-search/cross-search.js";
import {
  SCOPE_SESSION_COLUMNS,
  ownersOf,
  scopeSessionOf,
  type ScopeSessionRecord,
} from "../cross-search/search-scope.js";
import { holdsFilterTerms } from "./filter-terms.js";
import { USE_TEXT_INDEX, USE_WORD_INDEX, withPlan } from "./planner-methods.js";
import type { TableNames } from "./schema.js";
import { containsPattern } from "./search.js";
import { anyWordQuery, CONTEXT_LABEL, OWN_LABEL } from "./word-vector.js";

/** A word's rows are counted up to this many for its BM25 weight; a word in more rows weighs little either way. */
const WORD_ROWS_CAP = 20_000;

export async function searchScopeRows(
  { client, tables, trigramIndex }: { client: pg.PoolClient; tables: TableNames; trigramIndex: boolean },
  request: ScopeSearchRequest,
): Promise<ScopeSearchResult> {
  const { query, scanLimit } = request;
  // A role or tool filter: after each statement's own parameters.
  const holds = (firstParameter: number) => holdsFilterTerms(tables, request.filter, firstParameter);
  const records = await client.query<ScopeSessionRecord>(`SELECT ${SCOPE_SESSION_COLUMNS} FROM ${tables.sessions}`);
  const scope = request.scopeOf(records.rows.map(scopeSessionOf));
  const storedIn = [...scope.segments.keys()];
  if (storedIn.length === 0) return { scope, matches: [], partial: false };
  const inScope = (entry: { session_id: string; seq: number | string }) =>
    ownersOf(scope, entry.session_id, Number(entry.seq)).length > 0;
  if (request.mode === "literal") {
    const filter = holds(4);
    const statement = () =>
      client.query<{ session_id: string; seq: string }>(
        `SELECT s.session_id, r.seq FROM ${tables.rows} r JOIN ${tables.sessions} s ON s.session_key = r.session_key
         WHERE r.visible AND r.literal_text LIKE $1 AND s.session_id = ANY($2::text[])${filter.sql} LIMIT $3`,
        [containsPattern(query), storedIn, scanLimit + 1, ...filter.parameters],
      );
    const serves = trigramIndex && /[\p{L}\p{N}]{3}/u.test(query);
    const result = await (serves ? withPlan(client, USE_TEXT_INDEX, statement) : statement());
    const matches: ScopeMatch[] = result.rows
      .slice(0, scanLimit)
      .filter(inScope)
      .map((entry) => ({ storedIn: entry.session_id, seq: Number(entry.seq), score: 0 }));
    return { scope, matches, partial: result.rows.length > scanLimit };
  }

  const words = rankedQueryWords(query);
  // Before the word index's planner settings: with table walks turned off, this read of the
  // sessions table took 0.5 s.
  const totals = (
    await client.query<{ rows: string | null; terms: string | null }>(
      `SELECT sum(indexed_rows) AS rows, sum(indexed_terms) AS terms FROM ${tables.sessions}`,
    )
  ).rows[0];
  // One statement per word, its query a parameter the planner sees, so that the word index serves it
  // (a query taken from a join, the planner walked the whole table for it).
  const wordRows = new Map<string, number>();
  for (const word of words) {
    const counted = await withPlan(client, USE_WORD_INDEX, () =>
      client.query<{ matches: number }>(
        `SELECT count(*)::int AS matches FROM (SELECT 1 FROM ${tables.rows} WHERE words @@ $1::tsquery LIMIT $2) holding`,
        [anyWordQuery([word]), WORD_ROWS_CAP],
      ),
    );
    wordRows.set(word, counted.rows[0]?.matches ?? 0);
  }
  const kept = selectRankedWords({
    words,
    rangeRows: Number(totals?.rows ?? 0),
    countRows: (word) => wordRows.get(word) ?? 0,
  });
  const filter = holds(5);
  const candidates = await client.query<{
    session_id: string;
    seq: string;
    word_count: number;
    lexeme: string;
    own: number;
    context: number;
  }>(
    `SELECT c.session_id, c.seq, c.word_count, u.lexeme,
       coalesce(cardinality(array_positions(u.weights, '${OWN_LABEL}')), 0) AS own,
       coalesce(cardinality(array_positions(u.weights, '${CONTEXT_LABEL}')), 0) AS context
     FROM (SELECT s.session_id, r.seq, r.word_count, r.words FROM ${tables.rows} r JOIN ${tables.sessions} s ON s.session_key = r.session_key
       WHERE r.words @@ $1::tsquery AND s.session_id = ANY($2::text[])${filter.sql} LIMIT $3) c
     CROSS JOIN LATERAL unnest(ts_delete(c.words, tsvector_to_array(ts_delete(c.words, $4::text[])))) AS u`,
    [anyWordQuery(kept), storedIn, scanLimit + 1, kept, ...filter.parameters],
  );
  const rows = new Map<string, { storedIn: string; seq: number; length: number; counts: Map<string, TermCounts> }>();
  for (const entry of candidates.rows) {
    const key = `${entry.session_id}\u0000${entry.seq}`;
    let row = rows.get(key);
    if (row === undefined)
      rows.set(
        key,
        (row = { storedIn: entry.session_id, seq: Number(entry.seq), length: entry.word_count, counts: new Map() }),
      );
    row.counts.set(entry.lexeme, { own: entry.own, context: entry.context });
  }
  const score = bm25Scorer({
    words: kept,
    rows: Number(totals?.rows ?? 0),
    terms: Number(totals?.terms ?? 0),
    wordRows: (word) => wordRows.get(word) ?? 0,
  });
  const scored = [...rows.values()].slice(0, scanLimit);
  const matches = scored
    .filter((row) => ownersOf(scope, row.storedIn, row.seq).length > 0)
    .map((row): ScopeMatch => ({ storedIn: row.storedIn, seq: row.seq, score: score(row) }));
  return { scope, matches, partial: rows.size > scanLimit };
}
