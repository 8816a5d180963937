/**
 * `operationId` makes an append retry-safe across processes (docs/design.md §4): a retry from another
 * process, after the first writer was killed, or racing the first attempt returns the first
 * result and writes nothing new. The in-process case is in the conformance suite; these cases
 * need the SQLite backend and real child processes (the test process is one of the writers).
 */
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "./open-store.js";
import type { HistoryStore } from "./port.js";
import {
  GO_LINE,
  parseRetryResult,
  type AppendWorkerConfig,
  type RetryResult,
} from "./test-support/append-worker-protocol.js";
import { tagOf } from "./test-support/row-tags.js";
import { readWholeSession, seqProblems } from "./test-support/transcript-checks.js";
import { temporaryDatabases } from "./test-support/temporary-database.js";
import { startAppendWorker, type WorkerProcess } from "./test-support/worker-process.js";

const SESSION = "retry";
// Registered first, so that its folders are removed after the hook below has closed what used them.
const temporaryDatabase = temporaryDatabases("ctxwin-operation-id-");
const started: WorkerProcess[] = [];
const stores: HistoryStore[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((worker) => worker.kill()));
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

function open(file: string): HistoryStore {
  const store = openStore({ path: file });
  stores.push(store);
  return store;
}

function start(file: string, config: Omit<AppendWorkerConfig, "mode" | "path" | "sessionId">): WorkerProcess {
  const worker = startAppendWorker({ mode: "retry", path: file, sessionId: SESSION, ...config });
  started.push(worker);
  return worker;
}

/** Lets the workers go together and returns what each reported. */
async function resultsOf(...workers: WorkerProcess[]): Promise<RetryResult[]> {
  await Promise.all(workers.map((worker) => worker.waitForLine(/^ready$/)));
  for (const worker of workers) worker.send(GO_LINE);
  const lines = await Promise.all(workers.map((worker) => worker.waitForLine(/^result /)));
  return lines.map((line) => parseRetryResult(line) as RetryResult);
}

const writersOf = async (store: HistoryStore) =>
  (await readWholeSession(store, SESSION)).map((row) => tagOf(row)?.worker ?? "untagged");

describe("operationId retries across processes (sqlite)", () => {
  it("a retry from a second process returns the first result and writes nothing", async () => {
    const file = temporaryDatabase();
    const store = open(file);
    const tagged = (worker: string, size: number) =>
      Array.from({ length: size }, (_unused, index) => ({
        role: "user" as const,
        parts: [{ type: "text" as const, text: `${worker} ${index}` }],
        metadata: { worker, batch: `${worker}:0`, index, size, order: index },
      }));
    const first = await store.append(SESSION, tagged("first", 3), { operationId: "op-x", expectLastSeq: 0 });
    expect(first.map((row) => row.seq)).toEqual([1, 2, 3]);

    // Different rows and the same, now stale, expectLastSeq: a retry carries what the first
    // attempt carried.
    const [retry] = await resultsOf(
      start(file, { worker: "second", operationId: "op-x", rowCount: 2, expectLastSeq: 0 }),
    );
    expect(retry).toEqual({ seqs: [1, 2, 3], ids: first.map((row) => row.id), lastSeq: 3 });
    expect(await writersOf(store)).toEqual(["first", "first", "first"]);
    expect(await store.lastSeq(SESSION)).toBe(3);
  });

  it("a retry after the first writer was killed returns what that writer committed", async () => {
    const file = temporaryDatabase();
    const store = open(file);
    await store.append(SESSION, [{ role: "user", parts: [{ type: "text", text: "before" }] }]);
    const victim = start(file, { worker: "victim", operationId: "op-k", rowCount: 4, holdAfterwards: true });
    const [committed] = await resultsOf(victim);
    expect(committed).toMatchObject({ seqs: [2, 3, 4, 5], lastSeq: 5 });
    // Killed with its store still open: its caller never learned whether the append landed.
    expect((await victim.kill()).signal).toBe("SIGKILL");

    const retry = await store.append(SESSION, [{ role: "user", parts: [{ type: "text", text: "retried" }] }], {
      operationId: "op-k",
    });
    expect(retry.map((row) => row.seq)).toEqual(committed?.seqs);
    expect(retry.map((row) => row.id)).toEqual(committed?.ids);
    expect(await store.lastSeq(SESSION)).toBe(5);
    expect(await writersOf(store)).toEqual(["untagged", "victim", "victim", "victim", "victim"]);
  });

  it("processes racing with the same operationId write it once and all get the same result", async () => {
    const file = temporaryDatabase();
    const store = open(file);
    await store.close();
    const racers = ["a", "b", "c"].map((worker) => start(file, { worker, operationId: "op-race", rowCount: 5 }));

    const results = await resultsOf(...racers);

    const reader = open(file);
    const rows = await readWholeSession(reader, SESSION);
    expect(seqProblems(rows, await reader.lastSeq(SESSION))).toEqual([]);
    expect(rows).toHaveLength(5);
    const winner = tagOf(rows[0] as (typeof rows)[number])?.worker;
    expect(rows.every((row) => tagOf(row)?.worker === winner)).toBe(true);
    for (const result of results)
      expect(result.seqs.map((seq, index) => [seq, result.ids[index]])).toEqual(rows.map((row) => [row.seq, row.id]));
  });
});
