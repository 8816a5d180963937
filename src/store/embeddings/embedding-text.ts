/**
 * What a row contributes to the embedding index: the text the word index holds
 * (`indexedTextOf`, the same rendering, so history lookups and hidden rows are left out alike),
 * cut into chunks of at most `maxChunkChars` at whitespace where one is near, and at most
 * `maxChunks` of them (a huge row is found by its beginning, as word search does, ADR 0048).
 */
import type { StoredRow } from "../port.js";
import { indexedTextOf } from "../append-plan.js";

export const DEFAULT_MAX_CHUNK_CHARS = 2_000;
export const DEFAULT_MAX_CHUNKS_PER_ROW = 8;

/**
 * @example embeddingChunksOf(row) // ["user: we'll keep OAuth with PKCE for sign-in"]
 */
export function embeddingChunksOf(
  row: StoredRow,
  { maxChunkChars = DEFAULT_MAX_CHUNK_CHARS, maxChunks = DEFAULT_MAX_CHUNKS_PER_ROW } = {},
): string[] {
  const text = indexedTextOf(row).trim();
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length && chunks.length < maxChunks) {
    let end = Math.min(text.length, start + maxChunkChars);
    if (end < text.length) {
      // Cut at the last whitespace of the chunk's final fifth, when there is one.
      const space = text.lastIndexOf(" ", end);
      if (space > start + maxChunkChars * 0.8) end = space;
    }
    const chunk = text.slice(start, end).trim();
    if (chunk.length > 0) chunks.push(chunk);
    start = end;
  }
  return chunks;
}
