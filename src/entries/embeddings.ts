/**
 * `ctxwin/embeddings`: the state of a SQLite store's embeddings, as `ctxwin doctor` reports it.
 * Embeddings themselves are an `openStore` option (`embeddings: { model }`, docs/embeddings.md);
 * a model from a `provider:id` string is `resolveEmbeddingModel` at `ctxwin/models`.
 */
export {
  describeEmbeddingStatus,
  embeddingStatus,
  type EmbeddingModelStatus,
  type EmbeddingStatus,
} from "../store/embeddings/embedding-status.js";
export {
  EmbeddingMismatchError,
  EmbeddingProviderError,
  VectorIndexUnavailableError,
} from "../store/embeddings/embedding-errors.js";
export type { EmbeddingsOptions } from "../store/embeddings/embeddings-options.js";
