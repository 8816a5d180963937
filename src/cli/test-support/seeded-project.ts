/**
 * A project folder for the tests that run a `ctxwin` command on it: a new temporary folder whose
 * store `seed` filled, closed again so that the command opens it as it would a user's.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";

/**
 * @example const project = await seededProject("ctxwin-history-child-floor-", seedClearedChildTree);
 */
export async function seededProject(prefix: string, seed: (store: HistoryStore) => Promise<unknown>): Promise<string> {
  const project = mkdtempSync(path.join(os.tmpdir(), prefix));
  const store = openStore({ directory: project });
  try {
    await seed(store);
  } finally {
    await store.close();
  }
  return project;
}
