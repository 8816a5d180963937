/**
 * English words that a ranked query drops before it searches: question words ("when", "what"),
 * auxiliaries ("did", "was"), pronouns, articles, prepositions and conjunctions. They occur in
 * nearly every row, so they find everything and rank nothing. Only queries lose them; the index
 * keeps every word (a literal search still finds "to be or not to be").
 */
const words = `
a about above after again against all am an and any are aren't as at be because been before being
below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down
during each few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here
here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its
itself let's me more most mustn't my myself no nor not of off on once only or other ought our ours
ourselves out over own same shan't she she'd she'll she's should shouldn't so some such than that
that's the their theirs them themselves then there there's these they they'd they'll they're they've
this those through to too under until up very was wasn't we we'd we'll we're we've were weren't what
what's when when's where where's which while who who's whom why why's will with won't would wouldn't
you you'd you'll you're you've your yours yourself yourselves
also did does just kind kinds many much whose ever
`;

/**
 * The words as the ranked index sees them (letters and digits only): "didn't" is "didn" and "t".
 * The contraction endings ("s", "t", "ll", "re", "ve", "d", "m") are stop words alone too.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  ...words
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .flatMap((word) => word.split("'")),
  ...["s", "t", "ll", "re", "ve", "d", "m"],
]);

/**
 * Whether a (case-folded) query word is a stop word.
 *
 * @example isStopWord("when") // true
 * @example isStopWord("sunrise") // false
 */
export function isStopWord(word: string): boolean {
  return ENGLISH_STOP_WORDS.has(word);
}
