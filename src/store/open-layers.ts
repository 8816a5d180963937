/**
 * The parts of `openStore` that only some processes need, loaded on a store's first call
 * (lazy-store.ts, ADR 0078): the PostgreSQL store and the embeddings layer with its vector indexes.
 */
import type { HistoryStore } from "./port.js";
import type { EmbeddingsOptions } from "./embeddings/embeddings-options.js";
import { connectionOptionsOf, createPostgresStore, type PostgresStoreOptions } from "./postgres/postgres-store.js";
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
  // The index keeps its own small pool: every connection option but the store's pool size.
  const { maxConnections: _maxConnections, ...connection } = connectionOptionsOf(options);
  return withEmbeddings(store, {
    ...embeddings,
    index: createPostgresVectorIndex(connection),
    readOnly: connection.readOnly,
    location: describeServer(connection.url),
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
