/**
 * SIGKILL of a child process running a long agent session, at random moments, on one SQLite file
 * (50 kills) and on one PostgreSQL schema (30 kills): after each kill the session reopens with
 * every invariant intact, every acknowledged input stored, and the next process's sends work.
 * Moments are random but replayable: set CTXWIN_SESSION_CRASH_SEED to the seed a failure prints.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../store/open-store.js";
import { createTestDatabase, postgresUnavailable, type TestDatabase } from "../store/test-support/postgres-database.js";
import { createSeededRandom, seedFromEnvironment } from "../store/test-support/seeded-random.js";
import { readAllRows, sessionProblems } from "./test-support/session-invariants.js";
import { CRASH_SESSION, crashSession, type SessionWorkerStore } from "./test-support/session-worker.js";
import { startSessionWorker, type SessionWorker } from "./test-support/session-worker-process.js";
import { rowText } from "./test-support/session-fixture.js";

/** Workers started ahead of their turn, so their start-up overlaps the previous rounds. */
const STARTED_AHEAD = 2;
const directory = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-session-crash-"));
/** Workers started ahead of their round, by round. */
const pending = new Map<number, SessionWorker>();
let database: TestDatabase | undefined;
beforeAll(async () => {
  if (postgresUnavailable === "") database = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all([...pending.values()].map((worker) => worker.kill()));
  pending.clear();
  fs.rmSync(directory, { recursive: true, force: true });
  await database?.drop();
});

interface Backend {
  name: string;
  kills: number;
  /** Where the workers and the checks open the store. */
  config: () => SessionWorkerStore;
}

const backends: Backend[] = [
  { name: "sqlite", kills: 50, config: () => ({ path: path.join(directory, "ctxwin.db") }) },
  // Fewer kills: each round costs the same, and the append path under test is one transaction.
  { name: "postgres", kills: 30, config: () => ({ url: database!.url, schema: "session_crash" }) },
];

describe.each(backends)("session crash safety on $name", ({ name, kills: KILLS, config }) => {
  it.skipIf(name === "postgres" && postgresUnavailable !== "")(
    `survives ${KILLS} SIGKILLs at random moments of a long session`,
    { timeout: 600_000 },
    async () => {
      const seed = seedFromEnvironment("CTXWIN_SESSION_CRASH_SEED");
      const random = createSeededRandom(seed);
      const where = config();
      const openChecked = () =>
        openStore(where.url === undefined ? { path: where.path } : { url: where.url, schema: where.schema });
      const acknowledged: string[] = [];
      let rollovers = 0;
      const startAhead = (upTo: number) => {
        for (let round = 1; round <= Math.min(upTo, KILLS); round += 1)
          if (!pending.has(round) && !finished.has(round))
            pending.set(round, startSessionWorker({ ...where, label: `round-${round}` }));
      };
      const finished = new Set<number>();
      for (let round = 1; round <= KILLS; round += 1) {
        const context = `seed ${seed}, round ${round}`;
        startAhead(round + STARTED_AHEAD);
        const worker = pending.get(round)!;
        pending.delete(round);
        finished.add(round);
        try {
          await worker.waitForLines(/^ready$/, 1);
          worker.go();
          await worker.waitForLines(/^(step|rollover .*|warning|done .*)$/, random.integer(1, 14));
          await delay(random.integer(0, 25));
        } finally {
          await worker.kill();
        }
        for (const line of worker.lines) {
          const done = /^done (\S+) /.exec(line);
          if (done !== null) acknowledged.push(done[1]!);
          if (line.startsWith("rollover ")) rollovers += 1;
        }

        const store = openChecked();
        try {
          const rows = await readAllRows(store, CRASH_SESSION);
          expect(sessionProblems(rows, await store.lastSeq(CRASH_SESSION)), context).toEqual([]);
          const texts = new Set(rows.filter((row) => row.role === "user").map(rowText));
          expect(
            acknowledged.filter((label) => ![...texts].some((text) => text.startsWith(`${label}:`))),
            `${context}: acknowledged input lost`,
          ).toEqual([]);
          expect(store.diagnostics().corruptRowsSkipped, context).toBe(0);
        } finally {
          await store.close();
        }
      }
      expect(rollovers, `seed ${seed}: the runs must include rollovers`).toBeGreaterThan(0);
      console.log(
        `session crash test on ${name} (seed ${seed}): ${KILLS} kills, ${acknowledged.length} acknowledged sends, ${rollovers} rollovers`,
      );

      // After the last kill, a session in this process sends normally from the reopened store.
      const store = openChecked();
      try {
        const { session, calls } = crashSession(store);
        const result = await session.send("after the crashes: read some files and summarize");
        expect(result.status, `seed ${seed}`).toBe("completed");
        expect(calls.length).toBeGreaterThan(0);
        expect(sessionProblems(await readAllRows(store, CRASH_SESSION), await store.lastSeq(CRASH_SESSION))).toEqual(
          [],
        );
      } finally {
        await store.close();
      }
    },
  );
});
