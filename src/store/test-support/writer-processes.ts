/**
 * The multi-process append tests' set-up and checks, the same on every backend: worker processes
 * let go at once (and killed after each test), then the shared session checked whole.
 */
import { afterEach, expect } from "vitest";
import type { HistoryStore, StoredRow } from "../port.js";
import { type AppendWorkerConfig, GO_LINE, parseCommitted } from "./append-worker-protocol.js";
import { tagOf } from "./row-tags.js";
import { batchProblems, readWholeSession, seqProblems, workerOrderProblems } from "./transcript-checks.js";
import { startAppendWorker, type WorkerProcess } from "./worker-process.js";

/**
 * Registers an `afterEach` that kills the test's workers; returns `runTogether`, which starts
 * every worker, waits until all have opened the store, lets them all go at once and expects each
 * to exit cleanly.
 *
 * @example const runTogether = workersKilledAfterEach(); await runTogether(workers);
 */
export function workersKilledAfterEach(): (workers: WorkerProcess[]) => Promise<void> {
  const started: WorkerProcess[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((worker) => worker.kill()));
  });
  return async (workers) => {
    started.push(...workers);
    await Promise.all(workers.map((worker) => worker.waitForLine(/^ready$/)));
    for (const worker of workers) worker.send(GO_LINE);
    const exits = await Promise.all(workers.map((worker) => worker.exited));
    exits.forEach((exit, index) =>
      expect(exit, `worker ${index} stderr:\n${workers[index]?.stderr()}`).toEqual({ code: 0, signal: null }),
    );
  };
}

/**
 * Expects the session `workers` appended to in interleaved calls to be whole: seq gap-free, every
 * batch contiguous, each writer's rows in its order and at the seqs it was told, the writes
 * overlapping. Returns the rows.
 */
export async function expectInterleavedSession(
  store: HistoryStore,
  sessionId: string,
  workers: readonly WorkerProcess[],
  rowsPerWorker: number,
): Promise<StoredRow[]> {
  const total = workers.length * rowsPerWorker;
  expect(await store.lastSeq(sessionId)).toBe(total);
  const rows = await readWholeSession(store, sessionId);
  expect(seqProblems(rows, total)).toEqual([]);
  expect(batchProblems(rows)).toEqual([]);
  expect(workerOrderProblems(rows)).toEqual([]);
  for (let index = 0; index < workers.length; index += 1) {
    expect(rows.filter((row) => tagOf(row)?.worker === `w${index}`)).toHaveLength(rowsPerWorker);
  }
  // Each worker saw the seqs the store gave it: what it printed is what was stored.
  for (const worker of workers) {
    for (const committed of worker.lines.map(parseCommitted)) {
      if (committed === undefined) continue;
      const first = rows[committed.firstSeq - 1];
      expect(first === undefined ? undefined : tagOf(first)?.batch).toBe(committed.batch);
    }
  }
  // The writes really overlapped: one worker after the other would change writer exactly
  // `workers.length - 1` times.
  const writerChanges = rows.filter(
    (row, position) => position > 0 && tagOf(row)?.worker !== tagOf(rows[position - 1] as typeof row)?.worker,
  );
  expect(writerChanges.length).toBeGreaterThan(workers.length - 1);
  return rows;
}

/** The batches each worker of `startFreshStoreWorkers` appends. */
const FRESH_STORE_BATCHES = 3;

/**
 * `count` workers that open a store only after `go` (so that they all create it at once) and
 * append their batches to session "fresh".
 */
export function startFreshStoreWorkers(
  count: number,
  store: Pick<AppendWorkerConfig, "path" | "url" | "schema">,
): WorkerProcess[] {
  return Array.from({ length: count }, (_unused, index) =>
    startAppendWorker({
      mode: "batches",
      ...store,
      sessionId: "fresh",
      worker: `n${index}`,
      seed: index + 1,
      maxBatches: FRESH_STORE_BATCHES,
      openAfterGo: true,
    }),
  );
}

/**
 * Expects session "fresh" whole after `startFreshStoreWorkers`: seq gap-free, every batch of every
 * worker there, contiguous.
 */
export async function expectFreshStoreSession(store: HistoryStore, workers: number): Promise<void> {
  const rows = await readWholeSession(store, "fresh");
  expect(seqProblems(rows, await store.lastSeq("fresh"))).toEqual([]);
  expect(batchProblems(rows)).toEqual([]);
  expect(new Set(rows.map((row) => tagOf(row)?.batch)).size).toBe(workers * FRESH_STORE_BATCHES);
}
