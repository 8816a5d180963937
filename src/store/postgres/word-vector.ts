/**
 * The `tsvector` of a row's ranked-search words, built by ctxwin rather than by the server's text
 * parser, so that PostgreSQL ranks exactly the words `core/`'s `tokenizeWords` sees (case and
 * diacritics folded, letters and digits only) whatever the server's locale (ADR 0036).
 * PostgreSQL's limits apply: a lexeme of at most 2,047 bytes, positions 1–16,383, at most 256
 * positions per lexeme, and a vector under 1 MB; past them words are left out of the ranked index
 * (literal search still finds them).
 */
import { rankedTerms } from "../../core/search-query.js";

const maxLexemeBytes = 2_047;
const maxPosition = 16_383;
const maxPositionsPerLexeme = 256;
/** Well under PostgreSQL's 1 MB limit of one tsvector. */
const maxVectorBytes = 512 * 1024;

/**
 * A `tsvector` literal (`'word':1,3 'other':2`), or null for a text without words.
 *
 * @example wordVector("Café au-lait, café") // "'cafe':1,4 'au':2 'lait':3"
 */
export function wordVector(text: string): string | null {
  const positions = new Map<string, number[]>();
  let position = 0;
  for (const word of rankedTerms(text)) {
    position = Math.min(position + 1, maxPosition);
    if (Buffer.byteLength(word) > maxLexemeBytes) continue;
    const list = positions.get(word);
    if (list === undefined) positions.set(word, [position]);
    else if (list.length < maxPositionsPerLexeme) list.push(position);
  }
  const entries: string[] = [];
  let bytes = 0;
  for (const [word, list] of positions) {
    const entry = `'${word}':${list.join(",")}`;
    bytes += Buffer.byteLength(entry) + 1;
    if (bytes > maxVectorBytes) break;
    entries.push(entry);
  }
  return entries.length === 0 ? null : entries.join(" ");
}

/**
 * A `tsquery` literal matching any of `words` (letters and digits only, from `rankedQueryWords`).
 *
 * @example anyWordQuery(["ledger", "blocked"]) // "'ledger' | 'blocked'"
 */
export function anyWordQuery(words: readonly string[]): string {
  return words.map((word) => `'${word}'`).join(" | ");
}
