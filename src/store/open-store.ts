/**
 * The store factory: SQLite by default (one file per project directory), or the memory backend.
 */
import path from "node:path";
import { createMemoryStore, type MemoryStoreOptions } from "./memory/memory-store.js";
import type { HistoryStore, StoreWarning } from "./port.js";
import { createSqliteStore } from "./sqlite/sqlite-store.js";
import type { Durability } from "./sqlite/open-database.js";
import { StoreOptionsError } from "./errors.js";
import { assertKnownStoreOptions, chooseBackend } from "./store-option-keys.js";

/** Default location of the database inside a project directory. */
export const DEFAULT_STORE_PATH = path.join(".ctxwin", "ctxwin.db");

export interface SqliteOpenOptions {
  backend?: "sqlite";
  /** Database file; default `<directory>/.ctxwin/ctxwin.db`. */
  path?: string;
  /** Project directory used when `path` is not given; default the current directory. */
  directory?: string;
  /** `full` (default) survives power loss; `normal` survives process crashes only. */
  durability?: Durability;
  /** How long a writer waits for another process's lock (ms, default 10 000). */
  busyTimeoutMs?: number;
  now?: () => Date;
  generateId?: () => string;
  maxRowBytes?: number;
  /** Called for rows skipped on read (corrupt JSON, newer format); default: a line on stderr. */
  onWarning?: (warning: StoreWarning) => void;
  /**
   * Open an existing database without ever writing to it (works in a folder this user cannot
   * write); `append` and `deleteSession` throw `StoreReadOnlyError`. Default `false`.
   */
  readOnly?: boolean;
}

export interface MemoryOpenOptions extends MemoryStoreOptions {
  backend: "memory";
}

export interface PostgresOpenOptions {
  backend?: "postgres";
  /** `postgres://user:password@host:5432/database` (libpq connection URL). */
  url: string;
}

export type OpenStoreOptions = SqliteOpenOptions | MemoryOpenOptions | PostgresOpenOptions;

/**
 * Opens a history store. Options the chosen backend does not know are refused with a
 * `StoreOptionsError` (nothing is opened or created).
 *
 * @example
 * const store = openStore({ path: ".ctxwin/ctxwin.db" }); // SQLite, the embedded default
 * const scratch = openStore({ backend: "memory" });       // tests and ephemeral sessions
 * const reader = openStore({ directory: "/srv/project", readOnly: true }); // never writes
 */
export function openStore(options: OpenStoreOptions = {}): HistoryStore {
  const backend = chooseBackend(options as Record<string, unknown>);
  assertKnownStoreOptions(backend, options as Record<string, unknown>);
  if (backend === "postgres") {
    throw new StoreOptionsError("openStore: the postgres backend is not available in this build yet; nothing was opened.");
  }
  if (options.backend === "memory") {
    const { backend: _backend, ...memoryOptions } = options;
    return createMemoryStore(memoryOptions);
  }
  const { backend: _backend, path: file, directory = process.cwd(), ...sqliteOptions } = options as SqliteOpenOptions;
  return createSqliteStore({ ...sqliteOptions, path: path.resolve(file ?? path.join(directory, DEFAULT_STORE_PATH)) });
}
