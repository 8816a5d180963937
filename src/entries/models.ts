/**
 * `ctxwin/models`: a model from a `provider:id` string, as the CLI's `--model` and `--base-url` take
 * it. Loads the provider packages (`@ai-sdk/openai`, `@ai-sdk/anthropic`, `@ai-sdk/google`,
 * `@ai-sdk/openai-compatible`).
 */
export { ModelConfigError, resolveModel, type ModelFlags, type ResolvedModel } from "../agent/model-flags.js";
export { resolveEmbeddingModel, type EmbeddingFlags } from "../agent/embedding-flags.js";
