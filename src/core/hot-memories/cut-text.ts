/**
 * Byte-aware text cutting that never splits a character: cuts land on grapheme-cluster
 * boundaries, so neither a surrogate pair nor a combined emoji or accent is torn apart.
 */

/**
 * Length of `text` in UTF-8 bytes (a lone surrogate counts as the 3 bytes of U+FFFD).
 *
 * @example
 * utf8ByteLength("é😀") // 6
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

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
    const code = text.charCodeAt(index);
    return isLowSurrogate(code) && isHighSurrogate(text.charCodeAt(index - 1)) ? index - 1 : index;
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

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
