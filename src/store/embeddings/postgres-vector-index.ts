/**
 * The PostgreSQL backend's vectors (ADR 0063), with the pgvector extension, in the store's own
 * schema, in tables created on the first write (no store format change; a schema without them
 * simply has no vectors):
 * - `ctxwin_embedding_models`: each model id, its dimension and its table;
 * - `ctxwin_embedding_progress`: how far each session is embedded with each model;
 * - `ctxwin_embeddings_<key>` per model: every chunk's `vector(D)` by session, seq and chunk, with
 *   an HNSW index (`vector_cosine_ops`) when D is at most 2 000 (pgvector's limit for an HNSW
 *   index on `vector`); above it a search scores the session's vectors exactly.
 * A search asks for the nearest chunks of the session inside the bounds and keeps each row's best
 * chunk: scored exactly when the bounds hold few embedded rows, or not many and a small share of
 * the table (`scoredExactly`: a table shared by many sessions would make the index walk theirs,
 * ADR 0096), else with pgvector's iterative index scan so that the session and seq filters do not
 * starve the answer. The extension is installed
 * with `CREATE EXTENSION IF NOT EXISTS vector` on the first write; a server without it (or a user
 * who may not install it) gets `VectorIndexUnavailableError`, which the embedder reports and a
 * search turns into ranked word search saying why.
 * The index has its own small connection pool to the store's server and schema.
 */
import type pg from "pg";
import { createConnectionPool, type ConnectionPoolOptions } from "../postgres/connection-pool.js";
import { EmbeddingMismatchError, VectorIndexUnavailableError } from "./embedding-errors.js";
import { postgresFailureLog } from "./failure-log.js";
import { nearestAcrossIn, nearestEverywhereIn } from "./postgres-nearest-across.js";
import { HNSW_SETTINGS, chunksFor, distanceTo, efSearchOf, literalOf, scoredExactly } from "./pgvector-scoring.js";
import { bestRows, type NearestRow, type VectorIndex } from "./vector-index.js";

/** pgvector's largest dimension of an HNSW index on `vector`. */
const MAX_HNSW_DIMENSIONS = 2_000;
export type PostgresVectorIndexOptions = Omit<ConnectionPoolOptions, "maxConnections"> & { maxConnections?: number };

interface ModelRecord {
  model_key: number;
  dimensions: number;
}

/** The message of a server without pgvector (or a user who may not install it). */
function unavailableMessage(where: string, detail: string): string {
  return (
    `Embeddings on PostgreSQL need the pgvector extension, which is not available at ${where} (${detail}). ` +
    "Install pgvector on the server " +
    "(e.g. Debian's postgresql-<major>-pgvector, or build it from source), " +
    "then have a superuser or the database owner run `CREATE EXTENSION vector` in this database. " +
    "Appends are unaffected; hybrid and semantic searches answer with ranked word search until then."
  );
}

/** @example const index = createPostgresVectorIndex({ url, schema: "ctxwin", connectTimeoutMs: 10_000, statementTimeoutMs: 60_000, queryTimeoutMs: 65_000 }) */
export function createPostgresVectorIndex(options: PostgresVectorIndexOptions): VectorIndex {
  const pool = createConnectionPool({ ...options, maxConnections: options.maxConnections ?? 2 });
  const schema = `"${options.schema}"`;
  const models = `${schema}.ctxwin_embedding_models`;
  const progressTable = `${schema}.ctxwin_embedding_progress`;
  const tableOf = (modelKey: number) => `${schema}.ctxwin_embeddings_${modelKey}`;
  /** The schema pgvector is installed in, once known. */
  let vectorSchema: string | undefined;

  /**
   * What a search would otherwise ask on every call, once known: that the tables exist, and each
   * model's key and dimension (a model's row never changes once written). Dropped on any failed
   * call, so that tables dropped by hand are looked up again.
   */
  let tablesKnown = false;
  const knownModels = new Map<string, ModelRecord>();
  const forget = () => {
    tablesKnown = false;
    knownModels.clear();
  };

  const tablesExist = async (client: pg.PoolClient) => {
    if (tablesKnown) return true;
    const found =
      (
        await client.query<{ found: string | null }>("SELECT to_regclass($1) AS found", [
          `${options.schema}.ctxwin_embedding_models`,
        ])
      ).rows[0]?.found != null;
    tablesKnown = found;
    return found;
  };

  async function locateVector(client: pg.PoolClient): Promise<string | undefined> {
    if (vectorSchema !== undefined) return vectorSchema;
    const located = await client.query<{ schema: string }>(
      "SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'",
    );
    vectorSchema = located.rows[0]?.schema;
    return vectorSchema;
  }

  /** Installs pgvector when it is missing and allowed; its schema, or `VectorIndexUnavailableError`. */
  async function ensureVector(client: pg.PoolClient): Promise<string> {
    const known = await locateVector(client);
    if (known !== undefined) return known;
    const available = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
    if (available.rowCount === 0)
      throw new VectorIndexUnavailableError(
        unavailableMessage(pool.where, "the server has no extension named 'vector'"),
      );
    await client.query("SAVEPOINT ctxwin_vector");
    try {
      await client.query("CREATE EXTENSION IF NOT EXISTS vector");
      await client.query("RELEASE SAVEPOINT ctxwin_vector");
    } catch (error) {
      await client.query("ROLLBACK TO SAVEPOINT ctxwin_vector");
      throw new VectorIndexUnavailableError(
        unavailableMessage(pool.where, `CREATE EXTENSION vector failed: ${(error as Error).message}`),
        { cause: error },
      );
    }
    const installed = await locateVector(client);
    if (installed === undefined)
      throw new VectorIndexUnavailableError(
        unavailableMessage(pool.where, "CREATE EXTENSION vector did not install it"),
      );
    return installed;
  }

  /** pgvector's schema for a search, or `VectorIndexUnavailableError` saying why it is missing. */
  async function installedVector(client: pg.PoolClient): Promise<string> {
    const installed = await locateVector(client);
    if (installed !== undefined) return installed;
    const available = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
    const detail =
      available.rowCount === 0
        ? "the server has no extension named 'vector'"
        : "the extension is not installed in this database";
    throw new VectorIndexUnavailableError(unavailableMessage(pool.where, detail));
  }

  /**
   * What a search of `model`'s vectors needs: pgvector's schema and the model's record (`undefined`:
   * no vectors yet); `EmbeddingMismatchError` for a query vector of another dimension.
   */
  async function searchedModel(
    client: pg.PoolClient,
    model: string,
    vector: Float32Array,
  ): Promise<{ installed: string; record: ModelRecord } | undefined> {
    const installed = await installedVector(client);
    const record = await modelRecord(client, model);
    if (record === undefined) return undefined;
    if (record.dimensions !== vector.length) throw new EmbeddingMismatchError(model, record.dimensions, vector.length);
    return { installed, record };
  }

  async function modelRecord(client: pg.PoolClient, model: string): Promise<ModelRecord | undefined> {
    const known = knownModels.get(model);
    if (known !== undefined) return known;
    if (!(await tablesExist(client))) return undefined;
    const record = (
      await client.query<ModelRecord>(`SELECT model_key, dimensions FROM ${models} WHERE model_id = $1`, [model])
    ).rows[0];
    if (record !== undefined) knownModels.set(model, record);
    return record;
  }

  /** A transaction that forgets the cached records when it fails. */
  const transaction = async <T>(
    work: (client: pg.PoolClient) => Promise<T>,
    transactionOptions: { writing?: boolean; snapshot?: boolean } = {},
  ): Promise<T> => {
    try {
      return await pool.transaction(work, transactionOptions);
    } catch (error) {
      forget();
      throw error;
    }
  };
  const read = <T>(work: (client: pg.PoolClient) => Promise<T>) => transaction(work, { snapshot: true });

  async function deleteSessionRows(client: pg.PoolClient, sessionId: string): Promise<void> {
    for (const { model_key: modelKey } of (await client.query<{ model_key: number }>(`SELECT model_key FROM ${models}`))
      .rows) {
      await client.query(`DELETE FROM ${tableOf(modelKey)} WHERE session_id = $1`, [sessionId]);
    }
    await client.query(`DELETE FROM ${progressTable} WHERE session_id = $1`, [sessionId]);
  }

  return {
    kind: "pgvector",
    dimensionsOf: async (model) =>
      knownModels.get(model)?.dimensions ??
      (await read(async (client) => (await modelRecord(client, model))?.dimensions)),
    progress: (sessionId, model) =>
      read(async (client) => {
        const record = await modelRecord(client, model);
        if (record === undefined) return undefined;
        const found = await client.query<{ incarnation: string; through_seq: number }>(
          `SELECT incarnation, through_seq FROM ${progressTable} WHERE model_key = $1 AND session_id = $2`,
          [record.model_key, sessionId],
        );
        const row = found.rows[0];
        return row === undefined ? undefined : { incarnation: row.incarnation, throughSeq: row.through_seq };
      }),
    progressOfAll: (model) =>
      read(async (client) => {
        const record = await modelRecord(client, model);
        if (record === undefined) return new Map();
        const found = await client.query<{ session_id: string; incarnation: string; through_seq: string }>(
          `SELECT session_id, incarnation, through_seq FROM ${progressTable} WHERE model_key = $1`,
          [record.model_key],
        );
        return new Map(
          found.rows.map((row) => [
            row.session_id,
            { incarnation: row.incarnation, throughSeq: Number(row.through_seq) },
          ]),
        );
      }),
    write: (entry) =>
      transaction(
        async (client) => {
          // One writer at a time installs the extension and creates the tables (a transaction-scoped lock).
          await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`ctxwin-embeddings:${options.schema}`]);
          const vectorType = `"${await ensureVector(client)}".vector`;
          await client.query(`CREATE TABLE IF NOT EXISTS ${models} (
            model_key integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, model_id text NOT NULL UNIQUE, dimensions integer NOT NULL)`);
          await client.query(`CREATE TABLE IF NOT EXISTS ${progressTable} (
            model_key integer NOT NULL, session_id text NOT NULL, incarnation text NOT NULL, through_seq bigint NOT NULL,
            PRIMARY KEY (model_key, session_id))`);
          let record = await modelRecord(client, entry.model);
          if (record === undefined) {
            const inserted = await client.query<{ model_key: number }>(
              `INSERT INTO ${models} (model_id, dimensions) VALUES ($1, $2) RETURNING model_key`,
              [entry.model, entry.dimensions],
            );
            record = { model_key: (inserted.rows[0] as { model_key: number }).model_key, dimensions: entry.dimensions };
            const table = tableOf(record.model_key);
            await client.query(`CREATE TABLE ${table} (
              session_id text NOT NULL, seq bigint NOT NULL, chunk integer NOT NULL, embedding ${vectorType}(${record.dimensions}) NOT NULL,
              PRIMARY KEY (session_id, seq, chunk))`);
            if (record.dimensions <= MAX_HNSW_DIMENSIONS) {
              await client.query(
                `CREATE INDEX ctxwin_embeddings_${record.model_key}_hnsw ON ${table} USING hnsw (embedding "${vectorSchema}".vector_cosine_ops)`,
              );
            }
          }
          if (record.dimensions !== entry.dimensions)
            throw new EmbeddingMismatchError(entry.model, record.dimensions, entry.dimensions);
          // A session deleted and recreated elsewhere: its old vectors (of every model) go first.
          const stale = await client.query(
            `SELECT 1 FROM ${progressTable} WHERE session_id = $1 AND incarnation <> $2 LIMIT 1`,
            [entry.sessionId, entry.incarnation],
          );
          if ((stale.rowCount ?? 0) > 0) await deleteSessionRows(client, entry.sessionId);
          if (entry.vectors.length > 0) {
            await client.query(
              `INSERT INTO ${tableOf(record.model_key)} (session_id, seq, chunk, embedding)
               SELECT $1, seq, chunk, embedding::${vectorType} FROM unnest($2::bigint[], $3::integer[], $4::text[]) AS v(seq, chunk, embedding)
               ON CONFLICT DO NOTHING`,
              [
                entry.sessionId,
                entry.vectors.map((vector) => vector.seq),
                entry.vectors.map((vector) => vector.chunk),
                entry.vectors.map((vector) => literalOf(vector.vector)),
              ],
            );
          }
          await client.query(
            `INSERT INTO ${progressTable} (model_key, session_id, incarnation, through_seq) VALUES ($1, $2, $3, $4)
             ON CONFLICT (model_key, session_id) DO UPDATE SET incarnation = excluded.incarnation,
               through_seq = greatest(${progressTable}.through_seq, excluded.through_seq)`,
            [record.model_key, entry.sessionId, entry.incarnation, entry.throughSeq],
          );
        },
        { writing: true },
      ),
    nearest: ({ sessionId, model, vector, lowSeq, highSeq, limit }) =>
      transaction(async (client) => {
        const searched = await searchedModel(client, model, vector);
        if (searched === undefined) return [];
        const { installed, record } = searched;
        const chunks = chunksFor(limit);
        const table = tableOf(record.model_key);
        // One statement: the HNSW settings of this transaction, how far the session is embedded, and
        // the table's estimated chunks. With the iterative scan, the index keeps walking until enough
        // chunks pass the session and seq filters.
        const settings = await client.query<{ through_seq: string | null; table_chunks: number | null }>(
          `SELECT ${HNSW_SETTINGS},
             (SELECT through_seq FROM ${progressTable} WHERE model_key = $2 AND session_id = $3) AS through_seq,
             (SELECT reltuples FROM pg_class WHERE oid = $4::regclass) AS table_chunks`,
          [efSearchOf(chunks), record.model_key, sessionId, table],
        );
        const { through_seq: throughSeq, table_chunks: tableChunks } = settings.rows[0] ?? {};
        // Vectors exist only up to the session's progress mark: at most this many rows are inside the bounds.
        const rowsInRange = Math.max(0, Math.min(highSeq - 1, Number(throughSeq ?? 0)) - lowSeq);
        const distance = distanceTo(installed);
        // A few rows are scored exactly through the primary key: ordering by the similarity, not by the
        // distance operator, keeps the planner off the HNSW index, which in a table of many sessions walks
        // other sessions' chunks first (ADR 0096).
        const order = scoredExactly(rowsInRange, Number(tableChunks ?? -1)) ? "similarity DESC" : distance;
        const found = await client.query<NearestRow>(
          `SELECT seq, 1 - (${distance}) AS similarity FROM ${table}
           WHERE session_id = $2 AND seq > $3 AND seq < $4 ORDER BY ${order} LIMIT $5`,
          [literalOf(vector), sessionId, lowSeq, Math.min(highSeq, Number.MAX_SAFE_INTEGER), chunks],
        );
        return bestRows(found.rows, limit);
      }),
    nearestAcross: ({ model, vector, segments, limit }) =>
      transaction(async (client) => {
        const searched = await searchedModel(client, model, vector);
        if (searched === undefined) return [];
        const { installed, record } = searched;
        return nearestAcrossIn(client, {
          table: tableOf(record.model_key),
          progressTable,
          modelKey: record.model_key,
          installed,
          vector,
          segments,
          limit,
        });
      }),
    nearestEverywhere: ({ model, vector, limit }) =>
      transaction(async (client) => {
        const searched = await searchedModel(client, model, vector);
        if (searched === undefined) return [];
        const { installed, record } = searched;
        return nearestEverywhereIn(client, { table: tableOf(record.model_key), installed, vector, limit });
      }),
    models: () =>
      read(async (client) => {
        if (!(await tablesExist(client))) return [];
        const rows = (
          await client.query<{ model_id: string; dimensions: number }>(
            `SELECT model_id, dimensions FROM ${models} ORDER BY model_key`,
          )
        ).rows;
        return rows.map((row) => ({ model: row.model_id, dimensions: row.dimensions }));
      }),
    count: (model) =>
      read(async (client) => {
        const record = await modelRecord(client, model);
        if (record === undefined) return { rows: 0, vectors: 0 };
        const found = await client.query<{ rows: number; vectors: number }>(
          `SELECT count(DISTINCT (session_id, seq))::bigint AS rows, count(*)::bigint AS vectors FROM ${tableOf(record.model_key)}`,
        );
        return found.rows[0] ?? { rows: 0, vectors: 0 };
      }),
    deleteSession: (sessionId) =>
      transaction(
        async (client) => {
          if (await tablesExist(client)) await deleteSessionRows(client, sessionId);
        },
        { writing: true },
      ),
    ...postgresFailureLog(pool, options.schema),
    close: () => pool.end(),
  };
}
