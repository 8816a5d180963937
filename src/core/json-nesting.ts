/**
 * How deep a JSON text nests arrays and objects, read from the text without parsing it and without
 * recursion: a request nested 100,000 levels deep is refused before anything (JSON.parse, a schema,
 * the AI SDK, `JSON.stringify`) walks it one stack frame per level. Whether a deep walk overflows
 * depends on the engine's stack (Node 20's and Node 26's differ), so the limit is checked, not caught.
 */

/** Character codes of JSON's structure, for scanners that read JSON text or bytes without parsing it. */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;

/**
 * Whether `text` nests arrays and objects more than `maxDepth` levels (the outermost value is
 * level 1). Brackets inside strings do not count; the text need not be valid JSON.
 *
 * @example jsonNestsDeeperThan('{"a":[[1]]}', 2) // true
 */
export function jsonNestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if ((depth += 1) > maxDepth) return true;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) depth -= 1;
  }
  return false;
}
