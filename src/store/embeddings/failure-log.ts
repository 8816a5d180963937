/**
 * The last embedding failure per model, kept beside the vectors (ADR 0063, "Amended: the last
 * failure is stored") so that another process — `ctxwin doctor` — can say why rows stay pending.
 * One row per model id in `ctxwin_embedding_failures`, created on the first failure like the other
 * embedding tables (no store format change): the message, when, and how many provider calls
 * failed in a row. The embedder deletes it once a batch is embedded again.
 */
import type Database from "better-sqlite3";
import type pg from "pg";
import type { EmbeddingFailure } from "../port.js";
import type { ConnectionPool } from "../postgres/connection-pool.js";
import type { SyncVectorIndex, VectorIndex } from "./vector-index.js";

/** Longest message kept: a provider's error body can be long; the start says what went wrong. */
export const MAX_FAILURE_MESSAGE_CHARS = 1_000;

type FailureMethods = "recordFailure" | "clearFailure" | "lastFailure";
export type FailureLog = Required<Pick<VectorIndex, FailureMethods>>;
/** The embedded backends' log answers synchronously, as their indexes do. */
export type SyncFailureLog = Required<Pick<SyncVectorIndex, FailureMethods>>;

const cut = (message: string) =>
  message.length > MAX_FAILURE_MESSAGE_CHARS ? `${message.slice(0, MAX_FAILURE_MESSAGE_CHARS - 1)}…` : message;

interface FailureRow {
  message: string;
  failed_at: string;
  consecutive: number;
}
const asFailure = (row: FailureRow): EmbeddingFailure => ({
  message: row.message,
  at: row.failed_at,
  consecutive: Number(row.consecutive),
});

const SQLITE_SCHEMA = `CREATE TABLE IF NOT EXISTS ctxwin_embedding_failures (
  model_id TEXT PRIMARY KEY, message TEXT NOT NULL, failed_at TEXT NOT NULL, consecutive INTEGER NOT NULL) WITHOUT ROWID`;

/**
 * Reads the last failure of every model from a SQLite file opened by someone else (doctor): none when the table does not exist.
 *
 * @example readSqliteFailures(new Database(file, { readonly: true })) // Map { "openai:text-embedding-3-small" => { message, at, consecutive } }
 */
export function readSqliteFailures(db: Database.Database): Map<string, EmbeddingFailure> {
  if (db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'ctxwin_embedding_failures'").get() === undefined)
    return new Map();
  const rows = db
    .prepare("SELECT model_id, message, failed_at, consecutive FROM ctxwin_embedding_failures ORDER BY model_id")
    .all() as (FailureRow & { model_id: string })[];
  return new Map(rows.map((row) => [row.model_id, asFailure(row)]));
}

/**
 * Reads the last failure of every model from a PostgreSQL schema (doctor): none when the table does not exist.
 *
 * @example await readPostgresFailures(client, "ctxwin") // Map { "openai:text-embedding-3-small" => { message, at, consecutive } }
 */
export async function readPostgresFailures(
  client: pg.PoolClient,
  schema: string,
): Promise<Map<string, EmbeddingFailure>> {
  const found = await client.query<{ found: string | null }>("SELECT to_regclass($1) AS found", [
    `"${schema}".ctxwin_embedding_failures`,
  ]);
  if (found.rows[0]?.found == null) return new Map();
  const rows = await client.query<FailureRow & { model_id: string }>(
    `SELECT model_id, message, failed_at, consecutive FROM "${schema}".ctxwin_embedding_failures ORDER BY model_id`,
  );
  return new Map(rows.rows.map((row) => [row.model_id, asFailure(row)]));
}

/** @example const log = sqliteFailureLog(db); log.recordFailure("test:m", { message: "401", at: new Date() }) */
export function sqliteFailureLog(db: Database.Database): SyncFailureLog {
  const exists = () =>
    db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'ctxwin_embedding_failures'").get() !== undefined;
  const record = db.transaction((model: string, message: string, at: string) => {
    db.exec(SQLITE_SCHEMA);
    return db
      .prepare(
        `INSERT INTO ctxwin_embedding_failures (model_id, message, failed_at, consecutive) VALUES (?, ?, ?, 1)
         ON CONFLICT (model_id) DO UPDATE SET message = excluded.message, failed_at = excluded.failed_at, consecutive = consecutive + 1
         RETURNING message, failed_at, consecutive`,
      )
      .get(model, message, at) as FailureRow;
  });
  return {
    recordFailure: (model, { message, at }) => asFailure(record.immediate(model, cut(message), at.toISOString())),
    clearFailure(model) {
      if (exists()) db.prepare("DELETE FROM ctxwin_embedding_failures WHERE model_id = ?").run(model);
    },
    lastFailure: (model) => readSqliteFailures(db).get(model),
  };
}

/** @example const log = postgresFailureLog(pool, "ctxwin") */
export function postgresFailureLog(pool: ConnectionPool, schema: string): FailureLog {
  const table = `"${schema}".ctxwin_embedding_failures`;
  const exists = async (client: pg.PoolClient) =>
    (
      await client.query<{ found: string | null }>("SELECT to_regclass($1) AS found", [
        `"${schema}".ctxwin_embedding_failures`,
      ])
    ).rows[0]?.found != null;
  return {
    recordFailure: (model, { message, at }) =>
      pool.transaction(
        async (client) => {
          // The same lock as the vector tables' creation: two processes never race on CREATE TABLE.
          await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`ctxwin-embeddings:${schema}`]);
          await client.query(`CREATE TABLE IF NOT EXISTS ${table} (
            model_id text PRIMARY KEY, message text NOT NULL, failed_at text NOT NULL, consecutive integer NOT NULL)`);
          const stored = await client.query<FailureRow>(
            `INSERT INTO ${table} (model_id, message, failed_at, consecutive) VALUES ($1, $2, $3, 1)
             ON CONFLICT (model_id) DO UPDATE SET message = excluded.message, failed_at = excluded.failed_at, consecutive = ${table}.consecutive + 1
             RETURNING message, failed_at, consecutive`,
            [model, cut(message), at.toISOString()],
          );
          return asFailure(stored.rows[0] as FailureRow);
        },
        { writing: true },
      ),
    clearFailure: (model) =>
      pool.transaction(
        async (client) => {
          if (await exists(client)) await client.query(`DELETE FROM ${table} WHERE model_id = $1`, [model]);
        },
        { writing: true },
      ),
    lastFailure: (model) =>
      pool.transaction(
        async (client) => {
          if (!(await exists(client))) return undefined;
          const found = await client.query<FailureRow>(
            `SELECT message, failed_at, consecutive FROM ${table} WHERE model_id = $1`,
            [model],
          );
          const row = found.rows[0];
          return row === undefined ? undefined : asFailure(row);
        },
        { snapshot: true },
      ),
  };
}

/** @example const log = memoryFailureLog() */
export function memoryFailureLog(): SyncFailureLog {
  const failures = new Map<string, EmbeddingFailure>();
  return {
    recordFailure(model, { message, at }) {
      const failure = {
        message: cut(message),
        at: at.toISOString(),
        consecutive: (failures.get(model)?.consecutive ?? 0) + 1,
      };
      failures.set(model, failure);
      return failure;
    },
    clearFailure: (model) => void failures.delete(model),
    lastFailure: (model) => failures.get(model),
  };
}
