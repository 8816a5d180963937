/**
 * Opens the history store of a project (or the one `--store` / `CTXWIN_DATABASE_URL` names) for
 * reading (or, for `history fork`, writing to an existing store), without ever creating or writing a SQLite file: a directory without
 * `.ctxwin/ctxwin.db` is an error, not an empty history, and a folder this user cannot write is
 * read as it is.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { DATABASE_URL_VARIABLE, DEFAULT_STORE_PATH, openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import type { EmbeddingsOptions } from "../../store/embeddings/embeddings-options.js";
import { storeOptionsOf } from "../store-flag.js";
import { HistoryCommandError } from "./history-errors.js";

/**
 * @example const store = openProjectStore({ directory: "/work/project", store: "postgres://agent@db/ctxwin" });
 */
export function openProjectStore({
  directory = process.cwd(),
  store,
  readOnly = true,
  embeddings,
}: {
  directory?: string;
  store?: string;
  readOnly?: boolean;
  embeddings?: EmbeddingsOptions | undefined;
} = {}): HistoryStore {
  const resolved = path.resolve(directory);
  const options = storeOptionsOf({ store, directory: resolved });
  if ("url" in options) return openStore({ ...options, readOnly, embeddings });
  const fromEnvironment = store === undefined && (process.env[DATABASE_URL_VARIABLE] ?? "") !== "";
  // CTXWIN_DATABASE_URL: openStore takes the server from it and keeps readOnly.
  if (fromEnvironment) return openStore({ directory: resolved, readOnly, embeddings });
  const file = "path" in options && options.path !== undefined ? options.path : path.join(resolved, DEFAULT_STORE_PATH);
  if (!existsSync(file)) {
    throw new HistoryCommandError(
      store === undefined
        ? `No ctxwin history in ${resolved}: ${file} does not exist.`
        : `No ctxwin history at ${file}: the file does not exist.`,
    );
  }
  return openStore({ path: file, readOnly, embeddings });
}
