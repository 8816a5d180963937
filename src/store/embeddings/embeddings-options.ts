/**
 * The `embeddings` option of `openStore` (ADR 0063), and its check.
 */
import { StoreOptionsError } from "../errors.js";
import type { EmbeddingModelInput } from "./embed-texts.js";

export interface EmbeddingsOptions {
  /** An AI SDK embedding model object, e.g. `openai.embedding("text-embedding-3-small")`. */
  model: EmbeddingModelInput;
  /** Texts per provider call (default 64; the SDK splits further by the model's own limit). */
  batchSize?: number;
  /** Characters per embedded chunk of a row (default 2,000); a row gives at most 8 chunks. */
  maxChunkChars?: number;
  /** Waits before each retry of a failed provider call (default 1 s, 4 s, 16 s). */
  retryDelaysMs?: number[];
  /** Deadline of one provider call (ms, default 30,000). */
  timeoutMs?: number;
  /** Embedder problems (a provider failing, a bad answer); default: a line on stderr. */
  onWarning?: (message: string) => void;
  /** SQLite: load the `sqlite-vec` extension when installed (default `true`); `false` scores vectors in JavaScript. */
  sqliteVec?: boolean;
}

const KNOWN = ["model", "batchSize", "maxChunkChars", "retryDelaysMs", "timeoutMs", "onWarning", "sqliteVec"];

/** Refuses an `embeddings` option that is not `{ model }` with an AI SDK embedding model object. */
export function checkEmbeddingsOptions(value: unknown): EmbeddingsOptions {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new StoreOptionsError(
      "openStore: embeddings must be { model }, with an AI SDK embedding model such as openai.embedding('text-embedding-3-small'). Nothing was opened.",
    );
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => record[key] !== undefined && !KNOWN.includes(key));
  if (unknown.length > 0) {
    throw new StoreOptionsError(
      `openStore: embeddings does not know ${unknown.map((key) => `'${key}'`).join(", ")}; ` +
        `it accepts ${KNOWN.map((key) => `'${key}'`).join(", ")}. Nothing was opened.`,
      unknown,
    );
  }
  const model = record["model"] as Record<string, unknown> | undefined;
  if (
    model === undefined ||
    model === null ||
    typeof model !== "object" ||
    typeof model["doEmbed"] !== "function" ||
    typeof model["modelId"] !== "string"
  ) {
    throw new StoreOptionsError(
      "openStore: embeddings.model must be an AI SDK embedding model object " +
        "(e.g. openai.embedding('text-embedding-3-small')), not a string id. Nothing was opened.",
    );
  }
  if (model["specificationVersion"] !== "v4") {
    throw new StoreOptionsError(
      "openStore: embeddings.model must implement the v4 embedding model specification (AI SDK 7); " +
        `got ${String(model["specificationVersion"])}. Nothing was opened.`,
    );
  }
  const batchSize = record["batchSize"];
  if (
    batchSize !== undefined &&
    (typeof batchSize !== "number" || !Number.isInteger(batchSize) || batchSize < 1 || batchSize > 2_048)
  ) {
    throw new StoreOptionsError(
      `openStore: embeddings.batchSize must be an integer from 1 to 2048; got ${String(batchSize)}. Nothing was opened.`,
    );
  }
  return value as EmbeddingsOptions;
}
