/**
 * Conformance case for hybrid and semantic search in a store of many sessions (ADR 0096): one
 * session's search answers that session's rows only, and all of its nearest rows, whatever the
 * other sessions hold (on PostgreSQL they share one vector table and one HNSW index). The dense
 * test model gives every row a distinct similarity, so the right top rows are computed here from
 * the same vectors. The caller closes the store. Test-only.
 */
import { expect, it } from "vitest";
import type { EmbeddingsOptions } from "../embeddings/embeddings-options.js";
import { embeddingChunksOf } from "../embeddings/embedding-text.js";
import { cosineSimilarity } from "../embeddings/vector-index.js";
import type { HistoryStore } from "../port.js";
import { text } from "./conformance-rows.js";
import { createDenseEmbeddingModel, denseVector } from "./dense-embedding-model.js";
import { quiet } from "./embedding-transcript.js";

const DIMENSIONS = 64;

/**
 * @example describeManySessionEmbeddingCase((embeddings) => openStore({ backend: "memory", embeddings }))
 */
export function describeManySessionEmbeddingCase(
  open: (embeddings: EmbeddingsOptions) => HistoryStore,
  {
    sessions = 12,
    rowsPerSession = 25,
    neighbourRows = rowsPerSession,
    afterEmbedding = async () => undefined,
    label = "",
  }: {
    sessions?: number;
    /** Rows of the searched session. */
    rowsPerSession?: number;
    /** Rows of each other session (appended in batches of 1,000). */
    neighbourRows?: number;
    /** Runs once every row is embedded, before the searches (a backend's own setup). */
    afterEmbedding?: () => Promise<void>;
    label?: string;
  } = {},
): void {
  it(`searches one session among ${sessions}: its own rows only, and its exact nearest rows${label}`, async () => {
    const store = open({ model: createDenseEmbeddingModel({ dimensions: DIMENSIONS }), ...quiet });
    const ids = Array.from({ length: sessions }, (_, index) => `session-${index}`);
    const target = ids[Math.floor(sessions / 2)] as string;
    for (const id of ids) {
      const count = id === target ? rowsPerSession : neighbourRows;
      for (let start = 0; start < count; start += 1_000)
        await store.append(
          id,
          Array.from({ length: Math.min(1_000, count - start) }, (_, row) => text(`note ${start + row} of ${id}`)),
        );
    }
    await store.embeddings?.idle();
    await afterEmbedding();
    const query = "which matters most";
    const queryVector = Float32Array.from(denseVector(query, DIMENSIONS));
    const rows = await Promise.all(Array.from({ length: rowsPerSession }, (_, index) => store.read(target, index + 1)));
    const expected = rows
      .map((row) => {
        if (row === undefined) throw new Error("a row of the target session is missing");
        const similarity = Math.max(
          ...embeddingChunksOf(row).map((chunk) =>
            cosineSimilarity(queryVector, Float32Array.from(denseVector(chunk, DIMENSIONS))),
          ),
        );
        return { seq: row.seq, similarity };
      })
      .sort((left, right) => right.similarity - left.similarity)
      .slice(0, 10)
      .map((row) => row.seq);

    const semantic = await store.search(target, { query, mode: "semantic", limit: 10 });
    expect(semantic.embeddings).toMatchObject({ status: "used", pendingRows: 0 });
    expect(semantic.hits.map((hit) => hit.row.seq)).toEqual(expected);
    expect(new Set(semantic.hits.map((hit) => hit.row.sessionId))).toEqual(new Set([target]));

    // The query's words are in no row, so the vector half alone orders the hybrid page.
    const hybrid = await store.search(target, { query, mode: "hybrid", limit: 10 });
    expect(hybrid.hits.map((hit) => hit.row.seq)).toEqual(expected);
    // "note" is in every row of every session: word search finds rows in all of them, hybrid only this one's.
    const common = await store.search(target, { query: "note", mode: "hybrid", limit: 20 });
    expect(common.hits).toHaveLength(20);
    expect(new Set(common.hits.map((hit) => hit.row.sessionId))).toEqual(new Set([target]));
  });
}
