/**
 * Finds the `id` of a JSON-RPC message that is too large to parse, by scanning its bytes as they
 * arrive: only the top-level object's `"id"` member counts (an `"id"` inside `params` is not the
 * request's), and only its value is kept, so the scan holds a few bytes however long the line is.
 * The SDK's own client writes `id` last, after `params`, so the whole line is scanned.
 */
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from "../../core/json-nesting.js";

const COLON = 0x3a;
const COMMA = 0x2c;
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** The raw text of an id longer than this is not kept (ids are short strings or integers). */
const MAX_ID_BYTES = 256;
const ID_KEY = [0x69, 0x64];

export interface TopLevelIdScanner {
  /** Scans the next bytes of the line. */
  feed: (bytes: Uint8Array) => void;
  /** The top-level `id` seen so far, when it is a string or an integer. */
  id: () => string | number | undefined;
}

type Expecting = "start" | "key" | "colon" | "value" | "after-value" | "done";

/**
 * @example
 * const scanner = createTopLevelIdScanner();
 * scanner.feed(Buffer.from('{"params":{"id":1},"id":7}'));
 * scanner.id(); // 7
 */
export function createTopLevelIdScanner(): TopLevelIdScanner {
  let expecting: Expecting = "start";
  let depth = 0;
  let inString = false;
  let escaped = false;
  let key: number[] | undefined;
  let keyIsId = false;
  let value: number[] | undefined;
  let found: number[] | undefined;

  const endValue = () => {
    if (keyIsId) found = value;
    value = undefined;
    keyIsId = false;
  };

  const keepValueByte = (byte: number) => {
    if (value === undefined) return;
    if (value.length < MAX_ID_BYTES) value.push(byte);
    else value = undefined;
  };

  const inStringByte = (byte: number) => {
    const closes = !escaped && byte === QUOTE;
    escaped = !escaped && byte === BACKSLASH;
    keepValueByte(byte);
    if (!closes) {
      if (key !== undefined && key.length <= ID_KEY.length) key.push(byte);
      return;
    }
    inString = false;
    if (key !== undefined) {
      keyIsId = key.length === ID_KEY.length && key.every((keyByte, index) => keyByte === ID_KEY[index]);
      key = undefined;
    }
  };

  const topLevelByte = (byte: number) => {
    if (expecting === "key") {
      if (byte === QUOTE) [inString, key, expecting] = [true, [], "colon"];
      else if (byte === CLOSE_OBJECT) expecting = "done";
    } else if (expecting === "colon") {
      if (byte === COLON) expecting = "value";
    } else if (expecting === "value") {
      expecting = "after-value";
      if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth += 1;
      else if (keyIsId) value = [byte];
      if (byte === QUOTE) inString = true;
    } else if (byte === COMMA || byte === CLOSE_OBJECT) {
      endValue();
      expecting = byte === COMMA ? "key" : "done";
    } else {
      keepValueByte(byte);
    }
  };

  const feedByte = (byte: number) => {
    if (inString) return inStringByte(byte);
    if (WHITESPACE.has(byte)) return;
    if (expecting === "start") {
      expecting = byte === OPEN_OBJECT ? "key" : "done";
      depth = 1;
      return;
    }
    if (depth > 1) {
      if (byte === QUOTE) inString = true;
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth += 1;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth -= 1;
      return;
    }
    topLevelByte(byte);
  };

  return {
    feed: (bytes) => {
      for (const byte of bytes) {
        if (expecting === "done") return;
        feedByte(byte);
      }
    },
    id: () => {
      if (found === undefined) return undefined;
      try {
        const parsed: unknown = JSON.parse(Buffer.from(found).toString("utf8"));
        return typeof parsed === "string" || Number.isSafeInteger(parsed) ? (parsed as string | number) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
