/**
 * A child process that appends to a history store (a SQLite file, or a PostgreSQL server), for the multi-process, crash and
 * operation-id tests. Started through `spawnTestWorker` (test/test-workers.ts), which runs its bundle
 * with plain node: `node append-worker.mjs '<AppendWorkerConfig as JSON>'`; the protocol is in
 * `append-worker-protocol.ts`.
 */
import { writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { openStore } from "../open-store.js";
import type { RowInput } from "../../core/row.js";
import { StoreConnectionLostError, StoreUnavailableError } from "../errors.js";
import type { HistoryStore, StoredRow } from "../port.js";
import {
  GO_LINE,
  HUGE_WRITING_LINE,
  READY_LINE,
  formatCommitted,
  type AppendWorkerConfig,
  type RetryResult,
  workerApplicationName,
} from "./append-worker-protocol.js";
import { taggedRows } from "./row-tags.js";
import { createSeededRandom } from "./seeded-random.js";

/** The url with `application_name` set: the parent finds this worker's server sessions by it. */
function withApplicationName(url: string, name: string): string {
  const given = new URL(url);
  given.searchParams.set("application_name", name);
  return given.toString();
}

/** Synchronous, so a line printed before a SIGKILL still reaches the parent. */
function say(line: string): void {
  writeSync(1, `${line}\n`);
}

const config = JSON.parse(process.argv[2] ?? "{}") as AppendWorkerConfig;
let announceTransaction = false;
const openTheStore = () =>
  openStore({
    ...(config.url === undefined
      ? { path: config.path, durability: config.durability ?? "full" }
      : { url: withApplicationName(config.url, workerApplicationName(config.worker)), schema: config.schema }),
    // The store reads the clock inside its append transaction: the huge mode uses that moment to
    // tell the parent that rows are being written right now.
    now: () => {
      if (announceTransaction) {
        announceTransaction = false;
        say(HUGE_WRITING_LINE);
      }
      return new Date();
    },
  });
const early = config.openAfterGo === true ? undefined : openTheStore();

const input = createInterface({ input: process.stdin });
let stdinOpen = true;
const go = new Promise<void>((resolve) => {
  input.on("line", (line) => {
    if (line.trim() === GO_LINE) resolve();
  });
});
input.on("close", () => {
  stdinOpen = false;
});

say(READY_LINE);
await go;
const store = early ?? openTheStore();

let order = 0;
let batchNumber = 0;

async function appendBatch(target: HistoryStore, size: number, text?: (order: number) => string): Promise<void> {
  const batch = `${config.worker}:${batchNumber}`;
  batchNumber += 1;
  const rows = taggedRows({
    worker: config.worker,
    batch,
    size,
    firstOrder: order,
    ...(text ? { text: (tag) => text(tag.order) } : {}),
  });
  const stored =
    config.retryLostConnections === true
      ? await appendRetrying(target, batch, rows)
      : await target.append(config.sessionId, rows);
  order += size;
  say(formatCommitted({ batch, firstSeq: stored[0]?.seq ?? -1, lastSeq: stored.at(-1)?.seq ?? -1 }));
}

async function appendRetrying(target: HistoryStore, batch: string, rows: RowInput[]): Promise<StoredRow[]> {
  for (;;) {
    try {
      return await target.append(config.sessionId, rows, { operationId: batch });
    } catch (error) {
      if (!StoreConnectionLostError.isInstance(error) && !StoreUnavailableError.isInstance(error)) throw error;
      say(`retry ${batch} ${error.name}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

async function runBatches(random: ReturnType<typeof createSeededRandom>): Promise<void> {
  const maxBatches = config.maxBatches ?? Number.POSITIVE_INFINITY;
  for (let count = 0; count < maxBatches && stdinOpen; count += 1) {
    await appendBatch(store, random.integer(1, 20));
  }
}

switch (config.mode) {
  case "interleaved":
    for (let call = 0; call < (config.interleavedCalls ?? 550); call += 1)
      await appendBatch(store, call % 11 === 10 ? 10 : 1);
    break;
  case "batches":
    await runBatches(createSeededRandom(config.seed ?? 1));
    break;
  case "huge": {
    await appendBatch(store, 3);
    const random = createSeededRandom(config.seed ?? 1);
    const filler = Array.from({ length: 4096 }, () => "abcdefghijklmnopqrstuvwxyz "[random.integer(0, 26)]).join("");
    const chars = config.hugeRowChars ?? 50_000;
    const body = filler.repeat(Math.ceil(chars / filler.length)).slice(0, chars);
    announceTransaction = true;
    await appendBatch(store, config.hugeRows ?? 200, (rowOrder) => `huge row ${rowOrder} ${body}`);
    break;
  }
  case "retry": {
    const stored = await store.append(
      config.sessionId,
      taggedRows({ worker: config.worker, batch: `${config.worker}:retry`, size: config.rowCount ?? 1, firstOrder: 0 }),
      {
        ...(config.operationId === undefined ? {} : { operationId: config.operationId }),
        ...(config.expectLastSeq === undefined ? {} : { expectLastSeq: config.expectLastSeq }),
      },
    );
    const result: RetryResult = {
      seqs: stored.map((row) => row.seq),
      ids: stored.map((row) => row.id),
      lastSeq: await store.lastSeq(config.sessionId),
    };
    say(`result ${JSON.stringify(result)}`);
    if (config.holdAfterwards === true) await new Promise((resolve) => input.on("close", resolve));
    break;
  }
}

await store.close();
say("done");
process.exit(0);
