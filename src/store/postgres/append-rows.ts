/**
 * One append on the PostgreSQL backend, inside the caller's transaction. The session's row is
 * locked (`SELECT ... FOR UPDATE`) before seqs are assigned, so writers on any number of machines
 * take turns per session and `seq` stays gap-free; the rows, their windows, the session's counters
 * (including the ranked index's rows and terms, ADR 0052) and the operation id commit together or
 * not at all.
 */
import type pg from "pg";
import type { RowInput } from "../../core/row.js";
import { foldCase, rankedTerms } from "../../core/search-query.js";
import { planAppend, indexedTextOf, type PlannedRow } from "../append-plan.js";
import { decodeRow } from "../row-codec.js";
import { AppendConflictError, DuplicateRolloverError } from "../errors.js";
import { insertFilterTerms } from "./filter-terms.js";
import type { TableNames } from "./schema.js";
import type { SessionRecord as StoredSession } from "../session-record.js";
import type { EncodedRow } from "./search.js";
import { wordVector } from "./word-vector.js";

export interface SessionRecord extends StoredSession {
  /** Rows in the ranked index, and their terms (own and context): BM25's corpus (ADR 0052). */
  indexed_rows: number;
  indexed_terms: number;
}

export interface AppendRequest {
  sessionId: string;
  inputs: readonly RowInput[];
  operationId: string | undefined;
  expectLastSeq: number | undefined;
  timestamp: string;
  generateId: () => string;
}

/** PostgreSQL text cannot hold NUL; queries cannot contain it either, so no match is lost. */
export const withoutNul = (text: string) => text.replaceAll("\u0000", "\uffff");

export async function appendRows(client: pg.PoolClient, t: TableNames, request: AppendRequest): Promise<EncodedRow[]> {
  const { sessionId, operationId, expectLastSeq, timestamp } = request;
  const session = await lockSession(client, t, sessionId, timestamp);
  if (operationId !== undefined) {
    const seen = await client.query<{ first_seq: number; last_seq: number }>(
      `SELECT first_seq, last_seq FROM ${t.operations} WHERE session_key = $1 AND operation_id = $2`,
      [session.session_key, operationId],
    );
    const range = seen.rows[0];
    if (range !== undefined) {
      const rows = await client.query<EncodedRow>(
        `SELECT seq, window_seq, body FROM ${t.rows} WHERE session_key = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq`,
        [session.session_key, range.first_seq, range.last_seq],
      );
      return rows.rows;
    }
  }
  if (expectLastSeq !== undefined && expectLastSeq !== session.last_seq)
    throw new AppendConflictError(sessionId, expectLastSeq, session.last_seq);
  const previous = await previousTerms(client, t, session);
  const plan = planAppend(
    sessionId,
    request.inputs,
    { lastSeq: session.last_seq, activeWindowSeq: session.active_window_seq, floorSeq: session.floor_seq },
    { createdAt: timestamp, generateId: request.generateId, previousTerms: () => previous },
  );
  await refuseDuplicateRollovers(client, t, session, plan.rows);
  await client.query(
    `INSERT INTO ${t.rows} (session_key, seq, window_seq, visible, tokens, body, literal_text, words, word_count)
     SELECT $1, * FROM unnest($2::bigint[], $3::bigint[], $4::boolean[], $5::bigint[], $6::text[], $7::text[], $8::tsvector[], $9::integer[])`,
    [
      session.session_key,
      plan.rows.map((entry) => entry.row.seq),
      plan.rows.map((entry) => entry.windowSeq),
      plan.rows.map((entry) => entry.visible),
      plan.rows.map((entry) => entry.row.tokens ?? null),
      plan.rows.map((entry) => entry.body),
      plan.rows.map((entry) => (entry.visible ? withoutNul(foldCase(entry.searchText)) : null)),
      plan.rows.map((entry) =>
        entry.searchText.length > 0 ? wordVector({ terms: entry.terms, context: entry.contextTerms }) : null,
      ),
      plan.rows.map(termCount),
    ],
  );
  await insertFilterTerms(
    client,
    t,
    session.session_key,
    plan.rows.map((entry) => ({ seq: entry.row.seq, terms: entry.filterTerms })),
  );
  for (const window of windowsOf(plan.rows)) {
    await client.query(
      `INSERT INTO ${t.windows} (session_key, window_seq, kind, reason, rollover_id, context_tokens, max_tokens,
       first_seq, last_seq, row_count, visible_count, started_at, ended_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (session_key, window_seq) DO UPDATE SET
         last_seq = excluded.last_seq, row_count = ${t.windows}.row_count + excluded.row_count,
         visible_count = ${t.windows}.visible_count + excluded.visible_count, ended_at = excluded.ended_at`,
      [session.session_key, ...window],
    );
  }
  const indexed = plan.rows.filter((entry) => entry.searchText.length > 0);
  await client.query(
    `UPDATE ${t.sessions} SET last_seq = $1, active_window_seq = $2, floor_seq = $3, updated_at = $4,
       indexed_rows = indexed_rows + $6, indexed_terms = indexed_terms + $7 WHERE session_key = $5`,
    [
      plan.cursor.lastSeq,
      plan.cursor.activeWindowSeq,
      plan.cursor.floorSeq,
      timestamp,
      session.session_key,
      indexed.length,
      indexed.reduce((sum, entry) => sum + termCount(entry), 0),
    ],
  );
  if (operationId !== undefined) {
    await client.query(
      `INSERT INTO ${t.operations} (session_key, operation_id, first_seq, last_seq) VALUES ($1, $2, $3, $4)`,
      [session.session_key, operationId, session.last_seq + 1, plan.cursor.lastSeq],
    );
  }
  return plan.rows.map((entry) => ({ seq: entry.row.seq, window_seq: entry.windowSeq, body: entry.body }));
}

/** Terms of a row's ranked-index entry, own and context (BM25's row length); 0 when not indexed. */
const termCount = (entry: PlannedRow) =>
  entry.searchText.length > 0 ? entry.terms.length + entry.contextTerms.length : 0;

/** The ranked terms of the session's last row, the context of the next one (ADR 0052); [] when it is not indexed. */
async function previousTerms(client: pg.PoolClient, t: TableNames, session: SessionRecord): Promise<string[]> {
  if (session.last_seq === 0) return [];
  const result = await client.query<EncodedRow>(
    `SELECT seq, window_seq, body FROM ${t.rows} WHERE session_key = $1 AND seq = $2 AND visible`,
    [session.session_key, session.last_seq],
  );
  const encoded = result.rows[0];
  const decoded = encoded === undefined ? undefined : decodeRow(session.session_id, Number(encoded.seq), encoded.body);
  return decoded?.ok === true ? rankedTerms(indexedTextOf(decoded.row)) : [];
}

/** The session's row, created when missing, locked until the transaction ends. */
async function lockSession(
  client: pg.PoolClient,
  t: TableNames,
  sessionId: string,
  timestamp: string,
): Promise<SessionRecord> {
  // A concurrent deleteSession may remove the row between the two statements: then try again.
  for (;;) {
    await client.query(
      `INSERT INTO ${t.sessions} (session_id, incarnation, created_at, updated_at) VALUES ($1, $2, $3, $3) ON CONFLICT (session_id) DO NOTHING`,
      [sessionId, crypto.randomUUID(), timestamp],
    );
    const locked = await client.query<SessionRecord>(`SELECT * FROM ${t.sessions} WHERE session_id = $1 FOR UPDATE`, [
      sessionId,
    ]);
    if (locked.rows[0] !== undefined) return locked.rows[0];
  }
}

async function refuseDuplicateRollovers(
  client: pg.PoolClient,
  t: TableNames,
  session: SessionRecord,
  rows: readonly PlannedRow[],
): Promise<void> {
  const ids: string[] = [];
  for (const entry of rows) {
    if (entry.rolloverId === undefined) continue;
    if (ids.includes(entry.rolloverId)) throw new DuplicateRolloverError(session.session_id, entry.rolloverId);
    ids.push(entry.rolloverId);
  }
  if (ids.length === 0) return;
  const existing = await client.query<{ rollover_id: string }>(
    `SELECT rollover_id FROM ${t.windows} WHERE session_key = $1 AND rollover_id = ANY($2::text[]) LIMIT 1`,
    [session.session_key, ids],
  );
  const duplicate = existing.rows[0];
  if (duplicate !== undefined) throw new DuplicateRolloverError(session.session_id, duplicate.rollover_id);
}

/** One upsert per window the rows touch: its opening row's fields and the rows' totals. */
function windowsOf(rows: readonly PlannedRow[]): unknown[][] {
  const windows = new Map<number, { first: PlannedRow; last: PlannedRow; count: number; visible: number }>();
  for (const entry of rows) {
    const window = windows.get(entry.windowSeq);
    if (window === undefined)
      windows.set(entry.windowSeq, { first: entry, last: entry, count: 1, visible: entry.visible ? 1 : 0 });
    else
      Object.assign(window, {
        last: entry,
        count: window.count + 1,
        visible: window.visible + (entry.visible ? 1 : 0),
      });
  }
  return [...windows.entries()].map(([windowSeq, { first, last, count, visible }]) => [
    windowSeq,
    first.boundaryKind ?? "start",
    first.reason ?? null,
    first.rolloverId ?? null,
    first.contextTokens ?? null,
    first.maxTokens ?? null,
    first.row.seq,
    last.row.seq,
    count,
    visible,
    first.row.createdAt,
    last.row.createdAt,
  ]);
}
