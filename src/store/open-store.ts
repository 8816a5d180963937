/**
 * The store factory: SQLite by default (one file per project directory), or the memory backend.
 */
import path from "node:path";
import { createMemoryStore, type MemoryStoreOptions } from "./memory/memory-store.js";
import type { HistoryStore } from "./port.js";
import { createSqliteStore, type SqliteStoreOptions } from "./sqlite/sqlite-store.js";
import { StoreOptionsError } from "./errors.js";
import type { PostgresStoreOptions } from "./postgres/postgres-store.js";
import { isValidSchemaName, schemaFromUrl } from "./postgres/schema.js";
import { assertKnownStoreOptions, chooseBackend } from "./store-option-keys.js";
import { checkEmbeddingsOptions, type EmbeddingsOptions } from "./embeddings/embeddings-options.js";
import { embeddingModelId } from "./embeddings/embed-texts.js";
import { withoutEmbeddings } from "./embeddings/without-embeddings.js";
import { lazyStore } from "./lazy-store.js";
import { DATABASE_URL_VARIABLE, DEFAULT_STORE_PATH } from "./store-location.js";

/** The PostgreSQL store and the embeddings layer load on a store's first call (ADR 0078). */
const loadLayers = () => import("./open-layers.js");

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
        "openStore: schema must be a lower-case PostgreSQL name " +
          "(letters, digits, '_', at most 63, not starting with 'pg_'); " +
          `got ${JSON.stringify(postgresOptions.schema)}. Nothing was opened.`,
      );
    }
    const embeddingModel = embeddings === undefined ? undefined : embeddingModelId(embeddings.model);
    return lazyStore({
      backend: "postgres",
      load: async () => (await loadLayers()).openPostgres(postgresOptions, embeddings),
      diagnostics: () => ({ corruptRowsSkipped: 0 }),
      ...(embeddingModel === undefined ? {} : { embeddingModel }),
    });
  }
  if (options.backend === "memory") {
    const { backend: _backend, embeddings: _embeddings, ...memoryOptions } = options;
    const store = createMemoryStore(memoryOptions);
    if (embeddings === undefined) return withoutEmbeddings(store);
    return lazyStore({
      backend: "memory",
      load: async () => (await loadLayers()).withMemoryEmbeddings(store, embeddings),
      diagnostics: () => store.diagnostics(),
      embeddingModel: embeddingModelId(embeddings.model),
      closeOnFailure: () => store.close(),
    });
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
  const target = {
    path: resolved,
    readOnly: sqliteOptions.readOnly === true,
    busyTimeoutMs: sqliteOptions.busyTimeoutMs,
  };
  return lazyStore({
    backend: "sqlite",
    // The vector index opens the same file; when it cannot, every call says why and close releases the store.
    load: async () => (await loadLayers()).withSqliteEmbeddings(store, target, embeddings),
    diagnostics: () => store.diagnostics(),
    embeddingModel: embeddingModelId(embeddings.model),
    closeOnFailure: () => store.close(),
  });
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
