/**
 * A rejected input larger than the store's row limit (`maxRowBytes`, ADR 0048) is kept as far as
 * the store allows (ADR 0069): its text parts are cut to the longest beginning that fits, a file
 * part that cannot fit is replaced by a line naming it, and `meta.cut` says what is missing. The
 * message is never sent either way; what is kept is the source of an edit.
 */
import { fitJsonPrefix } from "../history-view/json-size.js";
import type { RowInput, RowPart } from "../row.js";

/** What `meta.cut` of a cut `rejected-input` row records. */
export interface InputCut {
  /** Characters of the input's text parts as typed. */
  totalChars: number;
  /** Characters of them kept (a beginning of each part, in order). */
  keptChars: number;
  /** File parts replaced by a line naming them. */
  droppedFiles: number;
  /** The store's limit the row had to fit (bytes of JSON). */
  maxRowBytes: number;
}

/** Room left for JSON the row gains on the way into the store (rounding, an id). */
const MARGIN_BYTES = 256;

/**
 * @example
 * cutRowToBytes(rejectedInputRow({ parts, ... }), 1_000_000).meta?.cut // { totalChars, keptChars, ... }
 */
export function cutRowToBytes(row: RowInput, maxRowBytes: number): RowInput {
  const totalChars = textChars(row.parts);
  const placeholder: InputCut = { totalChars, keptChars: totalChars, droppedFiles: row.parts.length, maxRowBytes };
  const overhead = jsonBytes({
    ...row,
    parts: [],
    meta: { ...row.meta, type: row.meta?.type ?? "rejected-input", cut: placeholder },
  });
  const { parts, droppedFiles } = cutPartsToBytes(row.parts, Math.max(0, maxRowBytes - overhead - MARGIN_BYTES));
  const cut: InputCut = { totalChars, keptChars: textChars(parts), droppedFiles, maxRowBytes };
  return { ...row, parts, meta: { ...row.meta, type: row.meta?.type ?? "rejected-input", cut } };
}

/**
 * Parts whose JSON array takes at most `maxBytes`: a file part is kept when it takes at most half
 * the room still left (else a line names it), then each text part keeps the longest beginning
 * that fits, in order.
 *
 * @example cutPartsToBytes([{ type: "text", text: "a".repeat(100) }], 50).parts // [{ type: "text", text: "aaa…" }] (23 "a")
 */
export function cutPartsToBytes(
  parts: readonly RowPart[],
  maxBytes: number,
): { parts: RowPart[]; droppedFiles: number } {
  // "[" and "]", a comma between parts, and each text part's empty shell.
  let left = maxBytes - 2 - Math.max(0, parts.length - 1);
  for (const part of parts) if (part.type === "text") left -= jsonBytes({ ...part, text: "" });
  let droppedFiles = 0;
  const withFiles = parts.map((part): RowPart => {
    if (part.type === "text") return part;
    const bytes = jsonBytes(part);
    if (part.type !== "file" || bytes <= left / 2) {
      left -= bytes;
      return part;
    }
    droppedFiles += 1;
    const named: RowPart = {
      type: "text",
      text: `[file ${part.filename ?? "(unnamed)"}, ${part.mediaType}: not kept, too large to store]`,
    };
    left -= jsonBytes(named);
    return named;
  });
  const kept = withFiles.map((part, index): RowPart => {
    if (part.type !== "text" || parts[index]?.type !== "text") return part;
    const length = jsonPrefixLength(part.text, Math.max(0, left));
    left -= jsonBytes(part.text.slice(0, length)) - 2;
    return length === part.text.length ? part : { ...part, text: part.text.slice(0, length) };
  });
  return { parts: kept, droppedFiles };
}

/**
 * The longest beginning of `text` whose JSON string content (quotes not counted) takes at most
 * `maxBytes` of UTF-8; never splits a surrogate pair.
 *
 * @example jsonPrefixLength('a"b', 3) // 2: `a` is 1 byte, `\"` is 2
 */
export function jsonPrefixLength(text: string, maxBytes: number): number {
  return fitJsonPrefix({ text, start: 0, maxChars: text.length, maxBytes });
}

function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

function textChars(parts: readonly RowPart[]): number {
  return parts.reduce((sum, part) => sum + (part.type === "text" ? part.text.length : 0), 0);
}
