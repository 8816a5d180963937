/**
 * Which trigrams a literal search asks the SQLite trigram index for (ADR 0032).
 *
 * The index keeps no positions (`detail=none`), and FTS5 answers an AND of trigrams by walking the
 * list of rows of each of them: on a 100,000-row file a trigram found in most rows costs ~2 ms to
 * walk, one found in five rows almost nothing, and a trigram inside a word rules out little that
 * its neighbour has not (docs/benchmarks.md, history-tool). So the plan starts from the query's
 * rarest trigram and adds the next rarest one that does not overlap a chosen one only while the
 * candidates it would rule out cost more to verify than its list costs to walk.
 *
 * How rare a trigram is comes from the index itself: one short walk over the first rows holding it
 * (`createTrigramRarity`; FTS5 walks a list 2–3× faster ascending), remembered for a minute per open
 * store. Probing goes from the rarest-looking trigram on and stops at one with few rows. Rarity decides only which rows
 * are candidates, never which rows match: every candidate is verified with `containsLiteral`.
 */
import type Database from "better-sqlite3";

/** Rows of a trigram's list one probe reads: enough to tell a rare trigram from a common one. */
const PROBE_ROWS = 16;
/** Most trigrams of one query probed, the rarest-looking first. */
const MAX_PROBED = 24;
/** Most trigrams one query ANDs. */
const MAX_CHOSEN = 6;
/** Verifying one candidate (read, decode, render, compare) costs about as much as walking this many list entries. */
const VERIFY_COST_IN_LIST_ENTRIES = 800;
/** How long a probed rarity is reused: it drifts only as the file grows. */
const RARITY_TTL_MS = 60_000;
/** Remembered trigrams per open store; past it the memory starts afresh. */
const MAX_REMEMBERED = 20_000;

/** How many rows hold a trigram: exactly, when it has few, else as a share of the row keys. */
type Rarity = { rows: number } | { share: number };

export interface TrigramRarity {
  /** The rows holding `trigram` among `rangeKeys` consecutive row keys, estimated. */
  rowsIn(trigram: string, rangeKeys: number): number;
}

/**
 * Rarity of trigrams probed from the index: `probe` lists the row keys holding one trigram
 * (an FTS5 phrase), oldest first, at most `?` of them, as `row_key`; the share of row keys holding
 * it is read off the span of the first `PROBE_ROWS + 1`.
 *
 * @example createTrigramRarity({ probe: sql.literalProbe })
 */
export function createTrigramRarity({
  probe,
  now = Date.now,
}: {
  probe: Database.Statement;
  now?: () => number;
}): TrigramRarity {
  const remembered = new Map<string, { rarity: Rarity; at: number }>();
  const measure = (trigram: string): Rarity => {
    const keys = (probe.all(phraseOf(trigram), PROBE_ROWS + 1) as { row_key: number }[]).map((entry) => entry.row_key);
    const first = keys[0];
    const last = keys[PROBE_ROWS];
    if (first === undefined || last === undefined) return { rows: keys.length };
    return { share: PROBE_ROWS / Math.max(1, last - first) };
  };
  return {
    rowsIn(trigram, rangeKeys) {
      const key = trigram.toLowerCase();
      let entry = remembered.get(key);
      if (entry === undefined || now() - entry.at > RARITY_TTL_MS) {
        if (remembered.size >= MAX_REMEMBERED) remembered.clear();
        entry = { rarity: measure(trigram), at: now() };
        remembered.set(key, entry);
      }
      const { rarity } = entry;
      return "rows" in rarity ? Math.min(rarity.rows, rangeKeys) : Math.min(1, rarity.share) * rangeKeys;
    },
  };
}

export interface TrigramPlan {
  /** The FTS5 query: an AND of the chosen trigrams, in the query's order. */
  match: string;
  /** Rows of the range the AND is expected to match (trigrams taken as independent). */
  expectedRows: number;
}

/**
 * The trigrams to ask the index for, for a query over `rangeKeys` consecutive row keys; undefined
 * when the index cannot narrow the search (fewer than three characters, or no trigram that the
 * index folds as `containsLiteral` does): the caller then reads the range.
 *
 * @example planTrigramQuery({ query: "lighthouse budget review", rangeKeys: 100_000, rarity }) // { match: '"hth"', expectedRows: 5 }
 */
export function planTrigramQuery({
  query,
  rangeKeys,
  rarity,
}: {
  query: string;
  rangeKeys: number;
  rarity: TrigramRarity;
}): TrigramPlan | undefined {
  // Rarest-looking first, so that probing can stop at the first trigram that leaves few candidates.
  const probed: { text: string; position: number; rows: number }[] = [];
  for (const trigram of trigramsOf(query).sort((left, right) => commonness(left.text) - commonness(right.text))) {
    const rows = rarity.rowsIn(trigram.text, rangeKeys);
    probed.push({ ...trigram, rows });
    if (rows <= PROBE_ROWS || probed.length >= MAX_PROBED) break;
  }
  probed.sort((left, right) => left.rows - right.rows || left.position - right.position);
  const [rarest, ...others] = probed;
  if (rarest === undefined) return undefined;
  const chosen = [rarest];
  let expectedRows = rarest.rows;
  for (const trigram of others) {
    if (chosen.length >= MAX_CHOSEN) break;
    // Sorted rarest first: once one trigram's walk costs more than it saves, every later one does.
    const share = trigram.rows / Math.max(1, rangeKeys);
    if (expectedRows * (1 - share) * VERIFY_COST_IN_LIST_ENTRIES <= trigram.rows) break;
    if (chosen.some((other) => Math.abs(other.position - trigram.position) < 3)) continue;
    chosen.push(trigram);
    expectedRows *= share;
  }
  const match = chosen
    .sort((left, right) => left.position - right.position)
    .map((trigram) => phraseOf(trigram.text))
    .join(" AND ");
  return { match, expectedRows };
}

/**
 * Characters whose case JavaScript's `toLowerCase` (what `containsLiteral` compares) folds and the
 * trigram tokenizer does not: letters that gained case in later Unicode versions than SQLite's
 * folding table (Cherokee, Georgian Mtavruli, Osage, Adlam, …; measured on SQLite 3.53 by folding
 * every code point both ways), their lower-case forms, and "İ", which JavaScript folds to "i" plus
 * a combining dot. A trigram holding one could miss a row that matches, so it is never asked for.
 */
const FOLDED_APART = (() => {
  const upper: [number, number][] = [
    [0x37f, 0x37f],
    [0x528, 0x52e],
    [0x13a0, 0x13f5],
    [0x1c89, 0x1c89],
    [0x1c90, 0x1cbf],
    [0x2c2f, 0x2c2f],
    [0xa698, 0xa69a],
    [0xa796, 0xa79e],
    [0xa7ab, 0xa7dc],
    [0xa7f5, 0xa7f5],
    [0x104b0, 0x104d3],
    [0x10570, 0x10595],
    [0x10c80, 0x10cb2],
    [0x10d50, 0x10d65],
    [0x118a0, 0x118bf],
    [0x16e40, 0x16e5f],
    [0x16ea0, 0x16eb8],
    [0x1e900, 0x1e921],
  ];
  const codePoints = new Set([0x130, 0x307]);
  for (const [first, last] of upper) {
    for (let codePoint = first; codePoint <= last; codePoint += 1) {
      codePoints.add(codePoint);
      for (const lower of String.fromCodePoint(codePoint).toLowerCase()) codePoints.add(lower.codePointAt(0) ?? 0);
    }
  }
  return codePoints;
})();

/** Whether the index folds `character` (one code point) as `containsLiteral` does; a lone surrogate never is. */
function foldsAlike(character: string): boolean {
  const codePoint = character.codePointAt(0) ?? 0;
  return !FOLDED_APART.has(codePoint) && !(codePoint >= 0xd800 && codePoint <= 0xdfff);
}

/** The query's distinct trigrams (case folded, as the index folds them), each at its first position. */
function trigramsOf(query: string): { text: string; position: number }[] {
  const characters = [...query];
  const seen = new Map<string, { text: string; position: number }>();
  for (let position = 0; position + 3 <= characters.length; position += 1) {
    const trigram = characters.slice(position, position + 3);
    if (!trigram.every(foldsAlike)) continue;
    const text = trigram.join("");
    const key = text.toLowerCase();
    if (!seen.has(key)) seen.set(key, { text, position });
  }
  return [...seen.values()];
}

/** An FTS5 string holding `text` as one phrase (`"` doubled). */
function phraseOf(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** Letters from the most to the least frequent in English text: which trigrams of a long query to probe. */
const LETTERS_BY_FREQUENCY = "etaoinshrdlcumwfgypbvkjxqz";

/**
 * How common a trigram probably is, higher for more common, before the index is asked: the sum
 * of its characters' letter frequency ranks (a space counts like a frequent letter; digits,
 * punctuation and other scripts count as rare).
 */
function commonness(trigram: string): number {
  let score = 0;
  for (const character of trigram.toLowerCase()) {
    const rank = LETTERS_BY_FREQUENCY.indexOf(character);
    score += character === " " ? 20 : rank < 0 ? 0 : LETTERS_BY_FREQUENCY.length - rank;
  }
  return score;
}
