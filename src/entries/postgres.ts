/**
 * `ctxwin/postgres`: the PostgreSQL store by itself (`openStore({ url })` at `ctxwin` opens it too).
 * Needs the optional peer `pg`, loaded when the store first connects.
 */
export { createPostgresStore, type PostgresStoreOptions } from "../store/postgres/postgres-store.js";
