/**
 * Previews and snippets: short excerpts of a rendered row. A snippet is a verbatim stretch of the
 * rendered text with its offset, so `read_item` can continue from exactly there; a preview is a
 * single line. Neither ever cuts a UTF-16 surrogate pair.
 */
import { sliceSafe } from "../row-text.js";
import { rankedTerms } from "../search-query.js";
import { textRuns } from "../text-runs.js";
import { splitsSurrogatePair, startsSurrogatePair } from "../code-units.js";

/** A stretch of text that starts `offsetChars` UTF-16 units into the rendered item. */
export interface Excerpt {
  text: string;
  offsetChars: number;
}

/** Where a match lies in the original text (UTF-16 units). */
export interface MatchSpan {
  start: number;
  length: number;
}

const whitespaceRun = /[\s\u0000-\u001f\u007f]+/g;

/**
 * One line of at most `maxChars` units: whitespace and control characters collapsed to a space,
 * cut with `…` when longer.
 *
 * @example oneLinePreview({ text: "a\n\n b", maxChars: 10 }) // "a b"
 */
export function oneLinePreview({ text, maxChars }: { text: string; maxChars: number }): string {
  // Look at a bounded head only: a preview never needs more than a few times its length.
  const head = text.length > maxChars * 4 + 64 ? sliceSafe(text, 0, maxChars * 4 + 64) : text;
  const line = head.replace(whitespaceRun, " ").trim();
  if (line.length <= maxChars && head.length === text.length) return line;
  return `${sliceSafe(line, 0, maxChars - 1)}…`;
}

/**
 * At most `maxChars` units of `text` around a match, the match placed about a third of the way
 * in (or as much of the match as fits).
 *
 * @example excerptAround({ text: "0123456789", match: { start: 5, length: 1 }, maxChars: 4 }) // { text: "4567", offsetChars: 4 }
 */
export function excerptAround({
  text,
  match,
  maxChars,
}: {
  text: string;
  match: MatchSpan;
  maxChars: number;
}): Excerpt {
  const before = Math.floor(Math.max(0, maxChars - match.length) / 3);
  let start = Math.max(0, Math.min(match.start - before, text.length - maxChars));
  if (splitsSurrogatePair(text, start)) start += 1;
  const excerpt = sliceSafe(text, start, start + maxChars);
  return { text: excerpt, offsetChars: start };
}

/**
 * The first case-insensitive occurrence of `query` in `text`, as literal search matches it
 * (`toLowerCase` on both sides), mapped back to offsets in the original text.
 *
 * @example findLiteralMatch({ text: "Hello World", query: "WORLD" }) // { start: 6, length: 5 }
 */
export function findLiteralMatch({ text, query }: { text: string; query: string }): MatchSpan | undefined {
  const folded = text.toLowerCase();
  const needle = query.toLowerCase();
  if (needle.length === 0) return undefined;
  const index = folded.indexOf(needle);
  if (index < 0) return undefined;
  if (folded.length === text.length) return { start: index, length: needle.length };
  // Lower-casing changed the length (e.g. "İ" becomes two units): walk code points to map back.
  let foldedPosition = 0;
  let start: number | undefined;
  let position = 0;
  while (position < text.length) {
    const width = codePointWidth(text, position);
    const next = foldedPosition + text.slice(position, position + width).toLowerCase().length;
    if (start === undefined && next > index) start = position;
    foldedPosition = next;
    position += width;
    if (start !== undefined && foldedPosition >= index + needle.length) break;
  }
  const from = start ?? text.length;
  return { start: from, length: position - from };
}

/** What a word run of ranked search's snippets is made of: letters, digits and their marks. */
export const WORD_RUN_CLASS = "[\\p{L}\\p{N}\\p{M}]";

/**
 * A word of `text` that ranked search counts as one of `words` (terms as `rankedQueryWords` gives
 * them: folded and stemmed): the first one written exactly as a term, else the first whose stem
 * is one ("painted" for "paint").
 *
 * @example findWordMatch({ text: "A café here", words: ["cafe"] }) // { start: 2, length: 4 }
 */
export function findWordMatch({ text, words }: { text: string; words: readonly string[] }): MatchSpan | undefined {
  const wanted = new Set(words);
  if (wanted.size === 0) return undefined;
  const fast = findPlainWord(text, wanted);
  if (fast !== undefined) return fast;
  // Bounded regex loops (`text-runs.ts`): a word of megabytes must not overflow V8's regex stack.
  for (const run of textRuns(text, { classes: [WORD_RUN_CLASS] })) {
    if (rankedTerms(text.slice(run.start, run.end)).some((word) => wanted.has(word)))
      return { start: run.start, length: run.end - run.start };
  }
  return undefined;
}

/** Fast path: ASCII words found by `indexOf` at word edges (no diacritics to fold). */
function findPlainWord(text: string, wanted: ReadonlySet<string>): MatchSpan | undefined {
  const folded = text.toLowerCase();
  if (folded.length !== text.length) return undefined;
  let best: MatchSpan | undefined;
  for (const word of wanted) {
    if (!/^[a-z0-9]+$/.test(word)) continue;
    let from = 0;
    while (from <= folded.length) {
      const index = folded.indexOf(word, from);
      if (index < 0 || (best !== undefined && index >= best.start)) break;
      if (!isWordCharacter(folded, index - 1) && !isWordCharacter(folded, index + word.length)) {
        best = { start: index, length: word.length };
        break;
      }
      from = index + 1;
    }
  }
  return best;
}

const wordCharacter = /[\p{L}\p{N}\p{M}]/u;

function isWordCharacter(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) return false;
  const code = text.charCodeAt(index);
  if (code < 0x80)
    return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  // A surrogate half: test the whole code point it belongs to.
  const start = splitsSurrogatePair(text, index) ? index - 1 : index;
  return wordCharacter.test(text.slice(start, start + codePointWidth(text, start)));
}

function codePointWidth(text: string, index: number): number {
  return startsSurrogatePair(text, index) ? 2 : 1;
}
