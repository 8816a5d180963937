/**
 * Small timing helpers shared by the benchmarks. Figures are reported as medians and p95 over
 * repeated runs, and compared as ratios within one run.
 */
import { performance } from "node:perf_hooks";

export interface Timing {
  samples: number[];
  p50: number;
  p95: number;
  mean: number;
}

export function summarize(samples: number[]): Timing {
  const sorted = [...samples].sort((left, right) => left - right);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
  return {
    samples,
    p50: at(0.5),
    p95: at(0.95),
    mean: sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length),
  };
}

/** Runs `body` `warmup` times unmeasured, then `iterations` times measured (milliseconds). */
export async function time(
  body: () => unknown,
  { iterations = 50, warmup = 5 }: { iterations?: number; warmup?: number } = {},
): Promise<Timing> {
  for (let index = 0; index < warmup; index += 1) await body();
  const samples: number[] = [];
  for (let index = 0; index < iterations; index += 1) {
    const start = performance.now();
    await body();
    samples.push(performance.now() - start);
  }
  return summarize(samples);
}

/**
 * Runs each body once per round, in turns whose order alternates, so that the shared machine's
 * noise hits them alike; `warmup` rounds unmeasured, then `iterations` measured (milliseconds).
 */
export async function timeInterleaved(
  bodies: readonly (() => unknown)[],
  { iterations = 50, warmup = 5 }: { iterations?: number; warmup?: number } = {},
): Promise<Timing[]> {
  const samples = bodies.map((): number[] => []);
  for (let round = 0; round < warmup + iterations; round += 1) {
    const order = bodies.map((_body, index) => index);
    if (round % 2 === 1) order.reverse();
    for (const index of order) {
      const start = performance.now();
      await bodies[index]?.();
      if (round >= warmup) samples[index]?.push(performance.now() - start);
    }
  }
  return samples.map(summarize);
}

export function formatMs(value: number): string {
  return value >= 100
    ? `${value.toFixed(0)} ms`
    : value >= 1
      ? `${value.toFixed(2)} ms`
      : `${(value * 1000).toFixed(0)} µs`;
}

export function formatRatio(value: number): string {
  return `${value.toFixed(2)}×`;
}

/** Prints a goal line: `PASS`/`MISS` against a stated goal. */
export function goal(
  label: string,
  value: number,
  comparison: "<=" | ">=",
  target: number,
  format: (value: number) => string = String,
): void {
  const met = comparison === "<=" ? value <= target : value >= target;
  console.log(`${met ? "PASS" : "MISS"}  ${label}: ${format(value)} (goal ${comparison} ${format(target)})`);
}
