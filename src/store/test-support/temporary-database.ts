/**
 * SQLite store files for tests: each a `ctxwin.db` in a folder of its own, removed after each test.
 */
import path from "node:path";
import { scratchFolders } from "../../../test/scratch-folders.js";

/**
 * Call at the top of a test file; returns `temporaryDatabase`, which names a new file (not created).
 *
 * @example const temporaryDatabase = temporaryDatabases("ctxwin-crash-"); const file = temporaryDatabase();
 */
export function temporaryDatabases(prefix: string): () => string {
  const folder = scratchFolders(prefix, "after each test");
  return () => path.join(folder(), "ctxwin.db");
}
