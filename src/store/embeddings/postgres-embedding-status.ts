/**
 * What a PostgreSQL store's schema holds of embeddings (ADR 0063), for `ctxwin doctor --store
 * postgres://…`: whether the server and the database have pgvector, the models with vectors (id,
 * dimension, HNSW or exact search), per model the rows embedded and the rows still pending, and
 * each model's last stored failure. Read-only (every transaction is READ ONLY), no model needed.
 */
import type pg from "pg";
import { openStore } from "../open-store.js";
import { createConnectionPool } from "../postgres/connection-pool.js";
import {
  modelStatuses,
  sessionsOf,
  type EmbeddingStatus,
  type ModelRecord,
  type ProgressRecord,
} from "./embedding-status.js";
import { readPostgresFailures } from "./failure-log.js";

export interface PostgresStatusOptions {
  url: string;
  schema: string;
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
}

interface ModelRow {
  model_key: number;
  model_id: string;
  dimensions: number;
}

/**
 * @example
 * const status = await postgresEmbeddingStatus({ url: "postgres://agent@db/agents", schema: "ctxwin" });
 * // { vectors: false, index: "pgvector-not-created", models: [] }
 */
export async function postgresEmbeddingStatus({
  url,
  schema,
  connectTimeoutMs = 10_000,
  statementTimeoutMs = 60_000,
}: PostgresStatusOptions): Promise<EmbeddingStatus> {
  const pool = createConnectionPool({
    url,
    schema,
    readOnly: true,
    maxConnections: 1,
    connectTimeoutMs,
    statementTimeoutMs,
    queryTimeoutMs: statementTimeoutMs + 5_000,
  });
  let read: Awaited<ReturnType<typeof readSchema>>;
  try {
    read = await pool.transaction((client) => readSchema(client, schema), { snapshot: true });
  } finally {
    await pool.end();
  }
  const { extension, models: records, progress, failures } = read;
  const index: EmbeddingStatus["index"] =
    extension.installed !== undefined ? "pgvector" : extension.available ? "pgvector-not-created" : "pgvector-missing";
  const base = { index, ...(extension.installed === undefined ? {} : { extensionVersion: extension.installed }) };
  if (records.length === 0 && failures.size === 0) return { vectors: false, ...base, models: [] };
  const sessions = await sessionsOf(openStore({ url, schema, readOnly: true, connectTimeoutMs, statementTimeoutMs }));
  return {
    vectors: records.some((record) => record.vectors > 0),
    ...base,
    models: modelStatuses({ sessions, records, progress, failures }),
  };
}

/** Everything the status needs from the schema, in one snapshot. */
async function readSchema(client: pg.PoolClient, schema: string) {
  const installed = await client.query<{ version: string }>(
    "SELECT extversion AS version FROM pg_extension WHERE extname = 'vector'",
  );
  const available = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  const extension = { installed: installed.rows[0]?.version, available: (available.rowCount ?? 0) > 0 };
  const failures = await readPostgresFailures(client, schema);
  const tables = await client.query<{ found: string | null }>("SELECT to_regclass($1) AS found", [
    `"${schema}".ctxwin_embedding_models`,
  ]);
  if (tables.rows[0]?.found == null) return { extension, models: [], progress: [], failures };
  const modelRows = await client.query<ModelRow>(
    `SELECT model_key, model_id, dimensions FROM "${schema}".ctxwin_embedding_models ORDER BY model_key`,
  );
  const models: ModelRecord[] = [];
  for (const row of modelRows.rows) {
    const table = `ctxwin_embeddings_${row.model_key}`;
    const counted = await client.query<{ rows: number; vectors: number }>(
      `SELECT count(DISTINCT (session_id, seq))::int AS rows, count(*)::int AS vectors FROM "${schema}".${table}`,
    );
    const hnsw = await client.query(
      "SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexdef ILIKE '%USING hnsw%'",
      [schema, table],
    );
    models.push({
      ...row,
      rows: counted.rows[0]?.rows ?? 0,
      vectors: counted.rows[0]?.vectors ?? 0,
      search: (hnsw.rowCount ?? 0) > 0 ? "hnsw" : "exact",
    });
  }
  const progress = await client.query<ProgressRecord>(
    `SELECT model_key, session_id, incarnation, through_seq FROM "${schema}".ctxwin_embedding_progress`,
  );
  return {
    extension,
    models,
    progress: progress.rows.map((entry) => ({ ...entry, through_seq: Number(entry.through_seq) })),
    failures,
  };
}
