/**
 * Opens the history store of a project directory for reading, without ever creating or writing
 * one: a directory without `.ctxwin/ctxwin.db` is an error, not an empty history, and a folder
 * this user cannot write is read as it is.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { DEFAULT_STORE_PATH, openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";
import { HistoryCommandError } from "./history-errors.js";

/**
 * @example const store = openProjectStore({ directory: "/work/project" });
 */
export function openProjectStore({ directory = process.cwd() }: { directory?: string } = {}): HistoryStore {
  const resolved = path.resolve(directory);
  const databasePath = path.join(resolved, DEFAULT_STORE_PATH);
  if (!existsSync(databasePath)) {
    throw new HistoryCommandError(`No ctxwin history in ${resolved}: ${databasePath} does not exist.`);
  }
  return openStore({ directory: resolved, readOnly: true });
}
