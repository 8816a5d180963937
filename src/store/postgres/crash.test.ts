/**
 * A client killed with SIGKILL in the middle of appending to a PostgreSQL server never leaves part
 * of an append behind, and no acknowledged batch is lost (docs/design.md §4; invariant 7). One schema
 * is reused across every kill, so any damage would accumulate; the server sees each kill as a
 * connection that vanished, inside a transaction or between two. The loop is
 * `test-support/crash-loop.ts`, shared with the SQLite crash test.
 *
 * The moments are random but replayable: set CTXWIN_CRASH_SEED to the seed a failure printed.
 * After each kill the checks wait until the server has ended the worker's sessions: a COMMIT the
 * worker sent just before it died is still carried out, and must not land after the checks read.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
import { workerApplicationName } from "../test-support/append-worker-protocol.js";
import { killWorkersAfterEach, runCrashLoop } from "../test-support/crash-loop.js";
import { withTestDatabase, postgresUnavailable, type TestDatabase } from "../test-support/postgres-database.js";
import { createSeededRandom, seedFromEnvironment } from "../test-support/seeded-random.js";

const KILLS = 30;
const started = killWorkersAfterEach();

describe.skipIf(postgresUnavailable !== "")("postgres store, client killed with SIGKILL", () => {
  let database: TestDatabase;
  withTestDatabase((created) => (database = created));

  it(`keeps every batch whole across ${KILLS} kills and one during a huge batch, and accepts appends after each`, async () => {
    const seed = seedFromEnvironment("CTXWIN_CRASH_SEED");
    try {
      const { markers } = await runCrashLoop(
        {
          kills: KILLS,
          random: createSeededRandom(seed),
          target: { path: "", url: database.url, schema: "crash" },
          openStore: () => openStore({ url: database.url, schema: "crash" }),
          report: (line) => console.log(`postgres ${line}`),
          settle: (worker) => serverSessionsEnded(database.url, workerApplicationName(worker)),
        },
        started,
      );
      expect(markers).toBe(KILLS + 1);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(
        `postgres crash test failed with seed ${seed} (rerun with CTXWIN_CRASH_SEED=${seed}): ${message}`,
        { cause: error },
      );
    }
  }, 300_000);
});

/** Resolves once the server has no session named `applicationName` (polled; fails after 30 s). */
async function serverSessionsEnded(url: string, applicationName: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await expect
      .poll(
        async () =>
          (
            await client.query<{ count: string }>("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", [
              applicationName,
            ])
          ).rows[0]?.count,
        { timeout: 30_000, interval: 20, message: `the server sessions of ${applicationName} ended` },
      )
      .toBe("0");
  } finally {
    await client.end();
  }
}
