/**
 * Eight real processes append to one session on a PostgreSQL server at the same time (invariant 7
 * across machines: each process has its own pool, as a worker on another machine would): seq stays
 * gap-free, every append call contiguous, each writer's rows in their own order; and eight
 * processes opening a brand-new schema at once create it once.
 */
import { describe, expect, it, vi } from "vitest";
import { openStore } from "../open-store.js";
import { withTestDatabase, postgresUnavailable, type TestDatabase } from "../test-support/postgres-database.js";
import { tagOf } from "../test-support/row-tags.js";
import { startAppendWorker } from "../test-support/worker-process.js";
import {
  expectFreshStoreSession,
  expectInterleavedSession,
  startFreshStoreWorkers,
  workersKilledAfterEach,
} from "../test-support/writer-processes.js";

const WORKERS = 8;
/** 50 single-row appends and 5 batches of 10 per worker. */
const CALLS = 55;
const ROWS_PER_WORKER = 100;

// Eight child processes start and connect: slow on a loaded 2-core machine.
vi.setConfig({ testTimeout: 240_000 });

const runTogether = workersKilledAfterEach();

describe.skipIf(postgresUnavailable !== "")("postgres store, several processes appending to one session", () => {
  let database: TestDatabase;
  withTestDatabase((created) => (database = created));

  it(`keeps seq gap-free with ${WORKERS} writer processes, every batch contiguous and every writer's order`, async () => {
    const schema = "writers";
    const creator = openStore({ url: database.url, schema });
    await creator.lastSeq("shared");
    await creator.close();
    const workers = Array.from({ length: WORKERS }, (_unused, index) =>
      startAppendWorker({
        mode: "interleaved",
        interleavedCalls: CALLS,
        path: "",
        url: database.url,
        schema,
        sessionId: "shared",
        worker: `w${index}`,
      }),
    );

    await runTogether(workers);

    const store = openStore({ url: database.url, schema });
    try {
      await expectInterleavedSession(store, "shared", workers, ROWS_PER_WORKER);
      // The search columns agree with the rows.
      const found = await store.search("shared", { query: "(w3:5)", mode: "literal", limit: 50 });
      expect(found.hits.map((hit) => tagOf(hit.row)?.batch)).toEqual(found.hits.map(() => "w3:5"));
      expect(found.hits.length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it(`lets ${WORKERS} processes create a brand-new schema at the same moment`, async () => {
    const schema = "fresh";
    const workers = startFreshStoreWorkers(WORKERS, { path: "", url: database.url, schema });

    await runTogether(workers);

    const store = openStore({ url: database.url, schema });
    try {
      await expectFreshStoreSession(store, WORKERS);
    } finally {
      await store.close();
    }
  });
});
