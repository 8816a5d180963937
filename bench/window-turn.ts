/**
 * One agent turn's store work — read the active window, append one row — timed on a long session
 * and on a short one, interleaved so that noise from the shared machine hits both alike. Shared by
 * the SQLite and PostgreSQL store benchmarks; the ratio long / short is the figure that matters.
 */
import { performance } from "node:perf_hooks";
import type { HistoryStore } from "../src/store/port.js";
import type { SeededRandom } from "../src/store/test-support/seeded-random.js";
import { chop, contentRow, rolloverRows } from "../src/store/test-support/synthetic-transcript.js";
import { formatMs, formatRatio, summarize, type Timing } from "./measure.js";

export interface TurnTarget {
  label: string;
  store: HistoryStore;
  sessionId: string;
}

interface Samples extends TurnTarget {
  activeWindow: number[];
  append: number[];
}

/** Opens a fresh window of 50 rows (rollover boundary, lead-in, 48 rows), outside the timings. */
async function freshWindow(target: TurnTarget, random: SeededRandom, sentences: readonly string[]): Promise<void> {
  const { boundarySeq } = await target.store.activeWindow(target.sessionId);
  const rows = Array.from({ length: 48 }, (_unused, index) => contentRow(chop(sentences, random, 160), random, index));
  await target.store.append(target.sessionId, [
    ...rolloverRows(`bench-${process.pid}-${Date.now()}-${random.next()}`, boundarySeq),
    ...rows,
  ]);
}

/**
 * Prints p50/p95 of activeWindow, append and both per target, and returns the headline ratio
 * (long / short, p50 of activeWindow + append).
 *
 * @example const ratio = await compareWindowTurn({ long, short, sentences, random });
 */
export async function compareWindowTurn({
  long,
  short,
  sentences,
  random,
  iterations = 300,
  warmup = 20,
}: {
  long: TurnTarget;
  short: TurnTarget;
  sentences: readonly string[];
  random: SeededRandom;
  iterations?: number;
  warmup?: number;
}): Promise<number> {
  const targets: Samples[] = [long, short].map((target) => ({ ...target, activeWindow: [], append: [] }));
  for (const target of targets) await freshWindow(target, random, sentences);
  for (let iteration = 0; iteration < warmup + iterations; iteration += 1) {
    for (const target of targets) {
      const before = performance.now();
      const window = await target.store.activeWindow(target.sessionId);
      const between = performance.now();
      await target.store.append(target.sessionId, [contentRow(chop(sentences, random, 160), random, iteration)]);
      const after = performance.now();
      if (iteration >= warmup) {
        target.activeWindow.push(between - before);
        target.append.push(after - between);
      }
      if (window.rows.length >= 100) await freshWindow(target, random, sentences);
    }
  }
  const combined = (target: Samples) =>
    summarize(target.activeWindow.map((value, index) => value + (target.append[index] ?? 0)));
  for (const target of targets) {
    const window = summarize(target.activeWindow);
    const append = summarize(target.append);
    const both = combined(target);
    console.log(
      `${target.label.padEnd(24)} activeWindow p50 ${formatMs(window.p50)} p95 ${formatMs(window.p95)} | ` +
        `append p50 ${formatMs(append.p50)} p95 ${formatMs(append.p95)} | ` +
        `both p50 ${formatMs(both.p50)} p95 ${formatMs(both.p95)}`,
    );
  }
  const [longSamples, shortSamples] = targets as [Samples, Samples];
  const ratio = (pick: (target: Samples) => Timing) => pick(longSamples).p50 / pick(shortSamples).p50;
  console.log(
    "ratios (long / short, p50): activeWindow " +
      `${formatRatio(ratio((target) => summarize(target.activeWindow)))}, ` +
      `append ${formatRatio(ratio((target) => summarize(target.append)))}`,
  );
  return ratio(combined);
}
