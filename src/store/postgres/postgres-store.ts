/**
 * The `postgres` backend: one shared, durable transcript on a PostgreSQL server for agents on
 * many machines (issue 17, ADRs 0035–0036). Same contract and conformance suite as SQLite:
 * appends lock the session's row so `seq` stays gap-free under concurrent writers, every read
 * applies the privacy floor inside its query, and reads of one call share one snapshot.
 */
import type { ConnectionOptions } from "node:tls";
import type { RowInput } from "../../core/row.js";
import { windowIdFor } from "../../core/windows.js";
import { StoreReadOnlyError } from "../errors.js";
import type { CheckedItems, CheckedSearch, CheckedWindows } from "../options.js";
import { hitsInOrder } from "../read-hits.js";
import type { FloorOptions, HistoryStore, ItemPage, SessionParent, WindowPage } from "../port.js";
import type { ForkRecord, LineageBackend } from "../lineage/lineage-backend.js";
import type { CheckedSessionsOptions } from "../lineage/lineage-options.js";
import type { ScopeSearchRequest } from "../cross-search/cross-search.js";
import { searchScopeRows } from "./cross-search.js";
import { withLineage } from "../lineage/with-lineage.js";
import { withArgumentChecks, type CheckedAppend, type CheckedBackend } from "../with-argument-checks.js";
import { attachParent, insertFork, lineageOf, setParent } from "./lineage-migration.js";
import { createRowDecoder } from "../row-codec.js";
import { windowSummaryOf, type WindowRecord } from "../window-record.js";
import { appendRows, type SessionRecord } from "./append-rows.js";
import { activeWindowOf, emptyActiveWindow, toSessionSummary, type SessionSummaryRecord } from "../session-record.js";
import { createConnectionPool, type ConnectionPoolOptions } from "./connection-pool.js";
import type { DatabaseBackendOptions } from "../backend-options.js";
import { createScopeSessions } from "./scope-sessions.js";
import { DEFAULT_POSTGRES_SCHEMA, tableNames } from "./schema.js";
import { searchRows, type EncodedRow } from "./search.js";
import { createWordShares } from "./word-shares.js";
import type pg from "pg";

export interface PostgresStoreOptions extends DatabaseBackendOptions {
  url: string;
  /** PostgreSQL schema holding the store (default `ctxwin`); one per project on a shared server. */
  schema?: string;
  /** TLS options passed to node-postgres as is (`true`, or Node `tls.connect` options). */
  ssl?: boolean | ConnectionOptions;
  /** Pool size (default 10). */
  maxConnections?: number;
  /** How long to wait for a connection (ms, default 10 000). */
  connectTimeoutMs?: number;
  /** Server-side limit of one statement (ms, default 60 000; 0 = none). */
  statementTimeoutMs?: number;
  /**
   * Client-side limit of one statement: how long to wait for the server's answer before the
   * connection is given up and the call fails with `StoreConnectionLostError` (ms; default
   * `statementTimeoutMs` + 5 000, or none when `statementTimeoutMs` is 0; 0 = none). It covers a
   * server that cannot cancel the statement itself: frozen, overloaded, or cut off.
   */
  queryTimeoutMs?: number;
}

/**
 * How much longer than the statement timeout the client waits by default: a slow statement is
 * cancelled by the server first (`StoreTimeoutError`, the connection stays usable); the client's
 * own deadline only ends a wait the server cannot end.
 */
const QUERY_TIMEOUT_GRACE_MS = 5_000;

/**
 * The connection `options` ask for, with the defaults filled in; the store's vector index
 * connects with the same ones (its own pool size aside).
 *
 * @example connectionOptionsOf({ url }).queryTimeoutMs // 65_000
 */
export function connectionOptionsOf({
  url,
  schema = DEFAULT_POSTGRES_SCHEMA,
  ssl,
  maxConnections = 10,
  connectTimeoutMs = 10_000,
  statementTimeoutMs = 60_000,
  queryTimeoutMs = statementTimeoutMs > 0 ? statementTimeoutMs + QUERY_TIMEOUT_GRACE_MS : 0,
  readOnly = false,
}: PostgresStoreOptions): ConnectionPoolOptions & { readOnly: boolean } {
  return { url, schema, ssl, maxConnections, connectTimeoutMs, statementTimeoutMs, queryTimeoutMs, readOnly };
}

/**
 * @example
 * const store = createPostgresStore({ url: "postgres://agent@db.internal/ctxwin", schema: "project_a" });
 */
export function createPostgresStore(options: PostgresStoreOptions): HistoryStore {
  return withLineage(createPostgresBackend(options));
}

/** The PostgreSQL backend before `withLineage`: a fork's reads see its own rows only. */
function createPostgresBackend(options: PostgresStoreOptions): LineageBackend {
  const {
    now = () => new Date(),
    generateId = () => crypto.randomUUID(),
    maxRowBytes,
    onWarning = (warning) => console.warn(`ctxwin: ${warning.message}`),
  } = options;
  const connection = connectionOptionsOf(options);
  const { schema, readOnly } = connection;
  const pool = createConnectionPool(connection);
  const t = tableNames(schema);
  const wordShares = createWordShares({ schema });
  const scopeSessions = createScopeSessions(t);

  const assertWritable = () => {
    if (readOnly) throw new StoreReadOnlyError(pool.where, "opened-read-only");
  };
  /** A read-only call: one snapshot for all its statements. */
  const read = <T>(work: (client: pg.PoolClient) => Promise<T>) => pool.transaction(work, { snapshot: true });
  const sessionOf = async (client: pg.PoolClient, sessionId: string) =>
    (await client.query<SessionRecord>(`SELECT * FROM ${t.sessions} WHERE session_id = $1`, [sessionId])).rows[0];
  const windowOf = async (client: pg.PoolClient, sessionKey: number, windowSeq: number) =>
    (
      await client.query<WindowRecord>(`SELECT * FROM ${t.windows} WHERE session_key = $1 AND window_seq = $2`, [
        sessionKey,
        windowSeq,
      ])
    ).rows[0];
  const floorOf = (session: SessionRecord, options: FloorOptions) =>
    options.includeCleared === true ? 0 : session.floor_seq;

  const decoder = createRowDecoder(onWarning);
  const { decode, decodeAll } = decoder;

  const store: CheckedBackend = {
    backend: "postgres",

    async append(sessionId: string, valid: RowInput[], { operationId, expectLastSeq, parent }: CheckedAppend) {
      const timestamp = now().toISOString();
      const stored = await pool.transaction(
        async (client) => {
          const rows = await appendRows(client, t, {
            sessionId,
            inputs: valid,
            operationId,
            expectLastSeq,
            timestamp,
            generateId,
          });
          // The parent is recorded when this append created the session (it had no rows before).
          const created = await sessionOf(client, sessionId);
          if (parent !== undefined && created !== undefined && created.last_seq === rows.length && rows[0]?.seq === 1)
            await setParent(client, t, created.session_key, parent);
          return rows;
        },
        { writing: true },
      );
      return decodeAll(sessionId, stored).rows;
    },

    async activeWindow(sessionId: string) {
      return read(async (client) => {
        const session = await sessionOf(client, sessionId);
        if (session === undefined) return emptyActiveWindow();
        const window = await windowOf(client, session.session_key, session.active_window_seq);
        const encoded = await client.query<EncodedRow>(
          `SELECT seq, window_seq, body FROM ${t.rows} WHERE session_key = $1 AND seq >= $2 ORDER BY seq`,
          [session.session_key, Math.max(1, session.active_window_seq)],
        );
        return activeWindowOf(session, window, decodeAll(sessionId, encoded.rows));
      });
    },

    async windows(sessionId: string, checked: CheckedWindows): Promise<WindowPage> {
      return read(async (client) => {
        const session = await sessionOf(client, sessionId);
        if (session === undefined) return { windows: [], hasMore: false };
        const records = await client.query<WindowRecord>(
          `SELECT * FROM ${t.windows} WHERE session_key = $1 AND window_seq >= $2 AND window_seq < $3 ORDER BY window_seq DESC LIMIT $4`,
          [
            session.session_key,
            floorOf(session, checked),
            checked.beforeWindowSeq ?? Number.MAX_SAFE_INTEGER,
            checked.limit + 1,
          ],
        );
        return {
          windows: records.rows
            .slice(0, checked.limit)
            .map((record) => windowSummaryOf(record, session.active_window_seq)),
          hasMore: records.rows.length > checked.limit,
        };
      });
    },

    async items(sessionId: string, checked: CheckedItems): Promise<ItemPage> {
      return read(async (client) => {
        const session = await sessionOf(client, sessionId);
        if (session === undefined) return { rows: [], hasMore: false, skipped: 0 };
        let low = Math.max(floorOf(session, checked), checked.afterSeq ?? 0);
        let high = checked.beforeSeq ?? Number.MAX_SAFE_INTEGER;
        if (checked.windowSeq !== undefined) {
          const window = await windowOf(client, session.session_key, checked.windowSeq);
          if (window === undefined) return { rows: [], hasMore: false, skipped: 0 };
          low = Math.max(low, window.first_seq - 1);
          high = Math.min(high, window.last_seq + 1);
        }
        const newestFirst = checked.afterSeq === undefined && checked.beforeSeq !== undefined;
        const encoded = await client.query<EncodedRow>(
          `SELECT seq, window_seq, body FROM ${t.rows} WHERE session_key = $1 AND seq > $2 AND seq < $3 ORDER BY seq ${newestFirst ? "DESC" : "ASC"} LIMIT $4`,
          [session.session_key, low, high, checked.limit + 1],
        );
        const page = encoded.rows.slice(0, checked.limit);
        if (newestFirst) page.reverse();
        return { ...decodeAll(sessionId, page), hasMore: encoded.rows.length > checked.limit };
      });
    },

    async read(sessionId: string, seq: number, options: FloorOptions) {
      const includeCleared = options.includeCleared === true;
      const encoded = await read((client) =>
        client.query<EncodedRow>(
          `SELECT r.seq, r.window_seq, r.body FROM ${t.rows} r JOIN ${t.sessions} s ON s.session_key = r.session_key
           WHERE s.session_id = $1 AND r.seq = $2 AND ($3 OR r.seq > s.floor_seq)`,
          [sessionId, seq, includeCleared],
        ),
      );
      const row = encoded.rows[0];
      return row === undefined ? undefined : decode(sessionId, row);
    },

    async readHits(sessionId: string, wanted: number[], options: FloorOptions) {
      if (wanted.length === 0) return [];
      const encoded = await read((client) =>
        client.query<EncodedRow>(
          `SELECT r.seq, r.window_seq, r.body FROM ${t.rows} r JOIN ${t.sessions} s ON s.session_key = r.session_key
           WHERE s.session_id = $1 AND r.seq = ANY($2::bigint[]) AND ($3 OR r.seq > s.floor_seq)`,
          [sessionId, wanted, options.includeCleared === true],
        ),
      );
      const bySeq = new Map(encoded.rows.map((row) => [Number(row.seq), row]));
      return hitsInOrder(wanted, (seq) => {
        const row = bySeq.get(seq);
        const decoded = row === undefined ? undefined : decode(sessionId, row);
        return row === undefined || decoded === undefined
          ? undefined
          : { row: decoded, windowId: windowIdFor(row.window_seq) };
      });
    },

    async search(sessionId: string, checked: CheckedSearch) {
      return read(async (client) => {
        const session = await sessionOf(client, sessionId);
        if (session === undefined) return { hits: [], hasMore: false };
        let lowSeq = floorOf(session, checked);
        let highSeq = checked.beforeSeq ?? Number.MAX_SAFE_INTEGER;
        if (checked.windowSeq !== undefined) {
          const window = await windowOf(client, session.session_key, checked.windowSeq);
          if (window === undefined) return { hits: [], hasMore: false };
          lowSeq = Math.max(lowSeq, window.first_seq - 1);
          highSeq = Math.min(highSeq, window.last_seq + 1);
        }
        const context = {
          client,
          tables: t,
          sessionKey: session.session_key,
          sessionId,
          lastSeq: session.last_seq,
          lowSeq,
          highSeq,
        };
        const corpus = { indexedRows: session.indexed_rows, indexedTerms: session.indexed_terms };
        return searchRows(
          { ...context, ...corpus, decode, wordShares, trigramIndex: pool.schema.trigramIndex },
          checked,
        );
      });
    },

    async searchScope(request: ScopeSearchRequest) {
      return read((client) =>
        searchScopeRows(
          { client, tables: t, trigramIndex: pool.schema.trigramIndex, scopeSessions, wordShares, decode },
          request,
        ),
      );
    },

    async lastSeq(sessionId: string) {
      return (await read((client) => sessionOf(client, sessionId)))?.last_seq ?? 0;
    },

    async privacyFloor(sessionId: string) {
      return (await read((client) => sessionOf(client, sessionId)))?.floor_seq ?? 0;
    },

    async sessions({ parentSessionId, forkOfSessionId }: CheckedSessionsOptions) {
      const records = await read((client) =>
        client.query<SessionSummaryRecord>(
          `${sessionSummarySql(t)} WHERE ($1::text IS NULL OR s.parent_session_id = $1) AND ($2::text IS NULL OR s.fork_of_session_id = $2)
           ORDER BY s.updated_at DESC, s.session_id COLLATE "C"`,
          [parentSessionId ?? null, forkOfSessionId ?? null],
        ),
      );
      return records.rows.map(toSessionSummary);
    },

    async attachParent(sessionId: string, parent: SessionParent) {
      return pool.transaction((client) => attachParent(client, t, sessionId, parent), { writing: true });
    },

    async createFork(record: ForkRecord) {
      const timestamp = now().toISOString();
      await pool.transaction((client) => insertFork(client, t, record, timestamp), { writing: true });
    },

    async lineageOf(sessionId: string) {
      return read((client) => lineageOf(client, t, sessionId));
    },

    async session(sessionId: string) {
      const records = await read((client) =>
        client.query<SessionSummaryRecord>(`${sessionSummarySql(t)} WHERE s.session_id = $1`, [sessionId]),
      );
      const record = records.rows[0];
      return record === undefined ? undefined : toSessionSummary(record);
    },

    async deleteSession(sessionId: string) {
      return pool.transaction(
        async (client) => {
          const locked = await client.query<{ session_key: number }>(
            `SELECT session_key FROM ${t.sessions} WHERE session_id = $1 FOR UPDATE`,
            [sessionId],
          );
          const key = locked.rows[0]?.session_key;
          if (key === undefined) return false;
          for (const table of [t.filterTerms, t.rows, t.windows, t.operations, t.sessions])
            await client.query(`DELETE FROM ${table} WHERE session_key = $1`, [key]);
          return true;
        },
        { writing: true },
      );
    },

    diagnostics() {
      return { corruptRowsSkipped: decoder.skippedRows() };
    },

    async close() {
      await pool.end();
    },
  };
  return withArgumentChecks(store, { maxRowBytes, assertWritable });
}

const sessionSummarySql = (t: ReturnType<typeof tableNames>) =>
  `SELECT s.*, (SELECT count(*) FROM ${t.windows} w WHERE w.session_key = s.session_key) AS window_count FROM ${t.sessions} s`;
