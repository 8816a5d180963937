/**
 * The two store backends the tool tests run against: memory, and SQLite in a temp directory.
 * Test-only: excluded from the build.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import { openStore } from "../../../store/open-store.js";
import type { HistoryStore } from "../../../store/port.js";

export interface OpenedStore {
  store: HistoryStore;
  close: () => Promise<void>;
}

export interface Backend {
  name: "memory" | "sqlite";
  open: () => OpenedStore;
}

function deterministicOptions() {
  let clock = Date.parse("2026-01-01T00:00:00.000Z");
  let counter = 0;
  return {
    now: () => new Date((clock += 1_000)),
    generateId: () => `row-${(counter += 1)}`,
  };
}

export const backends: Backend[] = [
  {
    name: "memory",
    open: () => {
      const store = openStore({ backend: "memory", ...deterministicOptions() });
      return { store, close: () => store.close() };
    },
  },
  {
    name: "sqlite",
    open: () => {
      const directory = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-history-tool-"));
      const store = openStore({
        path: path.join(directory, "ctxwin.db"),
        durability: "normal",
        ...deterministicOptions(),
      });
      return {
        store,
        close: async () => {
          await store.close();
          fs.rmSync(directory, { recursive: true, force: true });
        },
      };
    },
  },
];

/**
 * Opens a fresh store of `backend` before each test of the calling `describe` and closes it after.
 *
 * @example
 * let store: HistoryStore;
 * storePerTest(backend, (opened) => (store = opened));
 */
export function storePerTest(backend: Backend, onOpen: (store: HistoryStore) => void): void {
  let opened: OpenedStore | undefined;
  beforeEach(() => {
    opened = backend.open();
    onOpen(opened.store);
  });
  afterEach(() => opened?.close());
}
