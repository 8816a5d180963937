/**
 * Search query rules shared by every store backend, so that all of them answer alike.
 * - literal: case-insensitive substring of the rendered row text.
 * - ranked: words (letters and digits) less English stop words, reduced to their English stems
 *   ("painted" and "painting" are "paint"), any of them, ordered by BM25 relevance
 *   (`ranked-score.ts`). Backends index `rankedTerms(text)` and match `rankedQueryWords(query)`.
 */
import { stemmer } from "stemmer";
import { errorClass } from "./errors.js";
import { isStopWord } from "./stop-words.js";
import { runTexts, withoutCharacters } from "./text-runs.js";

export type SearchMode = "literal" | "ranked";

export const MAX_QUERY_CHARS = 1_000;
export const MAX_RANKED_WORDS = 32;

/**
 * The query cannot be searched (empty, too long, no words for a ranked search).
 *
 * @example
 * if (InvalidQueryError.isInstance(error)) return { error: error.message }
 */
export class InvalidQueryError extends errorClass("CtxwinInvalidQueryError") {}

/**
 * Why a query cannot be searched in `mode`, as a message that says what to send instead;
 * `undefined` when it can be (ADR 0051). Refused in both modes: an empty or whitespace query, one
 * longer than `MAX_QUERY_CHARS`, one holding NUL. Refused in ranked mode only: a query without a
 * word of letters or digits, and one whose every word is an English stop word ("what did we do"),
 * which nearly every item holds, so no ranking could tell items apart by it. Literal mode searches
 * any other text exactly, punctuation and stop words included, at a bounded cost per call.
 *
 * @example queryProblem("what did we do", "ranked") // "Every word of this ranked query is a common English word …"
 */
export function queryProblem(query: unknown, mode: SearchMode): string | undefined {
  if (typeof query !== "string" || query.trim().length === 0)
    return "The search query is empty; pass the text to look for.";
  if (query.length > MAX_QUERY_CHARS) {
    return `The search query is ${query.length} characters long; the limit is ${MAX_QUERY_CHARS}. Search for a shorter, distinctive phrase.`;
  }
  if (query.includes("\u0000")) {
    return "The search query contains a NUL character (\\u0000), which no search matches reliably; remove it and search for the text around it.";
  }
  if (mode !== "ranked") return undefined;
  const words = [...new Set(tokenizeWords(query))];
  if (words.length === 0)
    return "A ranked search needs at least one word of letters or digits; use literal mode for punctuation.";
  if (words.every(isStopWord)) {
    const shown = words.slice(0, 6).map((word) => `'${word}'`);
    return (
      "Every word of this ranked query is a common English word " +
      `(${shown.join(", ")}${words.length > shown.length ? ", …" : ""}) that nearly every item holds, ` +
      "so ranked search cannot rank by it. Add a word that names what you look for (a name, a file, " +
      "an error, a topic), or use literal mode for this exact phrase."
    );
  }
  return undefined;
}

/**
 * Checks a query for either mode (`queryProblem`); returns it unchanged when it can be searched,
 * else throws `InvalidQueryError` with the reason.
 */
export function assertSearchableQuery(query: unknown, mode: SearchMode): string {
  const problem = queryProblem(query, mode);
  if (problem !== undefined) throw new InvalidQueryError(problem);
  return query as string;
}

/** Case folding used by literal search on every backend. */
export function foldCase(text: string): string {
  return text.toLowerCase();
}

/** @example containsLiteral("Hello World", "o w") // true */
export function containsLiteral(text: string, query: string): boolean {
  return foldCase(text).includes(foldCase(query));
}

/** What a word is made of: letters and digits. */
const WORD_CLASS = "[\\p{L}\\p{N}]";

/**
 * Words of a text as the ranked index sees them: letters and digits, case and diacritics folded.
 *
 * @example tokenizeWords("Café au-lait 42") // ["cafe", "au", "lait", "42"]
 */
export function tokenizeWords(text: string): string[] {
  // Bounded regex loops (`text-runs.ts`): a word of megabytes must not overflow V8's regex stack.
  return runTexts(withoutCharacters(text.normalize("NFD"), "\\p{M}").toLowerCase(), WORD_CLASS);
}

/**
 * Words longer than this are not stemmed: the stemmer's regexes overflow V8's stack on a word of
 * megabytes. No query word is longer than `MAX_QUERY_CHARS`, and a stem is at most a few dozen
 * characters shorter than its word, so a word this long never matched a query term either way.
 */
export const MAX_STEMMED_WORD_CHARS = 2_048;

/**
 * The English stem of a folded word (Porter's algorithm, the `stemmer` package): words of plain
 * ASCII letters only, at most `MAX_STEMMED_WORD_CHARS` long; other words (digits, other scripts,
 * identifiers with digits) stay as they are.
 *
 * @example stemWord("painting") // "paint"
 * @example stemWord("x86") // "x86"
 */
export function stemWord(word: string): string {
  return word.length <= MAX_STEMMED_WORD_CHARS && /^[a-z]+$/.test(word) ? stemmer(word) : word;
}

/**
 * The terms a ranked index holds for a text: its words, each stemmed, in order.
 *
 * @example rankedTerms("Painted the sunrises") // ["paint", "the", "sunris"]
 */
export function rankedTerms(text: string): string[] {
  return tokenizeWords(text).map(stemWord);
}

/**
 * Distinct terms of a ranked query, at most `MAX_RANKED_WORDS`: its words less English stop words
 * ("when", "did", "the": `core/stop-words.ts`; a query of nothing but stop words keeps them all,
 * though search refuses such a query, `queryProblem`), stemmed like `rankedTerms`.
 *
 * @example rankedQueryWords("When did Melanie paint a sunrise?") // ["melani", "paint", "sunris"]
 * @example rankedQueryWords("to be or not to be") // ["to", "be", "or", "not"]
 */
export function rankedQueryWords(query: string): string[] {
  const words = [...new Set(tokenizeWords(query))];
  const content = words.filter((word) => !isStopWord(word));
  return [...new Set((content.length > 0 ? content : words).map(stemWord))].slice(0, MAX_RANKED_WORDS);
}

/** Characters the ranked index keeps inside tokens (SQLite unicode61's default categories). */
const tokenCharacter = /[\p{L}\p{N}\p{Co}]/u;

/**
 * A word phrase that every text containing `query` (as a literal) also contains, usable as a
 * fast pre-filter on a word index; `undefined` when the query does not allow a safe one.
 * The first run of word characters is left out when the query starts inside a word (it may be the
 * end of a longer word), the last is a prefix when the query ends inside a word, and only plain
 * ASCII letters and digits are used so that case folding is identical on both sides. At least two
 * words are required, so that the phrase is selective.
 *
 * @example literalWordPhrase("we should have bought") // { words: ["should", "have", "bought"], lastIsPrefix: true }
 */
export function literalWordPhrase(query: string): { words: string[]; lastIsPrefix: boolean } | undefined {
  const characters = [...query];
  const chunks: string[] = [];
  let current = "";
  for (const character of characters) {
    if (tokenCharacter.test(character)) {
      current += character;
    } else if (current.length > 0) {
      chunks.push(current);
      current = "";
    }
  }
  if (current.length > 0) chunks.push(current);
  const first = characters[0];
  const last = characters.at(-1);
  if (first !== undefined && tokenCharacter.test(first)) chunks.shift();
  const lastIsPrefix = last !== undefined && tokenCharacter.test(last);
  if (chunks.length < 2 || !chunks.every((chunk) => /^[A-Za-z0-9]+$/.test(chunk))) return undefined;
  return { words: chunks.map((chunk) => chunk.toLowerCase()), lastIsPrefix };
}

/**
 * `literalWordPhrase` for a stemmed word index (`rankedTerms`): the phrase's complete words,
 * stemmed, in order; `undefined` unless at least two remain. A word the query ends inside is left
 * out: a prefix of a word does not stem like the word ("happy" vs "happiness").
 *
 * @example literalTermPhrase("we should have bought the ") // ["should", "have", "bought", "the"]
 * @example literalTermPhrase("painted sunrises over") // undefined ("painted" may end a longer word, "over" start one)
 */
export function literalTermPhrase(query: string): string[] | undefined {
  const phrase = literalWordPhrase(query);
  if (phrase === undefined) return undefined;
  const complete = phrase.lastIsPrefix ? phrase.words.slice(0, -1) : phrase.words;
  return complete.length >= 2 ? complete.map(stemWord) : undefined;
}
