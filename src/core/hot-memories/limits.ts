/**
 * The numbers behind the `<hot_memories>` block (docs/design.md §8) and the notes convention.
 */

/** The notes file the agent keeps across rollovers; it has its own reserved allowance. */
export const CONTEXT_NOTES_PATH = "/memories/workspace/context-notes.md";

/** Marker appended to an excerpt that was cut to fit its allowance. */
export const HOT_MEMORY_TRUNCATION_MARKER = "[truncated — use memory view]";

/** Limits of the hot-memories block. Every size is measured on rendered text (UTF-8 bytes). */
export interface HotMemoryLimits {
  /** Ordinary files selected at most (the notes file is extra). */
  maxFiles: number;
  /** Largest rendered entry of one ordinary file. */
  maxFileBytes: number;
  /** Largest rendered block without the notes entry. */
  maxTotalBytes: number;
  /** Most tokens of the rendered block without the notes entry. */
  maxTotalTokens: number;
  /** Largest rendered notes entry (reserved on top of the ordinary budget). */
  notesBytes: number;
  /** Most tokens of the rendered notes entry (reserved on top of the ordinary budget). */
  notesTokens: number;
  /** Half-life of an access in the ranking score. */
  halfLifeMs: number;
}

const KIB = 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The defaults: 8 files, 16 KiB each, 48 KiB / 12,000 tokens in total, plus 8 KiB / 2,000 tokens
 * reserved for the notes file; accesses lose half their weight every 7 days.
 *
 * @example
 * selectHotMemories({ candidates, now, limits: { ...DEFAULT_HOT_MEMORY_LIMITS, maxFiles: 4 } })
 */
export const DEFAULT_HOT_MEMORY_LIMITS: Readonly<HotMemoryLimits> = Object.freeze({
  maxFiles: 8,
  maxFileBytes: 16 * KIB,
  maxTotalBytes: 48 * KIB,
  maxTotalTokens: 12_000,
  notesBytes: 8 * KIB,
  notesTokens: 2_000,
  halfLifeMs: 7 * DAY_MS,
});

/**
 * Conservative token estimate used when no tokenizer is injected: one token per three characters,
 * rounded up. Real tokenizers give fewer tokens for ordinary prose and code.
 *
 * @example
 * estimateTokensConservatively("abcdef") // 2
 */
export function estimateTokensConservatively(text: string): number {
  return Math.ceil(text.length / 3);
}
