/**
 * Several real processes append to one session of one SQLite file at the same time
 * (docs/design.md §4, invariant 7): seq stays gap-free, every append call stays contiguous, and
 * each writer's rows keep their own order.
 */
import { describe, it } from "vitest";
import { openStore } from "../open-store.js";
import { startAppendWorker } from "../test-support/worker-process.js";
import {
  expectFreshStoreSession,
  expectInterleavedSession,
  startFreshStoreWorkers,
  workersKilledAfterEach,
} from "../test-support/writer-processes.js";
import { temporaryDatabases } from "../test-support/temporary-database.js";

const WORKERS = 4;
const ROWS_PER_WORKER = 500 + 50 * 10;

const runTogether = workersKilledAfterEach();
const temporaryDatabase = temporaryDatabases("ctxwin-multi-process-");

describe("sqlite store, several processes appending to one session", () => {
  it("keeps seq gap-free, every batch contiguous and every writer's order", async () => {
    const file = temporaryDatabase();
    const creator = openStore({ path: file });
    await creator.close();
    const workers = Array.from({ length: WORKERS }, (_unused, index) =>
      startAppendWorker({ mode: "interleaved", path: file, sessionId: "shared", worker: `w${index}` }),
    );

    await runTogether(workers);

    const store = openStore({ path: file });
    try {
      await expectInterleavedSession(store, "shared", workers, ROWS_PER_WORKER);
    } finally {
      await store.close();
    }
  });

  it("lets several processes create a brand-new database file at the same moment", async () => {
    const file = temporaryDatabase();
    const workers = startFreshStoreWorkers(WORKERS, { path: file });

    await runTogether(workers);

    const store = openStore({ path: file });
    try {
      await expectFreshStoreSession(store, WORKERS);
    } finally {
      await store.close();
    }
  });
});
