/**
 * Temporary folders and stores for the import tests, closed and removed after each test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { openStore } from "../../store/open-store.js";
import type { HistoryStore } from "../../store/port.js";

/**
 * Call at the top of a test file.
 *
 * @example
 * const { temporaryDirectory, openScratchStore } = scratchStores("ctxwin-import-");
 */
export function scratchStores(prefix: string): {
  temporaryDirectory: () => string;
  openScratchStore: (directory?: string) => HistoryStore;
} {
  const directories: string[] = [];
  const stores: HistoryStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });
  const temporaryDirectory = () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), prefix));
    directories.push(directory);
    return directory;
  };
  const openScratchStore = (directory = temporaryDirectory()) => {
    const store = openStore({ directory });
    stores.push(store);
    return store;
  };
  return { temporaryDirectory, openScratchStore };
}
