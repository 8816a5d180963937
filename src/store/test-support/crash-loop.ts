/**
 * The SIGKILL loop shared by the backends' crash tests: append workers (real child processes)
 * are killed at random but replayable moments while appending to one session, and after each
 * kill the store must hold every acknowledged batch, no partial batch, gap-free seqs, a search
 * index that agrees with the rows, and accept the next append. The last worker is killed during
 * a huge batch.
 */
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, expect } from "vitest";
import type { HistoryStore } from "../port.js";
import { GO_LINE, HUGE_WRITING_LINE, parseCommitted, type AppendWorkerConfig } from "./append-worker-protocol.js";
import { tagOf } from "./row-tags.js";
import type { SeededRandom } from "./seeded-random.js";
import { batchProblems, batchesPresent, readWholeSession, seqProblems } from "./transcript-checks.js";
import { startAppendWorker, type WorkerProcess } from "./worker-process.js";

/** Children started ahead of their turn, so their start-up overlaps the previous round. */
const STARTED_AHEAD = 2;
export const CRASH_SESSION = "crash";

export interface CrashLoopOptions {
  kills: number;
  random: SeededRandom;
  /** Where the workers append (`path`, or `url` and `schema`, ...). */
  target: Omit<AppendWorkerConfig, "mode" | "worker" | "sessionId">;
  openStore: () => HistoryStore;
  /** Extra checks after each kill (e.g. SQLite's integrity check). */
  afterKill?: (round: string) => void;
  /**
   * Waits until nothing of the killed worker can still write: a server may finish a COMMIT the
   * worker sent just before it died after the kill (PostgreSQL: its server sessions end).
   */
  settle?: (worker: string) => Promise<void>;
  /** Says what happened to the huge batch. */
  report?: (line: string) => void;
}

/** Call at the top of a crash test file: kills the workers a failed run left behind. */
export function killWorkersAfterEach(): WorkerProcess[] {
  const started: WorkerProcess[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((worker) => worker.kill()));
  });
  return started;
}

/**
 * @example
 * await runCrashLoop({ kills: 30, random, target: { path: file }, openStore: () => openStore({ path: file }) }, started);
 */
export async function runCrashLoop(options: CrashLoopOptions, started: WorkerProcess[]): Promise<{ markers: number }> {
  const state = { acknowledged: new Set<string>(), markers: 0 };
  const start = (config: Pick<AppendWorkerConfig, "mode" | "worker" | "seed">): WorkerProcess => {
    const worker = startAppendWorker({ ...options.target, ...config, sessionId: CRASH_SESSION });
    started.push(worker);
    return worker;
  };
  const queue: WorkerProcess[] = [];
  const startNext = (index: number) => {
    if (index < options.kills)
      queue.push(start({ mode: "batches", worker: `c${index}`, seed: options.random.integer(1, 2 ** 31) }));
    else if (index === options.kills)
      queue.push(start({ mode: "huge", worker: "huge", seed: options.random.integer(1, 2 ** 31) }));
  };
  for (let index = 0; index < STARTED_AHEAD; index += 1) startNext(index);

  for (let round = 0; round <= options.kills; round += 1) {
    const child = queue.shift() as WorkerProcess;
    startNext(round + STARTED_AHEAD);
    await child.waitForLine(/^ready$/);
    child.send(GO_LINE);
    await child.waitForLine(/^committed /);
    if (child.label === "huge") await child.waitForLine(new RegExp(`^${HUGE_WRITING_LINE}$`));
    await delay(options.random.integer(0, 40));
    const exit = await child.kill();
    // The children never stop on their own, so the kill is what ended them.
    expect(exit.signal, `${child.label} stderr:\n${child.stderr()}`).toBe("SIGKILL");
    const label = `kill ${round} (${child.label})`;
    await options.settle?.(child.label);
    const { inFlightPresent } = await checkAfterKill(options, state, child, label);
    options.afterKill?.(label);
    if (child.label === "huge") {
      const hugeAcknowledged = child.lines.some((line) => parseCommitted(line)?.batch === "huge:1");
      options.report?.(
        `huge batch: ${hugeAcknowledged ? "committed before the kill" : inFlightPresent ? "committed, not acknowledged" : "killed mid-write, absent"}`,
      );
    }
  }
  return { markers: state.markers };
}

/** Reopens the store after a kill and checks everything a crash must not break. */
async function checkAfterKill(
  options: CrashLoopOptions,
  state: { acknowledged: Set<string>; markers: number },
  victim: WorkerProcess,
  round: string,
): Promise<{ inFlightPresent: boolean }> {
  const victimAcknowledged = victim.lines.map(parseCommitted).filter((line) => line !== undefined);
  for (const committed of victimAcknowledged) state.acknowledged.add(committed.batch);

  const store = options.openStore();
  try {
    const lastSeq = await store.lastSeq(CRASH_SESSION);
    const rows = await readWholeSession(store, CRASH_SESSION);
    expect(seqProblems(rows, lastSeq), `${round}: seq`).toEqual([]);
    expect(batchProblems(rows), `${round}: partial batches`).toEqual([]);
    expect(store.diagnostics().corruptRowsSkipped, `${round}: corrupt rows`).toBe(0);

    const present = batchesPresent(rows);
    expect(
      [...state.acknowledged].filter((batch) => !present.has(batch)),
      `${round}: acknowledged batches lost`,
    ).toEqual([]);
    // Only the append in flight at the kill may be present without its acknowledgement.
    const unacknowledged = [...present].filter(
      (batch) => batch.startsWith(`${victim.label}:`) && !state.acknowledged.has(batch),
    );
    expect(unacknowledged.length, `${round}: unacknowledged batches ${unacknowledged.join(",")}`).toBeLessThanOrEqual(
      1,
    );
    expect(
      rows.filter((row) => tagOf(row) === undefined),
      `${round}: marker rows`,
    ).toHaveLength(state.markers);

    // The search index agrees with the rows: the newest acknowledged batch is found whole.
    const newest = victimAcknowledged.at(-1);
    if (newest !== undefined) {
      const found = await store.search(CRASH_SESSION, { query: `(${newest.batch})`, mode: "literal", limit: 50 });
      expect(
        found.hits.map((hit) => hit.row.seq).sort((left, right) => left - right),
        `${round}: search`,
      ).toEqual(rows.filter((row) => tagOf(row)?.batch === newest.batch).map((row) => row.seq));
    }

    const [marker] = await store.append(CRASH_SESSION, [
      { role: "user", parts: [{ type: "text", text: `marker after ${round}` }], metadata: { marker: round } },
    ]);
    expect(marker?.seq, `${round}: marker seq`).toBe(lastSeq + 1);
    state.markers += 1;
    return { inFlightPresent: unacknowledged.length > 0 };
  } finally {
    await store.close();
  }
}
