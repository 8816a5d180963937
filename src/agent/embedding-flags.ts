/**
 * From `--embedding-model` and `--embedding-base-url` to an AI SDK embedding model (ADR 0063):
 * `openai:<id>` and `google:<id>` through their provider packages (keys from the environment, as
 * for `--model`), any OpenAI-compatible server (Ollama, LM Studio, vLLM) through
 * `@ai-sdk/openai-compatible` when a base URL is given. Refusals are `ModelConfigError`s.
 */
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { ModelConfigError, checkBaseUrl } from "./model-flags.js";

export interface EmbeddingFlags {
  embeddingModel?: string | undefined;
  embeddingBaseUrl?: string | undefined;
  env?: NodeJS.ProcessEnv;
}

const KEYS = { openai: ["OPENAI_API_KEY"], google: ["GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"] } as const;

/**
 * The embedding model the flags name, or `undefined` when none is given (nothing is ever sent).
 *
 * @example resolveEmbeddingModel({ embeddingModel: "openai:text-embedding-3-small" })
 * @example resolveEmbeddingModel({ embeddingModel: "nomic-embed-text", embeddingBaseUrl: "http://127.0.0.1:11434/v1" })
 */
export function resolveEmbeddingModel({
  embeddingModel,
  embeddingBaseUrl,
  env = process.env,
}: EmbeddingFlags): EmbeddingModelV4 | undefined {
  const reference = embeddingModel?.trim() ?? "";
  if (reference.length === 0) {
    if (embeddingBaseUrl !== undefined)
      throw new ModelConfigError(
        "--embedding-base-url needs --embedding-model <id>, the model the server embeds with.",
      );
    return undefined;
  }
  const value = (name: string) => (env[name] ?? "").trim() || undefined;
  if (embeddingBaseUrl !== undefined) {
    const baseURL = checkBaseUrl(embeddingBaseUrl, "--embedding-base-url");
    const id = reference.replace(/^(openai-compatible|ollama|lmstudio|lm-studio|vllm|local):/, "");
    const apiKey = value("CTXWIN_EMBEDDING_API_KEY") ?? value("OPENAI_API_KEY");
    return createOpenAICompatible({
      name: "openai-compatible",
      baseURL,
      ...(apiKey === undefined ? {} : { apiKey }),
    }).embeddingModel(id);
  }
  const separator = reference.indexOf(":");
  const provider = separator < 0 ? "" : reference.slice(0, separator);
  const id = reference.slice(separator + 1);
  if ((provider !== "openai" && provider !== "google") || id.length === 0) {
    throw new ModelConfigError(
      "--embedding-model must be openai:<id> or google:<id> " +
        "(e.g. openai:text-embedding-3-small, google:gemini-embedding-001), " +
        `or <id> with --embedding-base-url for an OpenAI-compatible server; got '${reference}'.`,
    );
  }
  const variables = KEYS[provider];
  const apiKey = variables.map(value).find((key) => key !== undefined);
  if (apiKey === undefined)
    throw new ModelConfigError(`no API key for --embedding-model ${reference}: set ${variables.join(" or ")}.`);
  return provider === "openai"
    ? createOpenAI({ apiKey }).embedding(id)
    : createGoogleGenerativeAI({ apiKey }).embedding(id);
}
