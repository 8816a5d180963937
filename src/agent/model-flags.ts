/**
 * From what people type (`--model`, `--base-url`, `--context-limit`, API keys in the environment)
 * to an AI SDK language model: `openai:<id>`, `anthropic:<id>` and `google:<id>` (Gemini) through
 * their provider packages,
 * any OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio, proxies) through
 * `@ai-sdk/openai-compatible` when a base URL is given. Every refusal is a `ModelConfigError` with a
 * one-line message that says what to do. No terminal code here: the web server uses it too.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { errorClass } from "../core/errors.js";
import { defaultModelCatalog, lookupModel, type ModelCatalog } from "../core/budget/model-catalog.js";

/** Providers reached through their own package (no `--base-url`). */
export const MODEL_PROVIDERS = ["openai", "anthropic", "google"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** How each provider package is reached: its key variables (first set wins), base URL variable, and a model id for hints. */
interface HostedProvider {
  keyVariables: readonly string[];
  baseUrlVariable: string;
  example: string;
  /** An extra hint when the key is missing. */
  keyHint?: string;
  create(options: { apiKey: string; baseURL?: string }): (id: string) => LanguageModel;
}

const HOSTED_PROVIDERS: Readonly<Record<ModelProvider, HostedProvider>> = {
  openai: {
    keyVariables: ["OPENAI_API_KEY"],
    baseUrlVariable: "OPENAI_BASE_URL",
    example: "gpt-4.1-mini",
    keyHint: " (or pass --base-url <url> for a local OpenAI-compatible server)",
    create: (options) => createOpenAI(options),
  },
  anthropic: {
    keyVariables: ["ANTHROPIC_API_KEY"],
    baseUrlVariable: "ANTHROPIC_BASE_URL",
    example: "claude-sonnet-4-5",
    create: (options) => createAnthropic(options),
  },
  google: {
    // The package's own variable first, then the one Google's Gemini API docs use (ADR 0029).
    keyVariables: ["GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"],
    baseUrlVariable: "GOOGLE_GENERATIVE_AI_BASE_URL",
    example: "gemini-2.5-flash",
    create: (options) => createGoogleGenerativeAI(options),
  },
};

/** Smallest `--context-limit` accepted: below it not even the system prompt and tools fit. */
export const MINIMUM_CONTEXT_LIMIT = 1024;
/** Largest `--context-limit` accepted (no model comes near it; it catches typos). */
export const MAXIMUM_CONTEXT_LIMIT = 100_000_000;

/**
 * Prefixes that name the host of an OpenAI-compatible server rather than part of the model id:
 * with `--base-url`, `ollama:qwen3:32b` sends `qwen3:32b` and `openrouter:anthropic/claude-sonnet-4.5`
 * sends `anthropic/claude-sonnet-4.5` (the catalog reads a router's `provider/model` ids, ADR 0030).
 * Other prefixes stay part of the id (Ollama has tags such as `mistral:7b`).
 */
const HOST_PREFIXES = new Set([
  "openai-compatible",
  "ollama",
  "vllm",
  "llamacpp",
  "llama.cpp",
  "llama-cpp",
  "lmstudio",
  "lm-studio",
  "localai",
  "local",
  "tgi",
  "openrouter",
]);

/** Default provider name of a `--base-url` model: the catalog treats it as a host whose window only the user knows. */
const COMPATIBLE_PROVIDER_NAME = "openai-compatible";

/**
 * A model flag that cannot work: no model, an unknown provider, a missing API key, an unknown
 * context limit, a bad URL. The message is one line for people.
 *
 * @example
 * try { resolveModel({ model: "gpt-9" }) } catch (error) { if (ModelConfigError.isInstance(error)) console.error(`ctxwin: ${error.message}`) }
 */
export class ModelConfigError extends errorClass("CtxwinModelConfigError") {}

export interface ModelFlags {
  /** `openai:<id>`, `anthropic:<id>`, `google:<id>`, a catalog id such as `gpt-4.1` or, with `baseUrl`, the server's model id. Default: `CTXWIN_MODEL`. */
  model?: string;
  /** URL of an OpenAI-compatible server (`http://127.0.0.1:11434/v1`). Default: `CTXWIN_BASE_URL`. */
  baseUrl?: string;
  /** API key; default from the environment (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GOOGLE_GENERATIVE_AI_API_KEY` or `GEMINI_API_KEY`, `CTXWIN_API_KEY`). */
  apiKey?: string;
  /** The model's context window in tokens; needed when the catalog does not know the model. */
  contextLimit?: number;
  env?: NodeJS.ProcessEnv;
  /** Catalog used to find the context limit (default: the shipped one; pass one with the config file's overrides). */
  catalog?: ModelCatalog;
}

export interface ResolvedModel {
  model: LanguageModel;
  /** For people: `openai:gpt-4.1-mini`, `qwen3:32b @ http://127.0.0.1:11434/v1`. */
  label: string;
  /** The context limit to give the session: the flag's, or `undefined` when the catalog knows the model. */
  contextLimit?: number;
  /** Which package serves the model. */
  provider: ModelProvider | "openai-compatible";
  /**
   * The server the requests go to, when not the provider's default (`--base-url`, `OPENAI_BASE_URL`,
   * `ANTHROPIC_BASE_URL`, `GOOGLE_GENERATIVE_AI_BASE_URL`).
   */
  baseUrl?: string;
  /** The environment variable the key came from, to name when the provider refuses it. */
  keyVariable?: string;
}

/**
 * Builds the language model the flags describe. Throws `ModelConfigError` when they cannot work;
 * nothing is sent over the network here.
 *
 * @example
 * const { model, label, contextLimit } = resolveModel({ model: "openai:gpt-4.1-mini" });
 * resolveModel({ model: "qwen3:32b", baseUrl: "http://127.0.0.1:11434/v1", contextLimit: 40_960 });
 */
export function resolveModel({
  model,
  baseUrl,
  apiKey,
  contextLimit,
  env = process.env,
  catalog = defaultModelCatalog,
}: ModelFlags = {}): ResolvedModel {
  checkContextLimit(contextLimit);
  const reference = (model ?? nonEmpty(env["CTXWIN_MODEL"]) ?? "").trim();
  if (reference.length === 0) {
    throw new ModelConfigError(
      "no model given: pass --model, e.g. --model openai:gpt-4.1-mini, " +
        "--model anthropic:claude-sonnet-4-5, or --model <id> --base-url <url> for an OpenAI-compatible server.",
    );
  }
  const url = baseUrl ?? nonEmpty(env["CTXWIN_BASE_URL"]);
  if (url !== undefined)
    return compatibleModel({ reference, baseUrl: checkBaseUrl(url), apiKey, contextLimit, env, catalog });
  const { provider, id } = providerOf(reference, catalog);
  const key = `${provider}:${id}`;
  const limit = requireLimit({ key, shown: key, contextLimit, catalog });
  const hosted = HOSTED_PROVIDERS[provider];
  const hostedBaseUrl = optionalBaseUrl(env, hosted.baseUrlVariable);
  const flagKey = nonEmpty(apiKey);
  const keyVariable =
    flagKey !== undefined ? undefined : hosted.keyVariables.find((variable) => nonEmpty(env[variable]) !== undefined);
  const resolvedKey = flagKey ?? (keyVariable === undefined ? undefined : nonEmpty(env[keyVariable]));
  if (resolvedKey === undefined)
    throw new ModelConfigError(`no API key: set ${hosted.keyVariables.join(" or ")}${hosted.keyHint ?? ""}.`);
  const create = hosted.create({
    apiKey: resolvedKey,
    ...(hostedBaseUrl === undefined ? {} : { baseURL: hostedBaseUrl }),
  });
  return {
    model: create(id),
    label: key,
    provider,
    ...limit,
    ...(hostedBaseUrl === undefined ? {} : { baseUrl: hostedBaseUrl }),
    ...(keyVariable === undefined ? {} : { keyVariable }),
  };
}

function optionalBaseUrl(env: NodeJS.ProcessEnv, variable: string): string | undefined {
  const value = nonEmpty(env[variable]);
  return value === undefined ? undefined : checkBaseUrl(value, variable);
}

/**
 * Reads a `--context-limit` value: a whole number of tokens, `_` or `,` allowed as separators, or
 * with a `k` suffix (`32k` = 32,000). Throws `ModelConfigError` for anything else.
 *
 * @example parseContextLimit("40_960") // 40960
 * @example parseContextLimit("128k") // 128000
 */
export function parseContextLimit(text: string): number {
  const match = /^([0-9][0-9_,]*)(k)?$/i.exec(text.trim());
  const digits = match?.[1]?.replace(/[_,]/g, "");
  const value =
    digits === undefined || digits.length > 12 ? Number.NaN : Number(digits) * (match?.[2] === undefined ? 1 : 1000);
  checkContextLimit(value, text);
  return value;
}

/**
 * `--max-retries`: how often a failed model call is retried (with backoff) before the turn fails.
 *
 * @example parseMaxRetries("0") // 0
 */
export function parseMaxRetries(text: string): number {
  const value = /^\d{1,2}$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(value >= 0 && value <= 10))
    throw new ModelConfigError(
      `bad --max-retries '${text}': expected a whole number from 0 to 10 (0: report a failed call at once).`,
    );
  return value;
}

/**
 * `--prompt-cache`: the session's provider prompt-cache hints (docs/adr/0055). `on` is the default
 * (Anthropic breakpoints with the 5-minute lifetime, an OpenAI prompt_cache_key per window), `1h`
 * keeps Anthropic's cache an hour, `off` sends no hint at all.
 *
 * @example parsePromptCache("1h") // { ttl: "1h" }
 * @example parsePromptCache("off") // false
 */
export function parsePromptCache(text: string): { ttl?: "1h" } | false {
  const value = text.trim().toLowerCase();
  if (value === "on" || value === "5m") return {};
  if (value === "1h") return { ttl: "1h" };
  if (value === "off") return false;
  throw new ModelConfigError(
    `bad --prompt-cache '${text}': expected on (the default, Anthropic's 5-minute cache), 1h (an hour) or off (no cache hints).`,
  );
}

function checkContextLimit(contextLimit: number | undefined, shown: string = String(contextLimit)): void {
  if (contextLimit === undefined) return;
  if (
    !Number.isSafeInteger(contextLimit) ||
    contextLimit < MINIMUM_CONTEXT_LIMIT ||
    contextLimit > MAXIMUM_CONTEXT_LIMIT
  ) {
    throw new ModelConfigError(
      `bad --context-limit '${shown}': ` +
        `expected a whole number of tokens from ${MINIMUM_CONTEXT_LIMIT} to ${MAXIMUM_CONTEXT_LIMIT}, ` +
        "e.g. --context-limit 32768 or 128k.",
    );
  }
}

function compatibleModel({
  reference,
  baseUrl,
  apiKey,
  contextLimit,
  env,
  catalog,
}: {
  reference: string;
  baseUrl: string;
  apiKey: string | undefined;
  contextLimit: number | undefined;
  env: NodeJS.ProcessEnv;
  catalog: ModelCatalog;
}): ResolvedModel {
  const colon = reference.indexOf(":");
  const prefix = colon > 0 ? reference.slice(0, colon).toLowerCase() : "";
  const named = prefix === "openai" || prefix === "anthropic" || HOST_PREFIXES.has(prefix);
  const id = named ? reference.slice(colon + 1) : reference;
  if (id.length === 0)
    throw new ModelConfigError(
      `no model id in --model '${reference}': expected e.g. --model qwen3:32b with --base-url.`,
    );
  const name = named ? prefix : COMPATIBLE_PROVIDER_NAME;
  const label = `${id} @ ${baseUrl}`;
  const limit = requireLimit({ key: `${name}:${id}`, shown: label, contextLimit, catalog });
  const flagKey = nonEmpty(apiKey);
  const keyVariable =
    flagKey !== undefined
      ? undefined
      : ["CTXWIN_API_KEY", "OPENAI_API_KEY"].find((variable) => nonEmpty(env[variable]) !== undefined);
  const key = flagKey ?? (keyVariable === undefined ? undefined : nonEmpty(env[keyVariable]));
  const provider = createOpenAICompatible({
    name,
    baseURL: baseUrl,
    includeUsage: true,
    ...(key === undefined ? {} : { apiKey: key }),
  });
  return {
    model: provider.chatModel(id),
    label,
    provider: "openai-compatible",
    baseUrl,
    ...limit,
    ...(keyVariable === undefined ? {} : { keyVariable }),
  };
}

function providerOf(reference: string, catalog: ModelCatalog): { provider: ModelProvider; id: string } {
  const colon = reference.indexOf(":");
  if (colon > 0) {
    const prefix = reference.slice(0, colon).toLowerCase();
    const id = reference.slice(colon + 1).trim();
    if (!isModelProvider(prefix)) {
      throw new ModelConfigError(
        `unknown provider '${prefix}' in --model '${reference}': ` +
          `use ${MODEL_PROVIDERS.map((name) => `${name}:<model>`).join(" or ")}, or --base-url <url> for ` +
          "an OpenAI-compatible server (Ollama, llama.cpp, vLLM).",
      );
    }
    if (id.length === 0)
      throw new ModelConfigError(
        `no model id in --model '${reference}': expected e.g. ${prefix}:${HOSTED_PROVIDERS[prefix].example}.`,
      );
    return { provider: prefix, id };
  }
  const found = lookupModel({ model: reference, catalog });
  const provider = found.status === "found" ? found.entry.provider : undefined;
  if (provider !== undefined && isModelProvider(provider)) return { provider, id: reference };
  throw new ModelConfigError(
    `cannot tell the provider of --model '${reference}': ` +
      `write it as ${MODEL_PROVIDERS.map((name) => `${name}:${reference}`).join(" or ")}, ` +
      "or add --base-url <url> for an OpenAI-compatible server.",
  );
}

function isModelProvider(name: string | undefined): name is ModelProvider {
  return (MODEL_PROVIDERS as readonly string[]).includes(name ?? "");
}

/** The flag's limit when given; otherwise the catalog must know the model. */
function requireLimit({
  key,
  shown,
  contextLimit,
  catalog,
}: {
  key: string;
  shown: string;
  contextLimit: number | undefined;
  catalog: ModelCatalog;
}): { contextLimit?: number } {
  if (contextLimit !== undefined) return { contextLimit };
  const found = lookupModel({ model: key, catalog });
  if (found.status === "found") return {};
  throw new ModelConfigError(
    `the context limit of ${shown} is unknown: pass --context-limit <tokens> (the window the model or server was started with, e.g. --context-limit 32768).`,
  );
}

export function checkBaseUrl(text: string, flag = "--base-url"): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ModelConfigError(`bad ${flag} '${text}': expected an http(s) URL such as http://127.0.0.1:11434/v1.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ModelConfigError(
      `bad ${flag} '${text}': expected an http:// or https:// URL such as http://127.0.0.1:11434/v1.`,
    );
  return url.toString().replace(/\/+$/, "");
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim().length === 0 ? undefined : value.trim();
}
