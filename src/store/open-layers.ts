/**
 * The parts of `openStore` that only some processes need, loaded on a store's first call
 * (lazy-store.ts, ADR 0078): the PostgreSQL store and the embeddings layer with its vector indexes.
 */
import type { HistoryStore } from "./port.js";
import type { EmbeddingsOptions } from "./embeddings/embeddings-options.js";
import { createPostgresStore, type PostgresStoreOptions } from "./postgres/postgres-store.js";
import { DEFAULT_POSTGRES_SCHEMA } from "./postgres/schema.js";
import { describeServer } from "./postgres/server-errors.js";
import { createMemoryVectorIndex } from "./embeddings/memory-vector-index.js";
import { createSqliteVectorIndex } from "./embeddings/sqlite-vector-index.js";
import { createPostgresVectorIndex } from "./embeddings/postgres-vector-index.js";
import { withEmbeddings } from "./embeddings/with-embeddings.js";
import { withoutEmbeddings } from "./embeddings/without-embeddings.js";

/** The PostgreSQL store of checked options, with its pgvector index when `embeddings` is given. */
export function openPostgres(options: PostgresStoreOptions & { url: string }, embeddings?: EmbeddingsOptions) {
  const store = createPostgresStore(options);
  if (embeddings === undefined) return withoutEmbeddings(store);
  const statementTimeoutMs = options.statementTimeoutMs ?? 60_000;
  const index = createPostgresVectorIndex({
    url: options.url,
    schema: options.schema ?? DEFAULT_POSTGRES_SCHEMA,
    ssl: options.ssl,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    statementTimeoutMs,
    queryTimeoutMs: options.queryTimeoutMs ?? (statementTimeoutMs > 0 ? statementTimeoutMs + 5_000 : 0),
    readOnly: options.readOnly === true,
  });
  return withEmbeddings(store, {
    ...embeddings,
    index,
    readOnly: options.readOnly === true,
    location: describeServer(options.url),
  });
}

export interface SqliteEmbeddingsTarget {
  path: string;
  readOnly: boolean;
  busyTimeoutMs: number | undefined;
}

/** `store` (a SQLite store on `target.path`) with the embeddings layer over its vector tables. */
export function withSqliteEmbeddings(
  store: HistoryStore,
  target: SqliteEmbeddingsTarget,
  embeddings: EmbeddingsOptions,
): HistoryStore {
  const index = createSqliteVectorIndex({
    path: target.path,
    readOnly: target.readOnly,
    ...(target.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: target.busyTimeoutMs }),
    useExtension: embeddings.sqliteVec !== false,
  });
  return withEmbeddings(store, { ...embeddings, index, readOnly: target.readOnly, location: target.path });
}

/** `store` (a memory store) with the embeddings layer over an in-memory vector index. */
export function withMemoryEmbeddings(store: HistoryStore, embeddings: EmbeddingsOptions): HistoryStore {
  return withEmbeddings(store, { ...embeddings, index: createMemoryVectorIndex() });
}
