/**
 * Where a store is when none is named: constants the commands' help texts need without loading
 * the store (open-store.ts re-exports them).
 */
import path from "node:path";

/** Default location of the database inside a project directory. */
export const DEFAULT_STORE_PATH = path.join(".ctxwin", "ctxwin.db");

/** Environment variable naming the PostgreSQL server to use when no store is given explicitly. */
export const DATABASE_URL_VARIABLE = "CTXWIN_DATABASE_URL";
