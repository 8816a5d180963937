/**
 * A seeded pseudo-random source (mulberry32), so every suite draws the same items from the same
 * seed on every machine: `ctxwin eval` compares strategies on identical items, and `--resume`
 * finds the items it already ran by their ids.
 */

export interface RandomSource {
  /** A float in [0, 1). */
  next(): number;
  /** An integer from `min` to `max`, both included. */
  integer(min: number, max: number): number;
}

/**
 * @example
 * const random = createRandomSource(33);
 * const index = random.integer(0, 9);
 */
export function createRandomSource(seed: number): RandomSource {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, integer: (min, max) => min + Math.floor(next() * (max - min + 1)) };
}
