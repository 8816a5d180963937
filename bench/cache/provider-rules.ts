/**
 * Each provider's prompt-cache rule, simulated over a session's requests in order (issue 28).
 *
 * Anthropic (explicit breakpoints; platform.claude.com/docs/en/build-with-claude/prompt-caching):
 * every breakpoint whose prefix reaches the model's minimum writes a cache entry for the request up
 * to it; a later request reads the longest written prefix that ends at one of its blocks at most 20
 * blocks before one of its breakpoints. Tokens after the read up to the last breakpoint are written
 * (billed at the write price), the rest is fresh input. Entries do not expire (a benchmark runs
 * within minutes; the TTL is refreshed by every read).
 *
 * OpenAI (automatic; platform.openai.com/docs/guides/prompt-caching): a request reads the longest
 * prefix it shares with an earlier request, when it is at least 1,024 tokens, in steps of 128
 * tokens. Whole blocks only: a shared prefix that ends inside a block is not counted (a lower bound).
 */
import type { RequestBlocks } from "./request-blocks.js";

/** Blocks before a breakpoint Anthropic checks for an earlier entry. */
export const ANTHROPIC_LOOKBACK_BLOCKS = 20;
export const OPENAI_MINIMUM_TOKENS = 1024;
export const OPENAI_INCREMENT_TOKENS = 128;

export interface SimulatedRequest {
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** A cache shared by the requests of one session. */
export function anthropicCache({ minimumTokens }: { minimumTokens: number }) {
  const entries = new Set<string>();
  return (request: RequestBlocks): SimulatedRequest => {
    let read = -1;
    for (const breakpoint of request.breakpoints) {
      for (let index = breakpoint; index >= Math.max(0, breakpoint - ANTHROPIC_LOOKBACK_BLOCKS); index -= 1) {
        if (index <= read) break;
        if (entries.has(request.prefixHashes[index]!)) {
          read = index;
          break;
        }
      }
    }
    const readTokens = read < 0 ? 0 : request.prefixTokens[read]!;
    let lastWritten = -1;
    for (const breakpoint of request.breakpoints) {
      if (request.prefixTokens[breakpoint]! < minimumTokens) continue;
      entries.add(request.prefixHashes[breakpoint]!);
      lastWritten = Math.max(lastWritten, breakpoint);
    }
    const writeTokens = lastWritten > read ? request.prefixTokens[lastWritten]! - readTokens : 0;
    return { inputTokens: request.totalTokens, cacheReadTokens: readTokens, cacheWriteTokens: writeTokens };
  };
}

/** OpenAI's automatic cache over the requests of one session (one `prompt_cache_key` routes them together). */
export function openAICache() {
  const seen = new Set<string>();
  return (request: RequestBlocks): SimulatedRequest => {
    let shared = 0;
    for (let index = request.prefixHashes.length - 1; index >= 0; index -= 1) {
      if (seen.has(request.prefixHashes[index]!)) {
        shared = request.prefixTokens[index]!;
        break;
      }
    }
    for (const hash of request.prefixHashes) seen.add(hash);
    const cached =
      shared < OPENAI_MINIMUM_TOKENS ? 0 : Math.floor(shared / OPENAI_INCREMENT_TOKENS) * OPENAI_INCREMENT_TOKENS;
    return { inputTokens: request.totalTokens, cacheReadTokens: cached, cacheWriteTokens: 0 };
  };
}
