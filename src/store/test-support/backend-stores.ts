/**
 * Stores of either local backend, for tests that run on both: a SQLite store in a temporary
 * folder, or a memory store; each closed (and its folder removed) after the test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { openStore } from "../open-store.js";
import type { HistoryStore } from "../port.js";

/**
 * Call inside the `describe` of one backend; returns `openBackendStore`, which opens a new store.
 *
 * @example
 * describe.each(["memory", "sqlite"] as const)("x (%s)", (backend) => {
 *   const openBackendStore = backendStores(backend, "ctxwin-x-");
 * });
 */
export function backendStores(backend: "memory" | "sqlite", prefix: string): () => HistoryStore {
  const stores: HistoryStore[] = [];
  const folders: string[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  return () => {
    let store: HistoryStore;
    if (backend === "memory") store = openStore({ backend: "memory" });
    else {
      const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
      folders.push(folder);
      store = openStore({ directory: folder });
    }
    stores.push(store);
    return store;
  };
}
