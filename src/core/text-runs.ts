/**
 * Runs of characters of one class (`[\p{L}\p{N}]`), found without a regex loop over megabytes.
 * V8 matches `[…]+` with the `u` flag on a string that is not Latin-1 by pushing one backtrack
 * entry per character: a run of a few million letters (a 5 MB tool input) throws "RangeError:
 * Maximum call stack size exceeded". Here each regex loop takes at most `RUN_PIECE_CHARS`
 * characters, and a run that reaches the bound is continued by a sticky match from where it stopped,
 * so the runs are exactly those of the unbounded pattern (ADR 0048).
 */

/** Most characters one regex loop takes before the run is continued. */
export const RUN_PIECE_CHARS = 4_096;

/** One run: `text.slice(start, end)`, matched by `classes[classIndex]`. */
export interface TextRun {
  start: number;
  end: number;
  classIndex: number;
}

/**
 * The matches of `(class0){minimum,}|(class1){minimum,}|…` in `text`, in order: each run as long
 * as its class allows, the first class that matches at a position winning, like the unbounded
 * pattern. Classes are regex sources of one character (`"[\\p{L}\\p{N}]"`), matched with `u`.
 *
 * @example [...textRuns("Café au-lait", { classes: ["[\\p{L}\\p{N}]"] })].length // 3
 */
export function* textRuns(
  text: string,
  { classes, minimum = 1 }: { classes: readonly string[]; minimum?: number },
): Generator<TextRun> {
  // Fresh regexes per call: their lastIndex is state, and runs of two texts may interleave.
  const first = new RegExp(
    classes.map((source) => `(${source}{${minimum},${Math.max(minimum, RUN_PIECE_CHARS)}})`).join("|"),
    "gu",
  );
  const more = classes.map((source) => new RegExp(`${source}{1,${RUN_PIECE_CHARS}}`, "uy"));
  for (let match = first.exec(text); match !== null; match = first.exec(text)) {
    const classIndex = classes.length === 1 ? 0 : match.slice(1).findIndex((group) => group !== undefined);
    let end = match.index + match[0].length;
    // A match shorter than the bound (in UTF-16 units, so in characters too) ended with its run.
    if (match[0].length >= RUN_PIECE_CHARS) {
      const continuation = more[classIndex] as RegExp;
      for (continuation.lastIndex = end; continuation.exec(text) !== null; continuation.lastIndex = end)
        end = continuation.lastIndex;
      first.lastIndex = end;
    }
    yield { start: match.index, end, classIndex };
  }
}

/**
 * The texts of the runs of one class (a regex source of one character) in `text`: what
 * `text.match(/class+/gu)` returns, without its stack overflow on a run of megabytes.
 *
 * @example runTexts("Café au-lait", "[\\p{L}\\p{N}]") // ["Café", "au", "lait"]
 */
export function runTexts(text: string, characterClass: string): string[] {
  // One native match in the common case; only a run that reached the bound needs its position.
  const pieces = text.match(new RegExp(`${characterClass}{1,${RUN_PIECE_CHARS}}`, "gu")) ?? [];
  if (!pieces.some((piece) => piece.length >= RUN_PIECE_CHARS)) return pieces;
  const runs: string[] = [];
  for (const run of textRuns(text, { classes: [characterClass] })) runs.push(text.slice(run.start, run.end));
  return runs;
}

/**
 * `text` without the characters of `characterClass` (a regex source of one character), removed
 * in bounded pieces for the same reason as `textRuns`.
 *
 * @example withoutCharacters("Cafe\u0301", "\\p{M}") // "Cafe"
 */
export function withoutCharacters(text: string, characterClass: string): string {
  return text.replace(new RegExp(`${characterClass}{1,${RUN_PIECE_CHARS}}`, "gu"), "");
}
