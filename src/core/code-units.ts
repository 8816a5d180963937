/**
 * Strings as UTF-16 code units: where a surrogate pair starts, where a cut would tear one apart,
 * and what a string costs once encoded as UTF-8.
 */

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * True when a surrogate pair starts at `index` (its halves are `index` and `index + 1`).
 *
 * @example startsSurrogatePair("a😀", 1) // true
 */
export function startsSurrogatePair(text: string, index: number): boolean {
  return (
    isHighSurrogate(text.charCodeAt(index)) && index + 1 < text.length && isLowSurrogate(text.charCodeAt(index + 1))
  );
}

/**
 * True when `index` falls between the two halves of a surrogate pair: a cut there would tear it.
 *
 * @example splitsSurrogatePair("a😀", 2) // true
 */
export function splitsSurrogatePair(text: string, index: number): boolean {
  return index > 0 && startsSurrogatePair(text, index - 1);
}

/**
 * UTF-8 bytes of `text` (a lone surrogate counts as the 3 bytes of U+FFFD).
 *
 * @example utf8ByteLength("a€😀") // 1 + 3 + 4 = 8
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (startsSurrogatePair(text, index)) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}
