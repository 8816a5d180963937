/**
 * The store factory: SQLite by default (one file per project directory), or the memory backend.
 */
import path from "node:path";
import { createMemoryStore, type MemoryStoreOptions } from "./memory/memory-store.js";
import type { HistoryStore } from "./port.js";
import { createSqliteStore, type SqliteStoreOptions } from "./sqlite/sqlite-store.js";
import { StoreOptionsError } from "./errors.js";
import { connectionOptionsOf, createPostgresStore, type PostgresStoreOptions } from "./postgres/postgres-store.js";
import { isValidSchemaName, schemaFromUrl } from "./postgres/schema.js";
import { describeServer } from "./postgres/server-errors.js";
import { assertKnownStoreOptions, chooseBackend } from "./store-option-keys.js";
import { checkEmbeddingsOptions, type EmbeddingsOptions } from "./embeddings/embeddings-options.js";
import { createMemoryVectorIndex } from "./embeddings/memory-vector-index.js";
import { createSqliteVectorIndex } from "./embeddings/sqlite-vector-index.js";
import { createPostgresVectorIndex } from "./embeddings/postgres-vector-index.js";
import { withEmbeddings, withoutEmbeddings } from "./embeddings/with-embeddings.js";
import { DATABASE_URL_VARIABLE, DEFAULT_STORE_PATH } from "./store-location.js";

export { DATABASE_URL_VARIABLE, DEFAULT_STORE_PATH };

export interface SqliteOpenOptions extends Omit<SqliteStoreOptions, "path" | "fullCheckMaxBytes"> {
  backend?: "sqlite";
  /**
   * An AI SDK embedding model for hybrid and semantic search (ADR 0063): rows are embedded in the
   * background after they commit; without it nothing is sent anywhere.
   */
  embeddings?: EmbeddingsOptions;
  /** Database file; default `<directory>/.ctxwin/ctxwin.db`. */
  path?: string;
  /** Project directory used when `path` is not given; default the current directory. */
  directory?: string;
}

export interface MemoryOpenOptions extends MemoryStoreOptions {
  backend: "memory";
  /** An AI SDK embedding model for hybrid and semantic search (ADR 0063). */
  embeddings?: EmbeddingsOptions;
}

export interface PostgresOpenOptions extends PostgresStoreOptions {
  backend?: "postgres";
  /**
   * An AI SDK embedding model for hybrid and semantic search (ADR 0063): vectors live in the
   * store's schema with the pgvector extension, which the server must have.
   */
  embeddings?: EmbeddingsOptions;
  /** `postgres://user:password@host:5432/database` (a libpq connection URL). */
  url: string;
}

export type OpenStoreOptions = SqliteOpenOptions | MemoryOpenOptions | PostgresOpenOptions;

/**
 * Opens a history store. Options the chosen backend does not know are refused with a
 * `StoreOptionsError` (nothing is opened or created). Without `backend`, `url` or `path`,
 * `CTXWIN_DATABASE_URL` (when set) selects a PostgreSQL server instead of the project's SQLite file.
 * The PostgreSQL store connects, and creates or checks its schema, on its first call.
 *
 * @example
 * const store = openStore({ path: ".ctxwin/ctxwin.db" }); // SQLite, the embedded default
 * const scratch = openStore({ backend: "memory" });       // tests and ephemeral sessions
 * const reader = openStore({ directory: "/srv/project", readOnly: true }); // never writes
 * const shared = openStore({ url: "postgres://agent@db.internal/ctxwin" }); // a fleet of workers
 */
export function openStore(given: OpenStoreOptions = {}): HistoryStore {
  const options = withDatabaseUrlFromEnvironment(given);
  const backend = chooseBackend(options as Record<string, unknown>);
  assertKnownStoreOptions(backend, options as Record<string, unknown>);
  const embeddingsGiven = (options as Record<string, unknown>)["embeddings"];
  const embeddings = embeddingsGiven === undefined ? undefined : checkEmbeddingsOptions(embeddingsGiven);
  if (backend === "postgres") {
    const { backend: _backend, embeddings: _embeddings, ...given } = options as PostgresOpenOptions;
    const postgresOptions =
      typeof given.url === "string" ? { ...given, ...schemaFromUrl(given.url, given.schema) } : given;
    if (typeof postgresOptions.url !== "string" || !/^postgres(ql)?:\/\//.test(postgresOptions.url)) {
      throw new StoreOptionsError(
        "openStore: the postgres backend needs url: 'postgres://user@host:5432/database'. Nothing was opened.",
      );
    }
    if (postgresOptions.schema !== undefined && !isValidSchemaName(postgresOptions.schema)) {
      throw new StoreOptionsError(
        `openStore: schema must be a lower-case PostgreSQL name (letters, digits, '_', at most 63, not starting with 'pg_'); got ${JSON.stringify(postgresOptions.schema)}. Nothing was opened.`,
      );
    }
    const store = createPostgresStore(postgresOptions);
    if (embeddings === undefined) return withoutEmbeddings(store);
    // The index keeps its own small pool: every connection option but the store's pool size.
    const { maxConnections: _maxConnections, ...connection } = connectionOptionsOf(postgresOptions);
    return withEmbeddings(store, {
      ...embeddings,
      index: createPostgresVectorIndex(connection),
      readOnly: connection.readOnly,
      location: describeServer(connection.url),
    });
  }
  if (options.backend === "memory") {
    const { backend: _backend, embeddings: _embeddings, ...memoryOptions } = options;
    const store = createMemoryStore(memoryOptions);
    return embeddings === undefined
      ? withoutEmbeddings(store)
      : withEmbeddings(store, { ...embeddings, index: createMemoryVectorIndex() });
  }
  const {
    backend: _backend,
    embeddings: _embeddings,
    path: file,
    directory = process.cwd(),
    ...sqliteOptions
  } = options as SqliteOpenOptions;
  const resolved = path.resolve(file ?? path.join(directory, DEFAULT_STORE_PATH));
  const store = createSqliteStore({ ...sqliteOptions, path: resolved });
  if (embeddings === undefined) return withoutEmbeddings(store);
  const readOnly = sqliteOptions.readOnly === true;
  let index;
  try {
    index = createSqliteVectorIndex({
      path: resolved,
      readOnly,
      ...(sqliteOptions.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: sqliteOptions.busyTimeoutMs }),
      useExtension: embeddings.sqliteVec !== false,
    });
  } catch (error) {
    // The SQLite store closes synchronously inside its async wrapper: nothing is left running.
    void store.close();
    throw error;
  }
  return withEmbeddings(store, { ...embeddings, index, readOnly, location: resolved });
}

/**
 * `options` with `url` from `CTXWIN_DATABASE_URL` when they name no store themselves (no
 * `backend`, `url` or `path`); the project `directory` and the SQLite-only options then do not apply.
 */
function withDatabaseUrlFromEnvironment(options: OpenStoreOptions): OpenStoreOptions {
  const url = process.env[DATABASE_URL_VARIABLE];
  if (url === undefined || url === "" || options === null || typeof options !== "object") return options;
  const record = options as Record<string, unknown>;
  if (record["backend"] !== undefined || record["url"] !== undefined || record["path"] !== undefined) return options;
  // SQLite-only knobs do not apply to a server; readOnly does (nothing is created or written).
  const { directory: _directory, durability: _durability, busyTimeoutMs: _busy, ...rest } = record;
  return { ...rest, url } as PostgresOpenOptions;
}
