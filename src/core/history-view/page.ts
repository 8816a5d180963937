/**
 * Paging of one rendered item for `read_item`. Pages start and end on code-point edges, so the
 * pages of an item, read one after the other through `next_offset_chars`, concatenate to exactly
 * the rendered text. A page is also cut short when its JSON would not fit the byte budget.
 */
import { splitsSurrogatePair } from "../code-units.js";
import { fitJsonPrefix } from "./json-size.js";

export interface TextPage {
  text: string;
  /** Where the page starts: the requested offset, moved back one unit if it split a surrogate pair. */
  offsetChars: number;
  /** Where the next page starts (`offsetChars + text.length`). */
  endChars: number;
  totalChars: number;
  hasMore: boolean;
}

/**
 * One page of `text`: at most `limitChars` UTF-16 units (one whole character even when
 * `limitChars` is 1 and that character is a surrogate pair) and at most `maxBytes` once escaped
 * into a JSON string. `offsetChars` must be at most `text.length`.
 *
 * @example
 * pageText({ text: "abcdef", offsetChars: 2, limitChars: 3, maxBytes: 100 }) // { text: "cde", offsetChars: 2, endChars: 5, totalChars: 6, hasMore: true }
 */
export function pageText({
  text,
  offsetChars,
  limitChars,
  maxBytes,
}: {
  text: string;
  offsetChars: number;
  limitChars: number;
  maxBytes: number;
}): TextPage {
  let start = Math.max(0, Math.min(offsetChars, text.length));
  if (splitsSurrogatePair(text, start)) start -= 1;
  let end = fitJsonPrefix({ text, start, maxChars: limitChars, maxBytes });
  if (end === start && start < text.length && limitChars >= 1) {
    // The limit fell inside the first character: take that one character so paging always advances.
    end = fitJsonPrefix({ text, start, maxChars: 2, maxBytes });
  }
  return {
    text: text.slice(start, end),
    offsetChars: start,
    endChars: end,
    totalChars: text.length,
    hasMore: end < text.length,
  };
}
