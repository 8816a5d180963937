/**
 * The seeded generator for tests and benchmarks (`core/seeded-random.ts`), and the seed a run uses:
 * a failing run prints its seed, and the same seed repeats it.
 */
export { createSeededRandom, type SeededRandom } from "../../core/seeded-random.js";

/** The seed named by an environment variable, or a fresh one; printed by tests on failure. */
export function seedFromEnvironment(variable: string): number {
  const given = process.env[variable];
  if (given !== undefined && /^\d+$/.test(given)) return Number(given) >>> 0;
  return Math.floor(Math.random() * 4_294_967_296) >>> 0;
}
