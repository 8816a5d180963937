/**
 * Several real processes append to one session of one SQLite file at the same time
 * (docs/design.md §4, invariant 7): seq stays gap-free, every append call stays contiguous, and
 * each writer's rows keep their own order.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
import { GO_LINE, parseCommitted } from "../test-support/append-worker-protocol.js";
import { tagOf } from "../test-support/row-tags.js";
import {
  batchProblems,
  readWholeSession,
  seqProblems,
  workerOrderProblems,
} from "../test-support/transcript-checks.js";
import { startAppendWorker, type WorkerProcess } from "../test-support/worker-process.js";

const WORKERS = 4;
const ROWS_PER_WORKER = 500 + 50 * 10;

const directories: string[] = [];
const started: WorkerProcess[] = [];

function temporaryDatabase(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), "ctxwin-multi-process-"));
  directories.push(directory);
  return path.join(directory, "ctxwin.db");
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((worker) => worker.kill()));
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** Starts every worker, waits until all have opened the store, then lets them all go at once. */
async function runTogether(workers: WorkerProcess[]): Promise<void> {
  started.push(...workers);
  await Promise.all(workers.map((worker) => worker.waitForLine(/^ready$/)));
  for (const worker of workers) worker.send(GO_LINE);
  const exits = await Promise.all(workers.map((worker) => worker.exited));
  exits.forEach((exit, index) =>
    expect(exit, `worker ${index} stderr:\n${workers[index]?.stderr()}`).toEqual({ code: 0, signal: null }),
  );
}

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
      const total = WORKERS * ROWS_PER_WORKER;
      expect(await store.lastSeq("shared")).toBe(total);
      const rows = await readWholeSession(store, "shared");
      expect(seqProblems(rows, total)).toEqual([]);
      expect(batchProblems(rows)).toEqual([]);
      expect(workerOrderProblems(rows)).toEqual([]);
      for (let index = 0; index < WORKERS; index += 1) {
        expect(rows.filter((row) => tagOf(row)?.worker === `w${index}`)).toHaveLength(ROWS_PER_WORKER);
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
      // WORKERS - 1 times.
      const writerChanges = rows.filter(
        (row, position) => position > 0 && tagOf(row)?.worker !== tagOf(rows[position - 1] as typeof row)?.worker,
      );
      expect(writerChanges.length).toBeGreaterThan(WORKERS - 1);
    } finally {
      await store.close();
    }
  });

  it("lets several processes create a brand-new database file at the same moment", async () => {
    const file = temporaryDatabase();
    const workers = Array.from({ length: WORKERS }, (_unused, index) =>
      startAppendWorker({
        mode: "batches",
        path: file,
        sessionId: "fresh",
        worker: `n${index}`,
        seed: index + 1,
        maxBatches: 3,
        openAfterGo: true,
      }),
    );

    await runTogether(workers);

    const store = openStore({ path: file });
    try {
      const rows = await readWholeSession(store, "fresh");
      expect(seqProblems(rows, await store.lastSeq("fresh"))).toEqual([]);
      expect(batchProblems(rows)).toEqual([]);
      expect(new Set(rows.map((row) => tagOf(row)?.batch)).size).toBe(WORKERS * 3);
    } finally {
      await store.close();
    }
  });
});
