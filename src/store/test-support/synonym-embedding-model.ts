/**
 * A deterministic, offline `EmbeddingModelV4` for tests and benchmarks: each word of a small
 * synonym table adds weight to its concept's dimension ("login", "sign-in", "OAuth" and "PKCE" all
 * to `auth`), any other word to a dimension picked by its hash, so texts that share a meaning but
 * no word land close together. Faults can be scripted per call (`fault`), and every call is recorded.
 */
import { APICallError } from "ai";
import type { EmbeddingModelV4, EmbeddingModelV4CallOptions, EmbeddingModelV4Result } from "@ai-sdk/provider";

export const SYNONYM_CONCEPTS: Readonly<Record<string, readonly string[]>> = {
  auth: ["login", "logins", "sign", "signin", "oauth", "pkce", "authentication", "credentials", "password"],
  database: ["database", "postgres", "postgresql", "sqlite", "storage", "persistence"],
  deploy: ["deploy", "deployment", "release", "ship", "rollout"],
  cost: ["budget", "cost", "price", "spend", "expensive", "cheap"],
  color: ["color", "colour", "palette", "theme", "hue"],
  speed: ["slow", "latency", "fast", "performance", "sluggish"],
};

export interface SyntheticEmbeddingCall {
  values: string[];
}

export interface SynonymEmbeddingModelOptions {
  /** Vector length (default 64; concepts take the first dimensions). */
  dimensions?: number;
  modelId?: string;
  provider?: string;
  maxEmbeddingsPerCall?: number;
  /**
   * Called before each call with its number (from 0): return a result to answer instead
   * (`{ embeddings: [] }`, a wrong dimension, NaN), throw to fail the call, `undefined` to answer normally.
   */
  fault?: (call: number, values: readonly string[]) => EmbeddingModelV4Result | undefined;
}

const conceptOf = new Map<string, number>(
  Object.values(SYNONYM_CONCEPTS).flatMap((words, concept) => words.map((word) => [word, concept] as const)),
);

function hashOf(word: string): number {
  let hash = 2166136261;
  for (const character of word) hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 16777619);
  return hash >>> 0;
}

/** The vector of `text`: concept weights (strong) and hashed other words (weak), normalized. */
export function synonymVector(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const conceptCount = Object.keys(SYNONYM_CONCEPTS).length;
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const concept = conceptOf.get(word);
    const slot =
      concept !== undefined
        ? concept % dimensions
        : conceptCount + (hashOf(word) % Math.max(1, dimensions - conceptCount));
    vector[slot] = (vector[slot] ?? 0) + (concept !== undefined ? 3 : 0.2);
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return norm === 0
    ? vector.map((_, index) => (index === dimensions - 1 ? 1 : 0))
    : vector.map((value) => value / norm);
}

/** An API error as a provider's rate limit answers it (HTTP 429). */
export function rateLimitError(): APICallError {
  return new APICallError({
    message: "Rate limit exceeded",
    url: "http://127.0.0.1/v1/embeddings",
    requestBodyValues: {},
    statusCode: 429,
    isRetryable: true,
  });
}

/**
 * @example
 * const model = createSynonymEmbeddingModel();
 * const store = openStore({ backend: "memory", embeddings: { model } });
 */
export function createSynonymEmbeddingModel({
  dimensions = 64,
  modelId = "synonyms-64",
  provider = "test",
  maxEmbeddingsPerCall = 96,
  fault,
}: SynonymEmbeddingModelOptions = {}) {
  const calls: SyntheticEmbeddingCall[] = [];
  const model: EmbeddingModelV4 & { calls: SyntheticEmbeddingCall[] } = {
    specificationVersion: "v4",
    provider,
    modelId,
    maxEmbeddingsPerCall,
    supportsParallelCalls: false,
    calls,
    async doEmbed({ values }: EmbeddingModelV4CallOptions): Promise<EmbeddingModelV4Result> {
      const number = calls.length;
      calls.push({ values: [...values] });
      const answer = fault?.(number, values);
      if (answer !== undefined) return answer;
      return { embeddings: values.map((value) => synonymVector(value, dimensions)), warnings: [] };
    },
  };
  return model;
}

/**
 * A synonym model whose batch calls (the embedder's) wait until `release()`; single-text calls
 * (a search's query) answer at once.
 *
 * @example const { model, release } = gatedEmbeddingModel(); ...; release();
 */
export function gatedEmbeddingModel() {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const model = createSynonymEmbeddingModel();
  const gated = {
    ...model,
    doEmbed: async (options: Parameters<typeof model.doEmbed>[0]) =>
      options.values.length > 1 ? (await gate, model.doEmbed(options)) : model.doEmbed(options),
  };
  return { model: gated, release: () => release() };
}
