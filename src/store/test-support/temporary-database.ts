/**
 * SQLite store files for tests: each a `ctxwin.db` in a folder of its own, removed after each test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

/**
 * Call at the top of a test file; returns `temporaryDatabase`, which names a new file (not created).
 *
 * @example const temporaryDatabase = temporaryDatabases("ctxwin-crash-"); const file = temporaryDatabase();
 */
export function temporaryDatabases(prefix: string): () => string {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  return () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
    folders.push(folder);
    return path.join(folder, "ctxwin.db");
  };
}
