/**
 * A small seeded pseudo-random generator (mulberry32): the same seed draws the same numbers on
 * every machine. `ctxwin eval` draws its items with it (strategies compare on identical items, and
 * `--resume` finds the items it ran by their ids); tests and benchmarks replay a failing run's
 * random moments and sizes from the seed it printed.
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

/**
 * A copy of `items` in an order drawn from `random` (Fisher–Yates): the same seed, the same order.
 *
 * @example const questions = shuffled(conversation.questions, random).slice(0, 20);
 */
export function shuffled<T>(items: readonly T[], random: SeededRandom): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = random.integer(0, index);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}
