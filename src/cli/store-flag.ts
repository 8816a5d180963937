/**
 * `--store <url>`, shared by the commands that open the history store (demo, chat, history,
 * serve, import): a `postgres://` URL, or the path of a SQLite file. Without it a command uses
 * `CTXWIN_DATABASE_URL` when set, else `<dir>/.ctxwin/ctxwin.db` (`openStore`'s rules).
 */
import path from "node:path";
import { StoreOptionsError } from "../store/errors.js";
import { DATABASE_URL_VARIABLE, DEFAULT_STORE_PATH, type OpenStoreOptions } from "../store/open-store.js";
import { describeServer } from "../store/postgres/server-errors.js";

export const STORE_FLAG = "--store <url>";
export const STORE_FLAG_HELP = `history store: a postgres://user@host/db URL or a SQLite file (default: $${DATABASE_URL_VARIABLE}, else <dir>/${DEFAULT_STORE_PATH})`;

const serverUrl = /^postgres(ql)?:\/\//;

/**
 * The `openStore` options for a command's `--store` value and project directory.
 *
 * @example storeOptionsOf({ store: "postgres://agent@db/agents", directory: "." }) // { url: "postgres://agent@db/agents" }
 */
export function storeOptionsOf({ store, directory }: { store?: string | undefined; directory: string }): OpenStoreOptions {
  if (store === undefined) return { directory };
  if (serverUrl.test(store)) return { url: store };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(store)) {
    throw new StoreOptionsError(`--store ${store}: only postgres:// (or postgresql://) URLs and SQLite file paths are supported.`);
  }
  return { path: path.resolve(store) };
}

/**
 * Where the options' store is, for people (a server URL without its password, or a file path).
 *
 * @example describeStoreOptions({ directory: "/p" }) // "/p/.ctxwin/ctxwin.db"
 */
export function describeStoreOptions(options: OpenStoreOptions, env: NodeJS.ProcessEnv = process.env): string {
  const record = options as { url?: string; path?: string; directory?: string };
  if (record.url !== undefined) return describeServer(record.url);
  if (record.path !== undefined) return record.path;
  const fromEnvironment = env[DATABASE_URL_VARIABLE];
  if (fromEnvironment !== undefined && fromEnvironment !== "") return describeServer(fromEnvironment);
  return path.join(path.resolve(record.directory ?? process.cwd()), DEFAULT_STORE_PATH);
}
