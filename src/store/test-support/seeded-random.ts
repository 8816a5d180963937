/**
 * A small seeded pseudo-random generator (mulberry32) for tests that need random moments and
 * sizes that can be replayed: a failing run prints its seed, and the same seed repeats it.
 */

export interface SeededRandom {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer from `min` to `max`, both included. */
  integer(min: number, max: number): number;
}

/**
 * @example
 * const random = createSeededRandom(42);
 * const size = random.integer(1, 20);
 */
export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    seed,
    next,
    integer: (min, max) => min + Math.floor(next() * (max - min + 1)),
  };
}

/** The seed named by an environment variable, or a fresh one; printed by tests on failure. */
export function seedFromEnvironment(variable: string): number {
  const given = process.env[variable];
  if (given !== undefined && /^\d+$/.test(given)) return Number(given) >>> 0;
  return Math.floor(Math.random() * 4_294_967_296) >>> 0;
}
