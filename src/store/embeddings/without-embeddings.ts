/**
 * A store opened without an embedding model. Its own module, so that opening the default store
 * loads none of the embeddings layer (ADR 0078).
 */
import type { HistoryStore } from "../port.js";

/** The message a hybrid or semantic search gets from a store opened without an embedding model. */
export const NO_EMBEDDING_MODEL_MESSAGE =
  "This store was opened without an embedding model, so these are ranked word-search results. " +
  "Open it with `embeddings: { model }` (CLI: --embedding-model provider:id) to search by meaning.";

export const isEmbeddingMode = (mode: unknown): mode is "hybrid" | "semantic" =>
  mode === "hybrid" || mode === "semantic";

/**
 * A store without an embedding model: hybrid and semantic searches (and hybrid across sessions)
 * are answered by ranked word search, and the page says so.
 *
 * @example withoutEmbeddings(createMemoryStore())
 */
export function withoutEmbeddings(inner: HistoryStore): HistoryStore {
  return {
    ...inner,
    async search(sessionId, options) {
      if (!isEmbeddingMode(options?.mode)) return inner.search(sessionId, options);
      const page = await inner.search(sessionId, { ...options, mode: "ranked" });
      return { ...page, embeddings: { status: "unavailable", pendingRows: 0, message: NO_EMBEDDING_MODEL_MESSAGE } };
    },
    async searchSessions(options, vectors) {
      const page = await inner.searchSessions(options, vectors);
      if (options?.mode !== "hybrid") return page;
      return { ...page, embeddings: { status: "unavailable", pendingRows: 0, message: NO_EMBEDDING_MODEL_MESSAGE } };
    },
  };
}
