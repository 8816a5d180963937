/**
 * A client killed with SIGKILL in the middle of appending to a PostgreSQL server never leaves part
 * of an append behind, and no acknowledged batch is lost (docs/design.md §4; invariant 7). One schema
 * is reused across every kill, so any damage would accumulate; the server sees each kill as a
 * connection that vanished, inside a transaction or between two. The loop is
 * `test-support/crash-loop.ts`, shared with the SQLite crash test.
 *
 * The moments are random but replayable: set CTXWIN_CRASH_SEED to the seed a failure printed.
 */
import { describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
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
