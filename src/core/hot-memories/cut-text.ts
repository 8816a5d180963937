/**
 * Byte-aware text cutting that never splits a character: cuts land on grapheme-cluster
 * boundaries, so neither a surrogate pair nor a combined emoji or accent is torn apart.
 */
import { splitsSurrogatePair, startsSurrogatePair } from "../code-units.js";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** How far around a cut the grapheme segmentation looks; longer clusters are cut at a code point. */
const SEGMENT_WINDOW = 256;

/**
 * The largest grapheme boundary at or before `index`.
 *
 * @example
 * boundaryAtOrBefore("a😀", 2) // 1
 */
export function boundaryAtOrBefore(text: string, index: number): number {
  if (index >= text.length) return text.length;
  if (index <= 0) return 0;
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  // Between two ASCII characters there is always a boundary, except inside CR LF.
  if (before < 0x80 && after < 0x80 && !(before === 0x0d && after === 0x0a)) return index;
  const start = Math.max(0, index - SEGMENT_WINDOW);
  const window = text.slice(start, Math.min(text.length, index + SEGMENT_WINDOW));
  let best = start;
  for (const segment of segmenter.segment(window)) {
    const boundary = start + segment.index;
    if (boundary > index) break;
    best = boundary;
  }
  if (best === start && start > 0) {
    // The cluster is longer than the window: fall back to the nearest code point boundary.
    return splitsSurrogatePair(text, index) ? index - 1 : index;
  }
  return best;
}

/**
 * The longest grapheme-aligned prefix of `text` for which `fits(prefix)` holds, assuming that
 * a longer prefix never fits where a shorter one does not. `upperBound` (in UTF-16 units) may
 * narrow the search. Returns `undefined` when even the empty prefix does not fit.
 *
 * @example
 * longestFittingPrefix({ text: "hello world", fits: (prefix) => prefix.length <= 5 }) // "hello"
 */
export function longestFittingPrefix({
  text,
  fits,
  upperBound = text.length,
}: {
  text: string;
  fits: (prefix: string) => boolean;
  upperBound?: number;
}): string | undefined {
  let low = 0;
  let high = Math.min(text.length, Math.max(0, upperBound));
  if (!fits("")) return undefined;
  if (fits(text.slice(0, boundaryAtOrBefore(text, high)))) return text.slice(0, boundaryAtOrBefore(text, high));
  // Invariant: the prefix cut at `low` fits, the one cut at `high` does not.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(text.slice(0, boundaryAtOrBefore(text, middle)))) low = middle;
    else high = middle;
  }
  return text.slice(0, boundaryAtOrBefore(text, low));
}

/**
 * The longest grapheme-aligned prefix of `text` of at most `maxBytes` UTF-8 bytes, in one pass.
 *
 * @example
 * prefixWithinBytes("ab😀c", 5) // "ab"
 */
export function prefixWithinBytes(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return "";
  let bytes = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    const pair = startsSurrogatePair(text, index);
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes) break;
    bytes += size;
    index += pair ? 2 : 1;
  }
  return text.slice(0, boundaryAtOrBefore(text, index));
}

/**
 * A long grapheme-aligned prefix of `text` whose `measure` is at most `limit`, found with few calls
 * of `measure` (for costly measures such as a tokenizer). Assumes that `measure` grows roughly in
 * proportion to the prefix length: each probe interpolates between the longest prefix known to fit
 * and the shortest known not to fit, and the search stops once they are within `tolerance`
 * (a fraction of the length) or after `maxProbes` probes. The result always fits, but may be
 * slightly shorter than the longest prefix that would. `undefined` when not even `""` fits.
 *
 * @example
 * longestPrefixWithin({ text: "a".repeat(1000), measure: (part) => Math.ceil(part.length / 4), limit: 100 }) // 400 × "a"
 */
export function longestPrefixWithin({
  text,
  measure,
  limit,
  tolerance = 0.01,
  maxProbes = 8,
}: {
  text: string;
  measure: (prefix: string) => number;
  limit: number;
  tolerance?: number;
  maxProbes?: number;
}): string | undefined {
  let low = 0;
  let lowValue = measure("");
  if (lowValue > limit) return undefined;
  let high = text.length;
  let highValue = measure(text);
  if (highValue <= limit) return text;
  for (let probe = 0; probe < maxProbes && high - low > Math.max(1, Math.floor(high * tolerance)); probe += 1) {
    // Aim a little below the interpolated point: landing just inside the limit usually ends the search.
    const ratio = highValue > lowValue ? ((limit - lowValue) / (highValue - lowValue)) * 0.995 : 0.5;
    let guess = boundaryAtOrBefore(text, low + Math.floor((high - low) * ratio));
    if (guess <= low || guess >= high) guess = boundaryAtOrBefore(text, Math.floor((low + high) / 2));
    if (guess <= low) break;
    const value = measure(text.slice(0, guess));
    if (value <= limit) {
      low = guess;
      lowValue = value;
    } else {
      high = guess;
      highValue = value;
    }
  }
  return text.slice(0, low);
}
