/**
 * Failures of the optional embedding index (ADR 0063). None of them ever fails an append: the
 * background embedder reports them (diagnostics, a warning) and retries; a search falls back to
 * word search and says why, except when a query vector cannot be compared with the stored ones.
 */
import { errorClass } from "../../core/errors.js";

/**
 * The embedding provider failed or answered something unusable (a wrong dimension, NaN, an empty
 * vector, fewer vectors than texts). Nothing of the batch was written.
 *
 * @example
 * if (EmbeddingProviderError.isInstance(error)) console.error(error.message)
 */
export class EmbeddingProviderError extends errorClass("CtxwinEmbeddingProviderError") {
  constructor(
    readonly model: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/**
 * A vector cannot be compared with the stored ones: the store holds this model's vectors at
 * another dimension (the model or its `dimensions` setting changed under the same id).
 *
 * @example
 * if (EmbeddingMismatchError.isInstance(error)) console.error(error.message)
 */
export class EmbeddingMismatchError extends errorClass("CtxwinEmbeddingMismatchError") {
  constructor(
    readonly model: string,
    readonly storedDimensions: number,
    readonly givenDimensions: number,
  ) {
    super(
      `The store holds ${model} vectors of ${storedDimensions} dimensions, but this one has ${givenDimensions}: ` +
        "vectors of different models or dimensions cannot be compared. Use the model the store was embedded with, " +
        "or embed under another model id (`ctxwin embed --embedding-model …`). Nothing was written.",
    );
  }
}

/**
 * The store cannot keep vectors where it lives: a PostgreSQL server without the pgvector
 * extension, or a user not allowed to install it. Appends are unaffected; the embedder reports it
 * and a hybrid or semantic search answers with ranked word search, saying why.
 *
 * @example
 * if (VectorIndexUnavailableError.isInstance(error)) console.error(error.message)
 */
export class VectorIndexUnavailableError extends errorClass("CtxwinVectorIndexUnavailableError") {}

/** What a search says when the query's vector has another dimension than the stored ones (it answers with word search). */
export function searchMismatchMessage({ model, storedDimensions, givenDimensions }: EmbeddingMismatchError): string {
  return (
    `The query's vector has ${givenDimensions} dimensions, the store's ${model} vectors ${storedDimensions}: ` +
    "the model or its dimensions setting changed under the same id (embed under another model id to search by meaning)."
  );
}
