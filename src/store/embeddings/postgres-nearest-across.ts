/**
 * pgvector's half of a hybrid search across sessions (ADR 0105): one statement over the model's
 * table for every session of the scope. A scope holding few embedded rows (the rule of one
 * session's search, ADR 0096, `scoredExactly`) is scored exactly, its segments joined in the
 * statement; a larger one asks the HNSW index with the iterative scan, filtered to the scope's
 * sessions, and keeps the rows inside their segments (a floor or a fork point cuts few of them).
 */
import type pg from "pg";
import { HNSW_SETTINGS, chunksFor, distanceTo, efSearchOf, literalOf, scoredExactly } from "./pgvector-scoring.js";
import { bestRowsAcross, inSegments, type NearestAcrossQuery, type NearestAcrossRow } from "./vector-index.js";

/**
 * @example await nearestAcrossIn(client, { table, progressTable, modelKey, installed, vector, segments, limit: 30 })
 */
export async function nearestAcrossIn(
  client: pg.PoolClient,
  {
    table,
    progressTable,
    modelKey,
    installed,
    vector,
    segments,
    limit,
  }: Omit<NearestAcrossQuery, "model"> & { table: string; progressTable: string; modelKey: number; installed: string },
): Promise<NearestAcrossRow[]> {
  if (segments.size === 0) return [];
  const ids = [...segments.keys()];
  const parts = [...segments].flatMap(([sessionId, list]) => list.map((part) => ({ sessionId, ...part })));
  // As one session's search asks: the index's walk grows with `ef_search` (at 100,000 chunks, 60: 2,122
  // buffers, 120: 3,923), and the segments' bounds after it drop few rows (a floor, a fork point).
  const chunks = chunksFor(limit);
  // One statement: the HNSW settings of this transaction, how far each session is embedded, the table's chunks.
  const settings = await client.query<{
    marks: { session_id: string; through_seq: string }[] | null;
    embedded_sessions: string;
    table_chunks: number | null;
  }>(
    `SELECT ${HNSW_SETTINGS},
       (SELECT json_agg(json_build_object('session_id', session_id, 'through_seq', through_seq)) FROM ${progressTable}
         WHERE model_key = $2 AND session_id = ANY($3::text[])) AS marks,
       (SELECT count(*) FROM ${progressTable} WHERE model_key = $2) AS embedded_sessions,
       (SELECT reltuples FROM pg_class WHERE oid = $4::regclass) AS table_chunks`,
    [efSearchOf(chunks), modelKey, ids, table],
  );
  const {
    marks,
    embedded_sessions: embeddedSessions,
    table_chunks: tableChunks,
  } = settings.rows[0] ?? { marks: null, embedded_sessions: "0", table_chunks: null };
  const through = new Map((marks ?? []).map((mark) => [mark.session_id, Number(mark.through_seq)]));
  // Vectors exist only up to each session's progress mark: at most this many rows are in the scope.
  const rowsInScope = parts.reduce(
    (sum, part) => sum + Math.max(0, Math.min(part.high, through.get(part.sessionId) ?? 0) - part.low),
    0,
  );
  const distance = distanceTo(installed);
  if (scoredExactly(rowsInScope, Number(tableChunks ?? -1))) {
    const found = await client.query<{ session_id: string; seq: string; similarity: number }>(
      `SELECT t.session_id, t.seq, 1 - (${distance}) AS similarity
       FROM unnest($2::text[], $3::bigint[], $4::bigint[]) AS s(session_id, low, high)
       JOIN ${table} t ON t.session_id = s.session_id AND t.seq > s.low AND t.seq <= s.high
       ORDER BY similarity DESC LIMIT $5`,
      [
        literalOf(vector),
        parts.map((part) => part.sessionId),
        parts.map((part) => part.low),
        parts.map((part) => Math.min(part.high, Number.MAX_SAFE_INTEGER)),
        chunks,
      ],
    );
    return bestRowsAcross(found.rows.map(rowOf), limit);
  }
  // A scope of every embedded session (the common one) needs no filter in the index's walk; the
  // segments below keep the scope's rows in any case.
  const everySession = (marks?.length ?? 0) === Number(embeddedSessions);
  const found = await client.query<{ session_id: string; seq: string; similarity: number }>(
    `SELECT session_id, seq, 1 - (${distance}) AS similarity FROM ${table}
     ${everySession ? "" : "WHERE session_id = ANY($3::text[])"} ORDER BY ${distance} LIMIT $2`,
    [literalOf(vector), chunks, ...(everySession ? [] : [ids])],
  );
  return bestRowsAcross(
    found.rows.map(rowOf).filter((row) => inSegments(segments.get(row.sessionId) ?? [], row.seq)),
    limit,
  );
}

/**
 * The nearest rows of the whole table (every session): scored exactly when the table holds few
 * chunks (`scoredExactly` of its estimated size), else through the HNSW index.
 *
 * @example await nearestEverywhereIn(client, { table, installed, vector, limit: 30 })
 */
export async function nearestEverywhereIn(
  client: pg.PoolClient,
  {
    table,
    installed,
    vector,
    limit,
  }: Omit<NearestAcrossQuery, "model" | "segments"> & { table: string; installed: string },
): Promise<NearestAcrossRow[]> {
  const chunks = chunksFor(limit);
  const settings = await client.query<{ table_chunks: number | null }>(
    `SELECT ${HNSW_SETTINGS},
       (SELECT reltuples FROM pg_class WHERE oid = $2::regclass) AS table_chunks`,
    [efSearchOf(chunks), table],
  );
  const tableChunks = Number(settings.rows[0]?.table_chunks ?? -1);
  const distance = distanceTo(installed);
  // A table never analyzed (-1) or small is read whole: exact, and no slower than the index there.
  const order = tableChunks >= 0 && scoredExactly(tableChunks, tableChunks) ? "similarity DESC" : distance;
  const found = await client.query<{ session_id: string; seq: string; similarity: number }>(
    `SELECT session_id, seq, 1 - (${distance}) AS similarity FROM ${table} ORDER BY ${order} LIMIT $2`,
    [literalOf(vector), chunks],
  );
  return bestRowsAcross(found.rows.map(rowOf), limit);
}

const rowOf = (row: { session_id: string; seq: string; similarity: number }): NearestAcrossRow => ({
  sessionId: row.session_id,
  seq: Number(row.seq),
  similarity: Number(row.similarity),
});
