/**
 * One call of the embedding provider through the AI SDK's `embedMany`, with its answer checked
 * before anything is stored: one finite, non-empty vector per text, all of one dimension (and of the
 * dimension the store holds for this model, when it holds any). A bad answer is an
 * `EmbeddingProviderError`; nothing of it is kept.
 */
import { embedMany } from "ai";
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { EmbeddingProviderError } from "./embedding-errors.js";

/** An AI SDK embedding model (`openai.embedding("text-embedding-3-small")`, Google's, an OpenAI-compatible server's). */
export type EmbeddingModelInput = EmbeddingModelV4;

/** The id vectors are stored under: `provider:modelId`. */
export function embeddingModelId(model: EmbeddingModelInput): string {
  return `${model.provider}:${model.modelId}`;
}

export interface EmbedTextsOptions {
  model: EmbeddingModelInput;
  texts: readonly string[];
  /** The dimension the vectors must have (the store's for this model), when known. */
  dimensions?: number | undefined;
  timeoutMs: number;
}

export interface EmbeddedTexts {
  vectors: Float32Array[];
  dimensions: number;
  /** Provider calls `embedMany` made (it splits by the model's `maxEmbeddingsPerCall`). */
  calls: number;
}

/** @example const { vectors } = await embedTexts({ model, texts: ["hello"], timeoutMs: 30_000 }) */
export async function embedTexts({ model, texts, dimensions, timeoutMs }: EmbedTextsOptions): Promise<EmbeddedTexts> {
  const id = embeddingModelId(model);
  let result: Awaited<ReturnType<typeof embedMany>>;
  try {
    result = await embedMany({ model, values: [...texts], maxRetries: 0, abortSignal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new EmbeddingProviderError(id, `The embedding model ${id} failed: ${reason}`, { cause: error });
  }
  if (result.embeddings.length !== texts.length) {
    throw new EmbeddingProviderError(
      id,
      `The embedding model ${id} returned ${result.embeddings.length} vectors for ${texts.length} texts.`,
    );
  }
  const expected = dimensions ?? result.embeddings[0]?.length ?? 0;
  const vectors = result.embeddings.map((embedding, index) => {
    if (embedding.length === 0)
      throw new EmbeddingProviderError(id, `The embedding model ${id} returned an empty vector (text ${index}).`);
    if (embedding.length !== expected) {
      throw new EmbeddingProviderError(
        id,
        `The embedding model ${id} returned a vector of ${embedding.length} dimensions (text ${index}); expected ${expected}.`,
      );
    }
    if (!embedding.every(Number.isFinite))
      throw new EmbeddingProviderError(
        id,
        `The embedding model ${id} returned a vector holding NaN or Infinity (text ${index}).`,
      );
    return Float32Array.from(embedding);
  });
  return { vectors, dimensions: expected, calls: Math.max(1, result.responses?.length ?? 1) };
}
