/**
 * A deterministic, offline dense `EmbeddingModelV4` for tests and benchmarks: each text's vector is
 * xorshift noise seeded by the text's hash, normalized. Unlike the synonym model, it places texts
 * by nothing but chance, so every pair of texts has a distinct similarity: the exact nearest rows
 * of a query are well defined and can be computed beside the store (`denseVector`).
 */
import type { EmbeddingModelV4 } from "@ai-sdk/provider";

/** The vector the model answers for `text`. */
export function denseVector(text: string, dimensions: number): number[] {
  let seed = 2166136261;
  for (let index = 0; index < text.length; index += 1) seed = Math.imul(seed ^ text.charCodeAt(index), 16777619);
  const vector = new Array<number>(dimensions);
  let norm = 0;
  for (let index = 0; index < dimensions; index += 1) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    const value = ((seed >>> 0) / 4294967296) * 2 - 1;
    vector[index] = value;
    norm += value * value;
  }
  return vector.map((value) => value / Math.sqrt(norm));
}

/**
 * @example
 * const model = createDenseEmbeddingModel({ dimensions: 384 });
 * const store = openStore({ backend: "memory", embeddings: { model } });
 */
export function createDenseEmbeddingModel({
  dimensions = 64,
  provider = "test",
  modelId = `dense-${dimensions}`,
}: { dimensions?: number; provider?: string; modelId?: string } = {}): EmbeddingModelV4 & { calls: number } {
  const model = {
    specificationVersion: "v4" as const,
    provider,
    modelId,
    maxEmbeddingsPerCall: 2_048,
    supportsParallelCalls: false,
    calls: 0,
    async doEmbed({ values }: { values: string[] }) {
      model.calls += 1;
      return { embeddings: values.map((value) => denseVector(value, dimensions)), warnings: [] };
    },
  };
  return model;
}
