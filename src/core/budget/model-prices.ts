/**
 * Token prices per model, from the providers' public pricing pages (`model-prices.json`, one
 * source and date per family), and each model's minimum cacheable prefix. A model is found the way
 * the model catalog finds it (date suffixes, `-latest`, `provider:` prefixes); a model without an
 * entry has no price, and costs are then shown as tokens only, never guessed.
 */
import pricesFile from "./model-prices.json" with { type: "json" };
import { defaultModelCatalog } from "./model-catalog.js";

/** USD per million tokens. */
export interface ModelPrices {
  input: number;
  /** Input served from the provider's prompt cache. */
  cacheRead: number;
  /** Input written to the cache (Anthropic's 5-minute writes; equal to `input` where writes cost nothing extra). */
  cacheWrite: number;
  /** Anthropic's 1-hour cache writes. */
  cacheWrite1h?: number;
  output: number;
  /** The shortest prefix the provider caches, in tokens. */
  minimumCacheableTokens?: number;
  /** `provider:id` of the priced entry. */
  key: string;
  source: string;
  asOf: string;
}

interface PricesFileModel extends Omit<ModelPrices, "key" | "source" | "asOf"> {
  id: string;
}

interface PricesFile {
  families: Array<{ provider: string; source: string; asOf: string; models: PricesFileModel[] }>;
}

const byKey = new Map<string, ModelPrices>();
for (const family of (pricesFile as PricesFile).families) {
  for (const { id, ...prices } of family.models) {
    const key = `${family.provider}:${id}`;
    byKey.set(key, { ...prices, key, source: family.source, asOf: family.asOf });
  }
}

/**
 * The prices of a model, or `undefined` when no public price is recorded for it. Looked up in the
 * shipped catalog: a user's override of a model's limit does not change its price.
 *
 * @example
 * lookupModelPrices({ model: "anthropic:claude-sonnet-4-5-20250929" })?.cacheRead // 0.3
 * lookupModelPrices({ model: "ollama:qwen3:32b" }) // undefined
 */
export function lookupModelPrices({ model }: { model: string }): ModelPrices | undefined {
  if (model.trim().length === 0) return undefined;
  for (const reference of referencesOf(model)) {
    const found = defaultModelCatalog.lookup(reference);
    if (found.status !== "found" || found.entry.origin !== "built-in" || found.entry.provider === undefined) continue;
    const prices = byKey.get(`${found.entry.provider}:${found.entry.id}`);
    if (prices !== undefined) return prices;
  }
  return undefined;
}

/**
 * The reference as given, then, for an AI SDK provider id with dots (`anthropic.messages:…`,
 * `vertex.anthropic.messages:…`, what a step row stores), each of its segments as the provider.
 */
function referencesOf(model: string): string[] {
  const colon = model.indexOf(":");
  const prefix = colon > 0 ? model.slice(0, colon) : "";
  if (!prefix.includes(".")) return [model];
  const id = model.slice(colon + 1);
  return [model, ...prefix.split(".").map((segment) => `${segment}:${id}`)];
}

/** Every priced model, for documentation and tests. */
export function modelPriceEntries(): readonly ModelPrices[] {
  return [...byKey.values()];
}
