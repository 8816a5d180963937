/**
 * Search on the PostgreSQL backend (ADR 0036). `core/` decides the rules; these queries execute
 * them, with the privacy floor, window and before-item bounds inside every query:
 * - Literal: `literal_text LIKE '%<folded query>%'`, where `literal_text` is the row's searchable
 *   text folded by `core/`'s `foldCase` when it was stored, so the match is exactly
 *   `containsLiteral`; newest first. A pg_trgm GIN index serves queries of three or more
 *   characters when the extension is installed.
 * - Ranked: PostgreSQL full-text search over the `words` vector (`core/`'s `tokenizeWords`),
 *   under the same bound as every backend (ADR 0016): `selectRankedWords` keeps the rarest words
 *   when the range holds more than `RANKED_CANDIDATE_LIMIT` rows, and only the newest
 *   `RANKED_CANDIDATE_LIMIT` matching rows are scored (`ts_rank`, length-normalized), newest first
 *   among equal scores.
 */
import type pg from "pg";
import { foldCase, rankedQueryWords } from "../../core/search-query.js";
import { RANKED_CANDIDATE_LIMIT, selectRankedWords } from "../../core/ranked-search-plan.js";
import { orderRankedCandidates } from "../../core/ranked-score.js";
import { windowIdFor } from "../../core/windows.js";
import type { CheckedSearch } from "../options.js";
import type { SearchHit, SearchPage, StoredRow } from "../port.js";
import type { TableNames } from "./schema.js";
import { anyWordQuery } from "./word-vector.js";

export interface EncodedRow {
  seq: number;
  window_seq: number;
  body: string;
}

export interface SearchContext {
  client: pg.PoolClient;
  tables: TableNames;
  sessionKey: number;
  sessionId: string;
  lastSeq: number;
  /** Exclusive seq bounds of the searched range (floor, window, before-item applied). */
  lowSeq: number;
  highSeq: number;
  decode: (sessionId: string, row: EncodedRow) => StoredRow | undefined;
}

/** `LIKE` pattern matching `text` anywhere (backslash is the default escape). */
export function containsPattern(text: string): string {
  return `%${foldCase(text).replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export async function searchRows(context: SearchContext, checked: CheckedSearch): Promise<SearchPage> {
  if (context.highSeq - context.lowSeq <= 1) return { hits: [], hasMore: false };
  const rows = checked.mode === "literal" ? await literalRows(context, checked) : await rankedRows(context, checked);
  const hits: SearchHit[] = [];
  for (const encoded of rows.slice(0, checked.limit)) {
    const row = context.decode(context.sessionId, encoded);
    if (row !== undefined) hits.push({ row, windowId: windowIdFor(encoded.window_seq) });
  }
  return { hits, hasMore: rows.length > checked.limit };
}

async function literalRows({ client, tables, sessionKey, lowSeq, highSeq }: SearchContext, checked: CheckedSearch): Promise<EncodedRow[]> {
  const result = await client.query<EncodedRow>(
    `SELECT seq, window_seq, body FROM ${tables.rows}
     WHERE session_key = $1 AND seq > $2 AND seq < $3 AND visible AND literal_text LIKE $4
     ORDER BY seq DESC LIMIT $5 OFFSET $6`,
    [sessionKey, lowSeq, highSeq, containsPattern(checked.query), checked.limit + 1, checked.offset],
  );
  return result.rows;
}

async function rankedRows({ client, tables, sessionKey, lastSeq, lowSeq, highSeq }: SearchContext, checked: CheckedSearch): Promise<EncodedRow[]> {
  // Seqs are gap-free from 1 to lastSeq, so the range's row count needs no query.
  const rangeRows = Math.max(0, Math.min(highSeq - 1, lastSeq) - lowSeq);
  const range = [sessionKey, lowSeq, highSeq];
  const countRows = async (word: string, cap: number) => {
    const result = await client.query<{ matches: number }>(
      `SELECT count(*)::int AS matches FROM (SELECT 1 FROM ${tables.rows}
       WHERE session_key = $1 AND seq > $2 AND seq < $3 AND words @@ $4::tsquery LIMIT $5) matching`,
      [...range, anyWordQuery([word]), cap],
    );
    return result.rows[0]?.matches ?? 0;
  };
  // selectRankedWords asks for counts synchronously, and only in this case: count first.
  const words = rankedQueryWords(checked.query);
  const counts = new Map<string, number>();
  if (words.length > 1 && rangeRows > RANKED_CANDIDATE_LIMIT) {
    for (const word of words) counts.set(word, await countRows(word, RANKED_CANDIDATE_LIMIT + 1));
  }
  const kept = selectRankedWords({ words, rangeRows, countRows: (word) => counts.get(word) ?? 0 });
  // The newest matching rows (at most RANKED_CANDIDATE_LIMIT) are scored here; core orders them
  // (ADR 0031: a row right after another matching row is lifted), like every backend.
  const scored = await client.query<{ seq: number; score: number }>(
    `SELECT seq, ts_rank(words, $4::tsquery, 1)::float8 AS score FROM ${tables.rows}
     WHERE session_key = $1 AND seq > $2 AND seq < $3 AND words @@ $4::tsquery
     ORDER BY seq DESC LIMIT $5`,
    [...range, anyWordQuery(kept), RANKED_CANDIDATE_LIMIT],
  );
  const ordered = orderRankedCandidates(scored.rows.map(({ seq, score }) => ({ key: Number(seq), position: Number(seq), score: Number(score) })));
  const page = ordered.slice(checked.offset, checked.offset + checked.limit + 1);
  if (page.length === 0) return [];
  const result = await client.query<EncodedRow>(
    `SELECT seq, window_seq, body FROM ${tables.rows} WHERE session_key = $1 AND seq = ANY($2::bigint[])`,
    [sessionKey, page],
  );
  const bySeq = new Map(result.rows.map((row) => [Number(row.seq), row]));
  return page.map((seq) => bySeq.get(seq)).filter((row): row is EncodedRow => row !== undefined);
}
