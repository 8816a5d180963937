/**
 * A child process that opens a SQLite history store (migrating it if its format is older) and
 * exits, for the migration crash test. Started through `spawnTestWorker` (test/test-workers.ts):
 * `node open-store-worker.mjs <path>`.
 * It prints `opening` before the open and `opened` after it, synchronously, so a line printed
 * before a SIGKILL still reaches the parent.
 */
import { writeSync } from "node:fs";
import { openStore } from "../../open-store.js";

const file = process.argv[2];
if (file === undefined) throw new Error("usage: open-store-worker.ts <database path>");
writeSync(1, "opening\n");
const store = openStore({ path: file });
writeSync(1, "opened\n");
await store.close();
