/**
 * The text a row is searched by (ADR 0048, 0053). The row is stored whole; search holds its
 * rendered text (`renderRowText`) without the agent's own history lookups, with each text part,
 * tool input and tool output cut to its first `MAX_SEARCH_VALUE_CHARS` characters (no marker). Every backend indexes this text and verifies
 * literal matches against it, so all of them find the same rows and indexing a row of megabytes
 * costs at most a few megabytes of index.
 */
import { renderRowText } from "./row-text.js";

/**
 * Characters of each text part, tool input and tool output that search holds; the rest is stored
 * and readable (`read_item` pages it) but not found. Equal to the importers' cut
 * (`MAX_IMPORTED_TEXT_CHARS`), so an imported value is searchable whole.
 */
export const MAX_SEARCH_VALUE_CHARS = 1_000_000;

/**
 * @example
 * renderSearchText({ parts: [{ type: "text", text: "hello" }] }) // "hello"
 */
export function renderSearchText(row: { parts: readonly { type: string; [key: string]: unknown }[] }): string {
  return renderRowText(row, {
    maxValueChars: MAX_SEARCH_VALUE_CHARS,
    maxTextChars: MAX_SEARCH_VALUE_CHARS,
    truncationMarker: "",
    omitHistoryCalls: true,
  });
}
