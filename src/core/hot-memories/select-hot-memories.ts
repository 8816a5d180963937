/**
 * Chooses which memory files go into the `<hot_memories>` block (docs/design.md §8) and renders it.
 *
 * - The notes file (`/memories/workspace/context-notes.md`), when it exists, always comes first,
 *   cut to its own reserved allowance; it never takes room from the ordinary selection.
 * - Ordinary files: pinned first, then by decayed access score; unpinned files never accessed are
 *   left out. At most `maxFiles`, each entry at most `maxFileBytes`, and the block without the notes
 *   entry at most `maxTotalBytes` and `maxTotalTokens`, measured on the rendered text.
 *
 * Pure: the caller reads the files and the access index and passes them in.
 */
import { decayedScore, type AccessRecord } from "./access-score.js";
import { utf8ByteLength } from "../code-units.js";
import { longestPrefixWithin, prefixWithinBytes } from "./cut-text.js";
import {
  CONTEXT_NOTES_PATH,
  DEFAULT_HOT_MEMORY_LIMITS,
  estimateTokensConservatively,
  type HotMemoryLimits,
} from "./limits.js";
import {
  HOT_MEMORIES_FOOTER,
  HOT_MEMORIES_HEADER,
  renderHotMemoryBlock,
  renderHotMemoryEntry,
} from "./render-block.js";
import { countBlockTags } from "./untrusted-text.js";

/** One memory file that may be shown. */
export interface HotMemoryCandidate {
  /** Virtual path, e.g. `/memories/project/conventions.md`. */
  path: string;
  content: string;
  pinned?: boolean;
  /** Access statistics; absent for a file never accessed through the memory tool. */
  access?: AccessRecord;
}

export type HotMemoryReason = "notes" | "pinned" | "accessed";
export type HotMemorySkipReason = "never-accessed" | "file-limit" | "budget" | "duplicate";

/** A file that made it into the block. */
export interface HotMemoryEntry {
  path: string;
  reason: HotMemoryReason;
  /** Whether the excerpt was cut (it then ends with the truncation marker). */
  truncated: boolean;
  /** UTF-8 bytes of the whole file and of the part shown. */
  contentBytes: number;
  shownBytes: number;
  /** Decayed access score at `now` (0 when never accessed). */
  score: number;
}

export interface HotMemorySelection {
  /** The rendered block, or `""` when no file was selected. */
  text: string;
  /** Selected files in block order (notes first). */
  entries: HotMemoryEntry[];
  skipped: Array<{ path: string; reason: HotMemorySkipReason }>;
  /** UTF-8 bytes and tokens of `text`. */
  bytes: number;
  tokens: number;
}

export interface SelectHotMemoriesOptions {
  candidates: readonly HotMemoryCandidate[];
  /** Epoch milliseconds used for the access decay. */
  now: number;
  /** Token counter for the budget; default a conservative estimate (characters / 3). */
  countTokens?: (text: string) => number;
  limits?: Partial<HotMemoryLimits>;
  notesPath?: string;
}

/** An ordinary file cut to less than this (or a quarter of `maxFileBytes`) is left out rather than shown as a stub. */
const MIN_BUDGET_EXCERPT_BYTES = 512;

/**
 * Selects and renders the hot memories.
 *
 * @example
 * const { text } = selectHotMemories({
 *   now: Date.now(),
 *   candidates: [{ path: "/memories/workspace/context-notes.md", content: "- next: run the tests" }],
 * });
 */
export function selectHotMemories({
  candidates,
  now,
  countTokens = estimateTokensConservatively,
  limits: limitOverrides = {},
  notesPath = CONTEXT_NOTES_PATH,
}: SelectHotMemoriesOptions): HotMemorySelection {
  const limits: HotMemoryLimits = { ...DEFAULT_HOT_MEMORY_LIMITS, ...limitOverrides };
  const skipped: HotMemorySelection["skipped"] = [];
  const unique = new Map<string, HotMemoryCandidate>();
  for (const candidate of candidates) {
    if (unique.has(candidate.path)) skipped.push({ path: candidate.path, reason: "duplicate" });
    else unique.set(candidate.path, candidate);
  }

  const notesCandidate = unique.get(notesPath);
  const notes =
    notesCandidate === undefined
      ? undefined
      : fitEntry({
          candidate: notesCandidate,
          reason: "notes",
          maxBytes: limits.notesBytes,
          maxTokens: limits.notesTokens,
          countTokens,
          now,
          limits,
        });
  if (notesCandidate !== undefined && notes === undefined)
    skipped.push({ path: notesCandidate.path, reason: "budget" });

  const ranked: Array<{ candidate: HotMemoryCandidate; score: number }> = [];
  for (const candidate of unique.values()) {
    if (candidate.path === notesPath) continue;
    const score = decayedScore({ record: candidate.access, now, halfLifeMs: limits.halfLifeMs });
    if (candidate.pinned === true || (candidate.access?.count ?? 0) > 0) ranked.push({ candidate, score });
    else skipped.push({ path: candidate.path, reason: "never-accessed" });
  }
  ranked.sort(compareRanked);

  const frame = `${HOT_MEMORIES_HEADER}${HOT_MEMORIES_FOOTER}`;
  let usedBytes = utf8ByteLength(frame);
  let usedTokens = countTokens(frame);
  const ordinary: FittedEntry[] = [];
  const minimumExcerpt = Math.min(MIN_BUDGET_EXCERPT_BYTES, Math.floor(limits.maxFileBytes / 4));
  for (const { candidate } of ranked) {
    if (ordinary.length >= limits.maxFiles) {
      skipped.push({ path: candidate.path, reason: "file-limit" });
      continue;
    }
    const maxBytes = Math.min(limits.maxFileBytes, limits.maxTotalBytes - usedBytes);
    const fitted = fitEntry({
      candidate,
      reason: candidate.pinned === true ? "pinned" : "accessed",
      maxBytes,
      maxTokens: limits.maxTotalTokens - usedTokens,
      minimumExcerptBytes: minimumExcerpt,
      countTokens,
      now,
      limits,
    });
    if (fitted === undefined || (fitted.entry.truncated && fitted.entry.shownBytes < minimumExcerpt)) {
      skipped.push({ path: candidate.path, reason: "budget" });
      continue;
    }
    ordinary.push(fitted);
    usedBytes += fitted.bytes;
    usedTokens += fitted.tokens;
  }

  // Token counts of pieces need not add up exactly: check the rendered text and drop from the end.
  const measure = (text: string) => ({
    text,
    bytes: utf8ByteLength(text),
    tokens: text === "" ? 0 : countTokens(text),
  });
  let section = measure(renderHotMemoryBlock(ordinary.map((fitted) => fitted.text)));
  while (ordinary.length > 0 && (section.bytes > limits.maxTotalBytes || section.tokens > limits.maxTotalTokens)) {
    dropLast(ordinary, skipped);
    section = measure(renderHotMemoryBlock(ordinary.map((fitted) => fitted.text)));
  }
  const assemble = () =>
    notes === undefined
      ? section
      : measure(renderHotMemoryBlock([notes.text, ...ordinary.map((fitted) => fitted.text)]));
  let block = assemble();
  while (
    ordinary.length > 0 &&
    (block.bytes > limits.maxTotalBytes + limits.notesBytes ||
      block.tokens > limits.maxTotalTokens + limits.notesTokens)
  ) {
    dropLast(ordinary, skipped);
    section = measure(renderHotMemoryBlock(ordinary.map((fitted) => fitted.text)));
    block = assemble();
  }

  const entries = [...(notes === undefined ? [] : [notes.entry]), ...ordinary.map((fitted) => fitted.entry)];
  return { text: block.text, entries, skipped, bytes: block.bytes, tokens: block.tokens };
}

interface FittedEntry {
  entry: HotMemoryEntry;
  text: string;
  bytes: number;
  tokens: number;
}

function fitEntry({
  candidate,
  reason,
  maxBytes,
  maxTokens,
  minimumExcerptBytes = 0,
  countTokens,
  now,
  limits,
}: {
  candidate: HotMemoryCandidate;
  reason: HotMemoryReason;
  maxBytes: number;
  maxTokens: number;
  /** A cut excerpt smaller than this is not worth showing: give up without searching. */
  minimumExcerptBytes?: number;
  countTokens: (text: string) => number;
  now: number;
  limits: HotMemoryLimits;
}): FittedEntry | undefined {
  const contentBytes = utf8ByteLength(candidate.content);
  const score = decayedScore({ record: candidate.access, now, halfLifeMs: limits.halfLifeMs });
  const render = (content: string, truncated: boolean) =>
    renderHotMemoryEntry({ path: candidate.path, content, truncated });
  const whole = render(candidate.content, false);
  let text = whole;
  let shown = candidate.content;
  let tokens = utf8ByteLength(whole) <= maxBytes ? countTokens(whole) : Number.POSITIVE_INFINITY;
  if (tokens > maxTokens) {
    if (maxBytes - utf8ByteLength(render("", true)) < minimumExcerptBytes) return undefined;
    // Cut by bytes first (cheap and exact), then, only if needed, by tokens with few counter calls.
    // Room for content: the frame, a separator newline, and 3 bytes for each tag `neutralizeBlockTags` defuses.
    const frameBytes = utf8ByteLength(render("", true)) + 1 + 3 * countBlockTags(candidate.content);
    if (frameBytes > maxBytes) return undefined;
    const byBytes = prefixWithinBytes(candidate.content, maxBytes - frameBytes);
    const prefix = longestPrefixWithin({
      text: byBytes,
      measure: (part) => countTokens(render(part, true)),
      limit: maxTokens,
    });
    if (prefix === undefined) return undefined;
    shown = prefix;
    text = render(prefix, true);
    tokens = countTokens(text);
  }
  const truncated = text !== whole;
  const entry: HotMemoryEntry = {
    path: candidate.path,
    reason,
    truncated,
    contentBytes,
    shownBytes: utf8ByteLength(shown),
    score,
  };
  return { entry, text, bytes: utf8ByteLength(text), tokens };
}

function compareRanked(
  left: { candidate: HotMemoryCandidate; score: number },
  right: { candidate: HotMemoryCandidate; score: number },
): number {
  const pinned = Number(right.candidate.pinned === true) - Number(left.candidate.pinned === true);
  if (pinned !== 0) return pinned;
  if (right.score !== left.score) return right.score - left.score;
  const recency = (right.candidate.access?.lastAccessAt ?? 0) - (left.candidate.access?.lastAccessAt ?? 0);
  if (recency !== 0) return recency;
  return left.candidate.path < right.candidate.path ? -1 : left.candidate.path > right.candidate.path ? 1 : 0;
}

function dropLast(ordinary: FittedEntry[], skipped: HotMemorySelection["skipped"]): void {
  const last = ordinary.pop();
  if (last !== undefined) skipped.push({ path: last.entry.path, reason: "budget" });
}
