/**
 * Which options each backend of `openStore` accepts. An option a backend does not know is refused
 * (ADR 0035): a typo or another backend's option must never fall back to a default silently,
 * e.g. `openStore({ url })` writing to a local SQLite file when the caller meant a server.
 */
import { StoreOptionsError } from "./errors.js";
import type { MemoryOpenOptions, PostgresOpenOptions, SqliteOpenOptions } from "./open-store.js";

export type StoreBackendName = "sqlite" | "memory" | "postgres";

/** The keys of `T`, each once: a key the type lacks, or one missing here, fails the typecheck. */
const keysOf = <T>(keys: Record<keyof T, true>): readonly string[] => Object.keys(keys);

const shared = { backend: true, now: true, generateId: true, maxRowBytes: true, embeddings: true } as const;
const database = { ...shared, onWarning: true, readOnly: true } as const;

export const STORE_OPTION_KEYS: Readonly<Record<StoreBackendName, readonly string[]>> = {
  sqlite: keysOf<SqliteOpenOptions>({
    ...database,
    path: true,
    directory: true,
    durability: true,
    busyTimeoutMs: true,
  }),
  memory: keysOf<MemoryOpenOptions>(shared),
  postgres: keysOf<PostgresOpenOptions>({
    ...database,
    url: true,
    schema: true,
    ssl: true,
    maxConnections: true,
    connectTimeoutMs: true,
    statementTimeoutMs: true,
    queryTimeoutMs: true,
  }),
};

/**
 * The backend `options` ask for: `backend` when given, else `postgres` when a `url` is given,
 * else the embedded default, `sqlite`.
 */
export function chooseBackend(options: Record<string, unknown>): StoreBackendName {
  const backend = options["backend"];
  if (backend === undefined) return options["url"] === undefined ? "sqlite" : "postgres";
  if (backend === "sqlite" || backend === "memory" || backend === "postgres") return backend;
  throw new StoreOptionsError(
    `openStore: backend must be 'sqlite', 'memory' or 'postgres'; got ${JSON.stringify(backend)}. Nothing was opened.`,
  );
}

/**
 * Refuses options that `backend` does not know. Keys whose value is `undefined` are ignored, so
 * that optional fields can be spread in.
 */
export function assertKnownStoreOptions(backend: StoreBackendName, options: Record<string, unknown>): void {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new StoreOptionsError("openStore takes one options object, e.g. openStore({ path: '.ctxwin/ctxwin.db' }).");
  }
  const known = STORE_OPTION_KEYS[backend];
  const unknown = Object.keys(options).filter((key) => options[key] !== undefined && !known.includes(key));
  if (unknown.length === 0) return;
  const owners = unknown.map((key) => {
    const others = (Object.keys(STORE_OPTION_KEYS) as StoreBackendName[]).filter((name) =>
      STORE_OPTION_KEYS[name].includes(key),
    );
    return others.length === 0 ? `'${key}'` : `'${key}' (an option of the ${others.join("/")} backend)`;
  });
  throw new StoreOptionsError(
    `openStore: the ${backend} backend does not know the option${unknown.length > 1 ? "s" : ""} ${owners.join(", ")}; ` +
      `it accepts ${known.map((key) => `'${key}'`).join(", ")}. Nothing was opened.`,
    unknown,
  );
}
