/**
 * The `tsvector` of a row's ranked-search terms, built by ctxwin rather than by the server's text
 * parser, so that PostgreSQL holds exactly the terms `core/`'s `rankedTerms` sees (case and
 * diacritics folded, letters and digits only, stemmed) whatever the server's locale (ADR 0036).
 * The row's own terms carry weight label A, its context's (the last terms of the row before it,
 * ADR 0052) label B, so ranked search can count each apart (`ranked-order.ts`).
 * PostgreSQL's limits apply: a lexeme of at most 2,047 bytes, positions 1–16,383, at most 256
 * positions per lexeme, and a vector under 1 MB; past them terms are left out of the ranked index
 * (literal search still finds them), or, past position 16,383, counted once.
 */
import type { TermCounts } from "../../core/bm25.js";

const maxLexemeBytes = 2_047;
const maxPosition = 16_383;
const maxPositionsPerLexeme = 256;
/** Well under PostgreSQL's 1 MB limit of one tsvector. */
const maxVectorBytes = 512 * 1024;

/** Weight labels of a row's own terms and of its context's. */
export const OWN_LABEL = "A";
export const CONTEXT_LABEL = "B";
/** A label no stored row uses: ranked search relabels the query's words with it to pick them out of a vector. */
export const KEPT_LABEL = "C";

/**
 * A `tsvector` literal (`'word':1A,3A,5B 'other':2A`), or null for a row without terms: own terms
 * first, then context terms, positions counting on.
 *
 * @example wordVector({ terms: ["cafe", "au", "lait", "cafe"], context: ["lait"] }) // "'cafe':1A,4A 'au':2A 'lait':3A,5B"
 */
export function wordVector({
  terms,
  context,
}: {
  terms: readonly string[];
  context: readonly string[];
}): string | null {
  const positions = new Map<string, string[]>();
  let position = 0;
  const add = (term: string, label: string) => {
    position = Math.min(position + 1, maxPosition);
    if (Buffer.byteLength(term) > maxLexemeBytes) return;
    const list = positions.get(term);
    if (list === undefined) positions.set(term, [`${position}${label}`]);
    else if (list.length < maxPositionsPerLexeme) list.push(`${position}${label}`);
  };
  for (const term of terms) add(term, OWN_LABEL);
  for (const term of context) add(term, CONTEXT_LABEL);
  const entries: string[] = [];
  let bytes = 0;
  for (const [term, list] of positions) {
    const entry = `'${term}':${list.join(",")}`;
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

/**
 * How many positions each lexeme of a `tsvector` holds, from the server's text form of it
 * (`'cafe':1A,4A 'lait':3A,5B`); a lexeme stored without positions holds none.
 *
 * @example positionCounts("'cafe':1A,4A 'lait':3A,5B") // Map { "cafe" => 2, "lait" => 2 }
 */
export function positionCounts(vector: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [, quoted = "", positions] of vector.matchAll(/'((?:[^'\\]|''|\\.)*)'(?::([\dA-D,]+))?/g)) {
    const lexeme = quoted.replace(/''/g, "'").replace(/\\(.)/g, "$1");
    counts.set(lexeme, positions === undefined ? 0 : positions.split(",").length);
  }
  return counts;
}

/**
 * Select-list items `every` and `context`: the lexemes of a row's `words` among `wordsParameter`
 * (a `text[]`), with every occurrence and with its context's (label B) only, as two small vectors'
 * text. The words are relabelled `KEPT_LABEL` and that label kept: two linear passes over a vector
 * of ~200 lexemes, where cutting every other lexeme away cost 2–4× as much (ADR 0095).
 * `keptTermCounts` reads them.
 *
 * @example `SELECT seq, ${keptWordsColumns("r.words", "$3::text[]")} FROM …`
 */
export function keptWordsColumns(words: string, wordsParameter: string): string {
  const kept = (vector: string) =>
    `ts_filter(setweight(${vector}, '${KEPT_LABEL}', ${wordsParameter}), '{${KEPT_LABEL}}')::text`;
  return `${kept(words)} AS every, ${kept(`ts_filter(${words}, '{${CONTEXT_LABEL}}')`)} AS context`;
}

/**
 * Each kept word's own and context occurrences from `keptWordsColumns`' two vectors: own is every
 * occurrence less the context's.
 *
 * @example keptTermCounts("'cafe':1C,4C 'lait':3C,5C", "'lait':5C") // cafe: own 2; lait: own 1, context 1
 */
export function keptTermCounts(every: string, context: string): Map<string, TermCounts> {
  const inContext = positionCounts(context);
  const counts = new Map<string, TermCounts>();
  for (const [lexeme, occurrences] of positionCounts(every)) {
    const contextOccurrences = inContext.get(lexeme) ?? 0;
    counts.set(lexeme, { own: occurrences - contextOccurrences, context: contextOccurrences });
  }
  return counts;
}
