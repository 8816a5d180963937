/**
 * Forks share rows by reference (ADR 0059), `npm run bench -- lineage`. On the SQLite default:
 * - fork of a 100,000-row session (CTXWIN_BENCH_LINEAGE_ROWS to change it) against a fork of a
 *   1,000-row session, each at the middle of its last window: goal p95 ≤ 2×, the cost does not
 *   grow with the history;
 * - reading the fork's history (a page of items across the fork point, a literal search, a ranked
 *   search, one early row) against the same reads of the original, interleaved: goal p50 ≤ 1.2×
 *   (one lineage lookup more; a ranked search of both parts in one walk of the word index).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { RowInput } from "../src/core/row.js";
import { openStore } from "../src/store/open-store.js";
import type { HistoryStore } from "../src/store/port.js";
import { formatMs, formatRatio, goal, time, timeInterleaved } from "./measure.js";

const WINDOW_ROWS = 200;
const BATCH_ROWS = 500;
const WORDS = ["ledger", "migration", "deploy", "invoice", "parser", "cache", "router", "schema", "budget", "window"];

function rowAt(seq: number): RowInput {
  if (seq % WINDOW_ROWS === 0) {
    const rolloverId = `r-${seq}`;
    return {
      role: "assistant",
      parts: [],
      boundary: { kind: "rollover" },
      meta: {
        type: "rollover",
        rolloverId,
        reason: "on-send",
        previousWindowId: "w:0",
        flushOpportunity: true,
        contextTokens: 900,
        maxTokens: 1000,
      },
    };
  }
  const word = WORDS[seq % WORDS.length];
  const text = `Step ${seq}: checked the ${word} module and noted token-${seq} for later. ${"context ".repeat(20)}`;
  return { role: seq % 2 === 0 ? "assistant" : "user", parts: [{ type: "text", text }] };
}

async function fill(store: HistoryStore, sessionId: string, rows: number): Promise<void> {
  for (let start = 1; start <= rows; start += BATCH_ROWS) {
    const batch: RowInput[] = [];
    for (let seq = start; seq < start + BATCH_ROWS && seq <= rows; seq += 1) batch.push(rowAt(seq));
    await store.append(sessionId, batch);
  }
}

export async function run(): Promise<void> {
  const bigRows = Number(process.env["CTXWIN_BENCH_LINEAGE_ROWS"] ?? 100_000);
  const directory = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-lineage-"));
  const store = openStore({ path: path.join(directory, "ctxwin.db"), durability: "normal" });
  try {
    const built = performance.now();
    await fill(store, "small", 1_000);
    await fill(store, "big", bigRows);
    console.log(
      `fixture: sessions of 1,000 and ${bigRows.toLocaleString("en")} rows, built in ${formatMs(performance.now() - built)}`,
    );

    const forkPoint = (rows: number) => rows - (rows % WINDOW_ROWS) - WINDOW_ROWS / 2;
    let forks = 0;
    const forkOf = (sessionId: string, rows: number) => async () => {
      forks += 1;
      await store.fork(sessionId, { atSeq: forkPoint(rows), newSessionId: `${sessionId}-fork-${forks}` });
    };
    const small = await time(forkOf("small", 1_000), { iterations: 40, warmup: 5 });
    const big = await time(forkOf("big", bigRows), { iterations: 40, warmup: 5 });
    console.log(`fork of 1,000 rows: p50 ${formatMs(small.p50)}, p95 ${formatMs(small.p95)}`);
    console.log(`fork of ${bigRows.toLocaleString("en")} rows: p50 ${formatMs(big.p50)}, p95 ${formatMs(big.p95)}`);
    goal("fork p95, big / small", big.p95 / small.p95, "<=", 2, formatRatio);

    const atSeq = forkPoint(bigRows);
    await store.fork("big", { atSeq, newSessionId: "big-reader" });
    await store.append("big-reader", [rowAt(atSeq + 1), rowAt(atSeq + 2)]);
    const reads = (sessionId: string) => async () => {
      await store.items(sessionId, { afterSeq: atSeq - 20, limit: 50 });
      await store.search(sessionId, { query: `token-${atSeq - 7}`, mode: "literal", limit: 10 });
      await store.search(sessionId, { query: "ledger migration", mode: "ranked", limit: 10 });
      await store.read(sessionId, 17);
    };
    // Interleaved: the machine's load changes within seconds, and the goal is a ratio of the two.
    const [original, forked] = await timeInterleaved([reads("big"), reads("big-reader")], {
      iterations: 60,
      warmup: 5,
    });
    if (original === undefined || forked === undefined) throw new Error("no timing");
    console.log(`reads of the original: p50 ${formatMs(original.p50)}, p95 ${formatMs(original.p95)}`);
    console.log(`the same reads of its fork: p50 ${formatMs(forked.p50)}, p95 ${formatMs(forked.p95)}`);
    goal("fork reads p50, fork / original", forked.p50 / original.p50, "<=", 1.2, formatRatio);
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
