/**
 * Keeps list results inside the byte budget: as many entries as fit, in order, and the caller
 * learns how many were kept so it can report `has_more` and the next page's parameters.
 */
import { jsonByteLength } from "./json-size.js";

export interface FittedResult<Result> {
  result: Result;
  /** How many of the entries the result holds (a prefix of them). */
  kept: number;
}

/**
 * Builds `build(entries.slice(0, kept))` for the largest `kept` whose JSON is at most `maxBytes`
 * UTF-8 bytes; `undefined` when not even the result without entries fits.
 *
 * @example
 * const { result, kept } = fitEntries({ entries: hits, maxBytes: 16_384, build: (page) => ({ hits: page }) })!;
 */
export function fitEntries<Entry, Result>({
  entries,
  build,
  maxBytes,
}: {
  entries: readonly Entry[];
  build: (kept: Entry[]) => Result;
  maxBytes: number;
}): FittedResult<Result> | undefined {
  const whole = build([...entries]);
  if (jsonByteLength(whole) <= maxBytes) return { result: whole, kept: entries.length };
  // Estimate from the empty result plus each entry's own size, then correct downward: the
  // parameters of the next page (built from the last kept entry) can change the size slightly.
  const empty = build([]);
  let budget = maxBytes - jsonByteLength(empty);
  let kept = 0;
  for (const entry of entries) {
    budget -= jsonByteLength(entry) + 1;
    if (budget < 0) break;
    kept += 1;
  }
  for (; kept >= 0; kept -= 1) {
    const result = build(entries.slice(0, kept));
    if (jsonByteLength(result) <= maxBytes) return { result, kept };
  }
  return undefined;
}
