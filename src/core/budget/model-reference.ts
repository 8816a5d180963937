/**
 * Parses what people type for a model (`anthropic:claude-sonnet-4-5`, `openai/gpt-4o-2024-08-06`,
 * `meta-llama/Llama-3.3-70B-Instruct`, `ollama:qwen3:32b`, `gpt-4.1`) into the readings the
 * catalog lookup tries, and lists the suffix-stripped candidates of an id (`-20250929`, `-latest`).
 */
import { InvalidArgumentError } from "../errors.js";

/** Providers the shipped catalog knows, with the spellings that name them. */
const PROVIDER_ALIASES: Readonly<Record<string, string>> = {
  openai: "openai",
  azure: "openai",
  "azure-openai": "openai",
  anthropic: "anthropic",
  claude: "anthropic",
  google: "google",
  gemini: "google",
  vertex: "google",
  "google-vertex": "google",
  "google-ai": "google",
  mistral: "mistral",
  mistralai: "mistral",
  deepseek: "deepseek",
  "deepseek-ai": "deepseek",
  xai: "xai",
  "x-ai": "xai",
  grok: "xai",
  meta: "meta",
  "meta-llama": "meta",
  llama: "meta",
  qwen: "qwen",
  alibaba: "qwen",
  dashscope: "qwen",
};

/**
 * Hosts whose window is whatever the server was started with: the shipped catalog does not
 * apply to them, so their limit must come from the user.
 */
const LOCAL_PROVIDERS = new Set([
  "ollama",
  "lmstudio",
  "lm-studio",
  "llama.cpp",
  "llamacpp",
  "llama-cpp",
  "vllm",
  "localai",
  "local",
  "tgi",
  "openai-compatible",
]);

/** Hosts that serve other providers' models under `host:provider/model` or plain ids. */
const ROUTER_PROVIDERS = new Set([
  "openrouter",
  "together",
  "togetherai",
  "groq",
  "fireworks",
  "deepinfra",
  "bedrock",
  "amazon-bedrock",
  "gateway",
  "vercel",
  "models",
]);

export type ProviderKind = "known" | "local" | "router" | "unknown";

/** One way to read a model reference: a provider (if any) and a lower-case model id. */
export interface ModelReading {
  /** Canonical provider (`openai`, `anthropic`, ...) or the prefix as written for other hosts. */
  provider: string | undefined;
  providerKind: ProviderKind | undefined;
  id: string;
}

/**
 * The canonical name of a provider spelling, or `undefined` when ctxwin's catalog does not cover it.
 * AI SDK provider ids such as `openai.responses` resolve through their first segment.
 *
 * @example
 * canonicalProvider("meta-llama") // "meta"
 * canonicalProvider("openai.chat") // "openai"
 */
export function canonicalProvider(name: string): string | undefined {
  const lower = name.toLowerCase();
  return PROVIDER_ALIASES[lower] ?? PROVIDER_ALIASES[lower.split(".")[0] ?? ""];
}

/**
 * What kind of host a provider spelling names.
 *
 * @example
 * providerKind("ollama") // "local"
 */
export function providerKind(name: string): ProviderKind {
  const lower = name.toLowerCase();
  if (LOCAL_PROVIDERS.has(lower)) return "local";
  if (canonicalProvider(lower) !== undefined) return "known";
  if (ROUTER_PROVIDERS.has(lower)) return "router";
  return "unknown";
}

const PREFIX_PATTERN = /^([a-z0-9][a-z0-9._-]*?)[:/](.+)$/;
const CLOUD_PREFIX_PATTERN = /^(?:(?:us|eu|apac|global)\.)?(anthropic|meta|mistral|deepseek|qwen)\.(.+)$/;

/**
 * The readings of a model reference, most specific first. Case-insensitive.
 * Throws `InvalidArgumentError` for an empty or non-string reference.
 *
 * @example
 * readModelReference("openrouter:anthropic/claude-3.5-sonnet")[0] // { provider: "anthropic", providerKind: "known", id: "claude-3.5-sonnet" }
 */
export function readModelReference(model: string): ModelReading[] {
  if (typeof model !== "string" || model.trim().length === 0) {
    throw new InvalidArgumentError(
      `model must be a non-empty string such as "openai:gpt-4.1"; got ${JSON.stringify(model)}.`,
    );
  }
  const readings: ModelReading[] = [];
  collectReadings(model.trim().toLowerCase(), readings, 0);
  const seen = new Set<string>();
  return readings.filter((reading) => {
    const key = `${reading.provider ?? ""}\u0000${reading.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function collectReadings(reference: string, readings: ModelReading[], depth: number): void {
  if (reference.startsWith("ft:")) {
    // OpenAI fine-tunes: ft:<base model>:<organization>:<suffix>:<id>
    const base = reference.split(":")[1];
    if (base) readings.push({ provider: "openai", providerKind: "known", id: base });
    return;
  }
  const cloud = CLOUD_PREFIX_PATTERN.exec(reference);
  if (cloud) {
    // Cloud catalogs (Bedrock) spell `anthropic.claude-3-5-sonnet-20241022-v2:0`.
    readings.push({
      provider: canonicalProvider(cloud[1] ?? ""),
      providerKind: "known",
      id: stripCloudVersion(cloud[2] ?? ""),
    });
    return;
  }
  const prefixed = depth < 3 ? PREFIX_PATTERN.exec(reference) : null;
  if (prefixed) {
    const prefix = prefixed[1] ?? "";
    const rest = prefixed[2] ?? "";
    const kind = providerKind(prefix);
    if (kind === "known") {
      readings.push({ provider: canonicalProvider(prefix), providerKind: kind, id: rest });
      return;
    }
    if (kind === "local") {
      readings.push({ provider: prefix, providerKind: kind, id: rest });
      return;
    }
    // A router or an unknown prefix: read what follows on its own, then the whole reference as an id.
    collectReadings(rest, readings, depth + 1);
    readings.push({ provider: undefined, providerKind: undefined, id: reference });
    return;
  }
  readings.push({ provider: undefined, providerKind: undefined, id: reference });
}

function stripCloudVersion(id: string): string {
  // Bedrock ids end in a version such as `-v2:0` or `-v1`.
  return id.replace(/-v\d+(?::\d+)?$/, "");
}

const SUFFIX_PATTERNS: readonly RegExp[] = [
  /-latest$/,
  /[-@]\d{4}-\d{2}-\d{2}$/,
  /[-@]\d{8}$/,
  /-\d{2}-\d{2}$/,
  /-\d{4}$/,
  /-\d{3}$/,
  /-(?:preview|exp)$/,
];

/**
 * The id itself, then the ids left after stripping one trailing date, version or `-latest`
 * suffix at a time (`claude-3-5-sonnet-20241022` → `claude-3-5-sonnet`).
 *
 * @example
 * idCandidates("gemini-2.5-pro-preview-06-05") // ["gemini-2.5-pro-preview-06-05", "gemini-2.5-pro-preview", "gemini-2.5-pro"]
 */
export function idCandidates(id: string): string[] {
  const candidates = [id];
  let current = id;
  for (let step = 0; step < 4; step += 1) {
    const pattern = SUFFIX_PATTERNS.find((candidate) => candidate.test(current));
    if (pattern === undefined) break;
    const next = current.replace(pattern, "");
    if (next.length === 0 || next === current) break;
    candidates.push(next);
    current = next;
  }
  return candidates;
}
