/**
 * `--store <url|file>`, shared by the commands that open the history store (demo, chat, history,
 * serve, import, mcp, doctor): a `postgres://` URL (`?schema=` names the schema), or the path of a
 * SQLite file. Without it a command uses `CTXWIN_DATABASE_URL` when set, else
 * `<dir>/.ctxwin/ctxwin.db` (`openStore`'s rules). A value that is neither is a usage error
 * (exit code 2) before anything is opened.
 */
import path from "node:path";
import { InvalidArgumentError } from "commander";
import type { OpenStoreOptions } from "../store/open-store.js";
import { DATABASE_URL_VARIABLE, DEFAULT_STORE_PATH } from "../store/store-location.js";
import { isValidSchemaName, schemaFromUrl } from "../store/postgres/schema.js";
import { describeServer } from "../store/postgres/server-errors.js";

export const STORE_FLAG = "--store <url|file>";
export const STORE_FLAG_HELP =
  "history store: a postgres://user@host/db URL (?schema=name) or a SQLite file " +
  `(default: $${DATABASE_URL_VARIABLE}, else <dir>/${DEFAULT_STORE_PATH})`;

const serverUrl = /^postgres(ql)?:\/\//i;
const anyUrl = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Commander's parser of the `--store` value: returns it unchanged, or says in one line what is
 * wrong with it (another URL scheme, a URL that does not parse, a bad `?schema=`).
 *
 * @example command.option(STORE_FLAG, STORE_FLAG_HELP, parseStoreFlag)
 */
export function parseStoreFlag(value: string): string {
  if (value.trim() === "") throw new InvalidArgumentError("expected a postgres:// URL or a SQLite file path.");
  if (!anyUrl.test(value)) return value;
  if (!serverUrl.test(value))
    throw new InvalidArgumentError("only postgres:// (or postgresql://) URLs and SQLite file paths are supported.");
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new InvalidArgumentError(
      "the URL does not parse; expected e.g. postgres://user@host:5432/database?schema=project.",
    );
  }
  const { schema } = schemaFromUrl(parsed.toString(), undefined);
  if (schema !== undefined && !isValidSchemaName(schema)) {
    throw new InvalidArgumentError(
      `?schema=${schema} is not a usable schema name (lower-case letters, digits and '_', at most 63, not starting with 'pg_').`,
    );
  }
  return value;
}

/** Whether a `--store` value names a PostgreSQL server. */
export const isServerUrl = (store: string): boolean => serverUrl.test(store);

/**
 * The `openStore` options for a command's `--store` value and project directory.
 *
 * @example storeOptionsOf({ store: "postgres://agent@db/agents", directory: "." }) // { url: "postgres://agent@db/agents" }
 */
export function storeOptionsOf({
  store,
  directory,
}: {
  store?: string | undefined;
  directory: string;
}): OpenStoreOptions {
  if (store === undefined) return { directory };
  if (isServerUrl(parseStoreFlag(store))) return { url: store };
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
