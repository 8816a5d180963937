/**
 * A writer killed with SIGKILL in the middle of appending never leaves part of an append behind
 * (docs/design.md §4: all rows of one call commit together or not at all; invariant 7). The same
 * database file is reused across every kill, so any damage would accumulate; after each kill the
 * file also passes SQLite's integrity check. The loop is `test-support/crash-loop.ts`.
 *
 * The moments are random but replayable: set CTXWIN_CRASH_SEED to the seed a failure printed.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
import { killWorkersAfterEach, runCrashLoop } from "../test-support/crash-loop.js";
import { createSeededRandom, seedFromEnvironment } from "../test-support/seeded-random.js";
import { temporaryDatabases } from "../test-support/temporary-database.js";

const KILLS = 50;

const started = killWorkersAfterEach();
const temporaryDatabase = temporaryDatabases("ctxwin-crash-");

function integrityOf(file: string): string {
  const db = new Database(file);
  try {
    return db.pragma("integrity_check", { simple: true }) as string;
  } finally {
    db.close();
  }
}

describe("sqlite store, writer killed with SIGKILL", () => {
  it(`keeps every batch whole across ${KILLS} kills and one during a huge batch, and accepts appends after each`, async () => {
    const seed = seedFromEnvironment("CTXWIN_CRASH_SEED");
    const file = temporaryDatabase();
    try {
      const { markers } = await runCrashLoop(
        {
          kills: KILLS,
          random: createSeededRandom(seed),
          target: { path: file, durability: "full" },
          openStore: () => openStore({ path: file }),
          afterKill: (round) => expect(integrityOf(file), `${round}: integrity`).toBe("ok"),
          report: (line) => console.log(line),
        },
        started,
      );
      expect(markers).toBe(KILLS + 1);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`crash test failed with seed ${seed} (rerun with CTXWIN_CRASH_SEED=${seed}): ${message}`, {
        cause: error,
      });
    }
  }, 180_000);
});
