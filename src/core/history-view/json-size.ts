/**
 * Byte accounting for JSON results: what a string costs once `JSON.stringify` has escaped it and
 * it is encoded as UTF-8. Lets a result be cut to a byte budget without serializing it repeatedly.
 */
import { isHighSurrogate, isLowSurrogate, startsSurrogatePair, utf8ByteLength } from "../code-units.js";

/**
 * UTF-8 bytes of `JSON.stringify(value)`.
 *
 * @example jsonByteLength({ a: "é" }) // 10
 */
export function jsonByteLength(value: unknown): number {
  return utf8ByteLength(JSON.stringify(value) ?? "");
}

/**
 * The end (exclusive) of the longest stretch of `text` from `start` that has at most `maxChars`
 * UTF-16 units and costs at most `maxBytes` once escaped into a JSON string. Never ends inside a
 * surrogate pair; `start` is taken as given.
 *
 * @example fitJsonPrefix({ text: 'a"b', start: 0, maxChars: 10, maxBytes: 3 }) // 2 ('a' 1 byte, '"' 2 bytes)
 */
export function fitJsonPrefix({
  text,
  start,
  maxChars,
  maxBytes,
}: {
  text: string;
  start: number;
  maxChars: number;
  maxBytes: number;
}): number {
  const limit = Math.min(text.length, start + Math.max(0, maxChars));
  let bytes = 0;
  let index = start;
  while (index < limit) {
    const code = text.charCodeAt(index);
    const paired = startsSurrogatePair(text, index);
    const units = paired ? 2 : 1;
    const cost = paired ? 4 : escapedCost(code);
    if (index + units > limit || bytes + cost > maxBytes) break;
    bytes += cost;
    index += units;
  }
  return index;
}

/** Bytes one UTF-16 unit (not half of a pair) takes inside a JSON string. */
function escapedCost(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (isHighSurrogate(code) || isLowSurrogate(code)) return 6;
  return 3;
}
