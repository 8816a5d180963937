/**
 * The PostgreSQL server crashes and restarts (`pg_ctl restart -m immediate`) while four client
 * processes append: each client gets a typed error (connection lost, or server unavailable while
 * it restarts) and retries the same batch with the same operationId until it is acknowledged.
 * Afterwards nothing is half-written, nothing acknowledged is lost, and no retried batch is stored
 * twice. Runs on a cluster of its own, so that the restart disturbs no other test file.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { findPostgresBinaries, startPostgresCluster, type PostgresCluster } from "../../../test/postgres-cluster.js";
import { openStore } from "../open-store.js";
import { GO_LINE, parseCommitted } from "../test-support/append-worker-protocol.js";
import { postgresUnavailable } from "../test-support/postgres-database.js";
import { tagOf } from "../test-support/row-tags.js";
import {
  batchProblems,
  batchesPresent,
  readWholeSession,
  seqProblems,
  workerOrderProblems,
} from "../test-support/transcript-checks.js";
import { startAppendWorker, type WorkerProcess } from "../test-support/worker-process.js";

vi.setConfig({ testTimeout: 240_000 });

const WORKERS = 4;
const SESSION = "restart";
const started: WorkerProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((worker) => worker.kill()));
});

const committedCount = (worker: WorkerProcess) =>
  worker.lines.filter((line) => parseCommitted(line) !== undefined).length;

/** Waits for `condition`; fails at once, with its stderr, if a worker ends first. */
async function waitUntil(workers: readonly WorkerProcess[], condition: () => boolean): Promise<void> {
  let met = false;
  const poll = async () => {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
    met = true;
  };
  const endedEarly = workers.map(async (worker) => {
    const exit = await worker.exited;
    if (!met)
      throw new Error(
        `worker ${worker.label} ended before the test expected (${JSON.stringify(exit)}):\n${worker.stderr()}`,
      );
  });
  await Promise.race([poll(), ...endedEarly]);
}

describe.skipIf(postgresUnavailable !== "" || findPostgresBinaries() === undefined)(
  "postgres store, server restart during appends",
  () => {
    let cluster: PostgresCluster;
    beforeAll(async () => {
      cluster = await startPostgresCluster();
    });
    afterAll(() => {
      cluster.stop();
    });

    it("clients get typed errors and retry; nothing is half-written, lost or stored twice", async () => {
      const workers = Array.from({ length: WORKERS }, (_unused, index) =>
        startAppendWorker({
          mode: "batches",
          path: "",
          url: cluster.url,
          sessionId: SESSION,
          worker: `r${index}`,
          seed: index + 7,
          retryLostConnections: true,
        }),
      );
      started.push(...workers);
      await Promise.all(workers.map((worker) => worker.waitForLine(/^ready$/)));
      for (const worker of workers) worker.send(GO_LINE);
      await waitUntil(workers, () => workers.every((worker) => committedCount(worker) >= 3));

      cluster.restart();
      const before = workers.map(committedCount);
      // Every client appends again after the restart, then finishes its batch and stops.
      await waitUntil(workers, () =>
        workers.every((worker, index) => committedCount(worker) >= (before[index] ?? 0) + 5),
      );
      for (const worker of workers) worker.closeInput();
      const exits = await Promise.all(workers.map((worker) => worker.exited));
      exits.forEach((exit, index) =>
        expect(exit, `worker ${index} stderr:\n${workers[index]?.stderr()}`).toEqual({ code: 0, signal: null }),
      );

      const retries = workers.flatMap((worker) => worker.lines.filter((line) => line.startsWith("retry ")));
      expect(retries.length, "the restart reached the clients").toBeGreaterThan(0);
      for (const line of retries)
        expect(line).toMatch(/^retry r\d:\d+ (CtxwinStoreConnectionLostError|CtxwinStoreUnavailableError)$/);

      const store = openStore({ url: cluster.url });
      try {
        const rows = await readWholeSession(store, SESSION);
        expect(seqProblems(rows, await store.lastSeq(SESSION))).toEqual([]);
        expect(batchProblems(rows)).toEqual([]);
        expect(workerOrderProblems(rows)).toEqual([]);
        const acknowledged = workers.flatMap((worker) =>
          worker.lines.map(parseCommitted).filter((line) => line !== undefined),
        );
        const present = batchesPresent(rows);
        expect(acknowledged.filter((committed) => !present.has(committed.batch))).toEqual([]);
        // Each acknowledgement names the rows the store holds for that batch.
        for (const committed of acknowledged) expect(tagOf(rows[committed.firstSeq - 1]!)?.batch).toBe(committed.batch);
        expect(present.size).toBe(acknowledged.length);
      } finally {
        await store.close();
      }
    });
  },
);
