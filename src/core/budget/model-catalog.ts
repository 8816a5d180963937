/**
 * The model catalog: context limit and maximum output per model, from the shipped JSON
 * (`model-catalog.json`, one source and date per family) plus user overrides. Lookup accepts
 * `provider:model`, `provider/model` and bare ids, is case-insensitive and tolerates date
 * suffixes and `-latest`. An unknown model has no limit: the caller makes no rollover decision.
 */
import { InvalidArgumentError } from "../errors.js";
import catalogFile from "./model-catalog.json" with { type: "json" };
import { idCandidates, readModelReference, type ModelReading } from "./model-reference.js";

/** The two facts the budget needs about a model. */
export interface ModelLimits {
  /** Largest request plus response the model accepts, in tokens. */
  contextLimit: number;
  /** Largest response, when the provider publishes one. */
  maxOutputTokens?: number;
}

/** A user-supplied entry: `model` is any reference the lookup accepts (`ollama:qwen3:32b`). */
export interface ModelOverride extends ModelLimits {
  model: string;
}

/** Overrides as a list, or as a record keyed by model reference (the config file's shape). */
export type ModelOverrides = readonly ModelOverride[] | Readonly<Record<string, ModelLimits>>;

export interface ModelCatalogEntry extends ModelLimits {
  /** Canonical provider; `undefined` for a bare override that applies to any provider. */
  provider: string | undefined;
  id: string;
  aliases: readonly string[];
  origin: "built-in" | "override";
  family?: string;
  /** Documentation the numbers come from. */
  source?: string;
  /** Date of the documentation state the numbers reflect (YYYY-MM-DD). */
  asOf?: string;
}

export interface FoundModel {
  status: "found";
  /** The reference as asked. */
  model: string;
  /** `provider:id` of the entry that answered. */
  key: string;
  contextLimit: number;
  maxOutputTokens: number | undefined;
  /** `exact` id, an `alias`, or after stripping a date/`-latest` `suffix`. */
  matched: "exact" | "alias" | "suffix";
  entry: ModelCatalogEntry;
}

export interface UnknownModel {
  status: "unknown";
  model: string;
  /** Normalized reference, stable across spellings: use it to warn once per model. */
  key: string;
  /** The model runs on a host whose window only the user knows (a local or OpenAI-compatible server). */
  needsUserLimit: boolean;
  /** One sentence for people: what is missing and how to supply it. */
  message: string;
}

export type ModelLookup = FoundModel | UnknownModel;

export interface ModelCatalog {
  /**
   * @example
   * catalog.lookup("anthropic:claude-sonnet-4-5-20250929") // { status: "found", contextLimit: 200000, ... }
   */
  lookup(model: string): ModelLookup;
  entries(): readonly ModelCatalogEntry[];
  /** A new catalog with these overrides on top (later overrides win). */
  withOverrides(overrides: ModelOverrides): ModelCatalog;
}

interface CatalogFileModel {
  id: string;
  contextLimit: number;
  maxOutputTokens?: number;
  aliases?: string[];
}

interface CatalogFileFamily {
  provider: string;
  family: string;
  source: string;
  asOf: string;
  models: CatalogFileModel[];
}

interface CatalogFile {
  version: number;
  families: CatalogFileFamily[];
}

const shippedCatalog: CatalogFile = catalogFile;

/**
 * The entries of the shipped catalog, in file order, each with its family, source and date.
 *
 * @example
 * builtInModelEntries().filter((entry) => entry.provider === "anthropic").map((entry) => entry.id)
 */
export function builtInModelEntries(): ModelCatalogEntry[] {
  return shippedCatalog.families.flatMap((family) =>
    family.models.map((model) => ({
      provider: family.provider,
      id: model.id,
      aliases: model.aliases ?? [],
      contextLimit: model.contextLimit,
      ...(model.maxOutputTokens === undefined ? {} : { maxOutputTokens: model.maxOutputTokens }),
      origin: "built-in" as const,
      family: family.family,
      source: family.source,
      asOf: family.asOf,
    })),
  );
}

/**
 * Builds a catalog: the shipped entries (unless `builtIn` is false) with `overrides` on top.
 * Overrides are checked before shipped entries; a malformed override throws `InvalidArgumentError`.
 *
 * @example
 * const catalog = createModelCatalog({ overrides: { "ollama:qwen3:32b": { contextLimit: 40960 } } });
 * catalog.lookup("ollama:qwen3:32b") // { status: "found", contextLimit: 40960, ... }
 */
export function createModelCatalog({
  overrides = [],
  builtIn = true,
}: { overrides?: ModelOverrides; builtIn?: boolean } = {}): ModelCatalog {
  const shipped = builtIn ? builtInModelEntries() : [];
  return buildCatalog(shipped, normalizeOverrides(overrides));
}

/** The shipped catalog without overrides. */
export const defaultModelCatalog: ModelCatalog = createModelCatalog();

/**
 * Looks a model up; `catalog` defaults to the shipped one.
 *
 * @example
 * lookupModel({ model: "gpt-4o-2024-08-06" }) // { status: "found", contextLimit: 128000, matched: "suffix", ... }
 */
export function lookupModel({
  model,
  catalog = defaultModelCatalog,
}: {
  model: string;
  catalog?: ModelCatalog;
}): ModelLookup {
  return catalog.lookup(model);
}

/**
 * The context limit of a model, or `undefined` when it is unknown (never 0, never infinite).
 *
 * @example
 * contextLimitFor({ model: "claude-haiku-4-5" }) // 200000
 */
export function contextLimitFor({
  model,
  catalog = defaultModelCatalog,
}: {
  model: string;
  catalog?: ModelCatalog;
}): number | undefined {
  const found = catalog.lookup(model);
  return found.status === "found" ? found.contextLimit : undefined;
}

function normalizeOverrides(overrides: ModelOverrides): ModelOverride[] {
  const list: ModelOverride[] = Array.isArray(overrides)
    ? [...(overrides as readonly ModelOverride[])]
    : Object.entries(overrides as Readonly<Record<string, ModelLimits>>).map(([model, limits]) => ({
        ...limits,
        model,
      }));
  for (const override of list) checkOverride(override);
  return list;
}

function checkOverride(override: ModelOverride): void {
  const where = `model override ${JSON.stringify(override?.model)}`;
  if (override === null || typeof override !== "object")
    throw new InvalidArgumentError("model overrides must be objects.");
  if (!isPositiveInteger(override.contextLimit)) {
    throw new InvalidArgumentError(
      `${where}: contextLimit must be a positive integer; got ${String(override.contextLimit)}.`,
    );
  }
  if (override.maxOutputTokens !== undefined && !isPositiveInteger(override.maxOutputTokens)) {
    throw new InvalidArgumentError(
      `${where}: maxOutputTokens must be a positive integer; got ${String(override.maxOutputTokens)}.`,
    );
  }
  if (override.maxOutputTokens !== undefined && override.maxOutputTokens > override.contextLimit) {
    throw new InvalidArgumentError(
      `${where}: maxOutputTokens (${override.maxOutputTokens}) is larger than contextLimit (${override.contextLimit}).`,
    );
  }
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

interface Index {
  byKey: Map<string, ModelCatalogEntry>;
  byId: Map<string, ModelCatalogEntry>;
}

function emptyIndex(): Index {
  return { byKey: new Map(), byId: new Map() };
}

function addBuiltIn(index: Index, entry: ModelCatalogEntry): void {
  for (const id of [entry.id, ...entry.aliases]) {
    const lower = id.toLowerCase();
    const key = `${entry.provider}:${lower}`;
    if (!index.byKey.has(key)) index.byKey.set(key, entry);
    if (!index.byId.has(lower)) index.byId.set(lower, entry);
  }
}

function buildCatalog(shipped: readonly ModelCatalogEntry[], overrides: readonly ModelOverride[]): ModelCatalog {
  const builtInIndex = emptyIndex();
  for (const entry of shipped) addBuiltIn(builtInIndex, entry);
  const overrideIndex = emptyIndex();
  const overrideLiterals = new Map<string, ModelCatalogEntry>();
  const overrideEntries: ModelCatalogEntry[] = [];
  for (const override of overrides) {
    const reading = readModelReference(override.model)[0];
    if (reading === undefined) continue;
    const entry: ModelCatalogEntry = {
      provider: reading.provider,
      id: reading.id,
      aliases: [],
      contextLimit: override.contextLimit,
      ...(override.maxOutputTokens === undefined ? {} : { maxOutputTokens: override.maxOutputTokens }),
      origin: "override",
    };
    overrideEntries.push(entry);
    overrideLiterals.set(override.model.trim().toLowerCase(), entry);
    // Only an override written without a provider answers for every provider.
    if (entry.provider !== undefined) overrideIndex.byKey.set(`${entry.provider}:${entry.id}`, entry);
    else overrideIndex.byId.set(entry.id, entry);
  }

  const lookup = (model: string): ModelLookup => {
    const readings = readModelReference(model);
    const literal = overrideLiterals.get(model.trim().toLowerCase());
    if (literal) return found(model, literal, "exact");
    for (const reading of readings) {
      const candidates = idCandidates(reading.id);
      for (const [position, id] of candidates.entries()) {
        const hit =
          findIn(overrideIndex, reading, id) ??
          (reading.providerKind === "local" ? undefined : findIn(builtInIndex, reading, id));
        if (hit === undefined) continue;
        // A shipped model may be overridden under any of its spellings, with its provider.
        const override = hit.origin === "built-in" ? overrideFor(overrideIndex, hit) : undefined;
        return found(model, override ?? hit, position > 0 ? "suffix" : hit.id === id ? "exact" : "alias");
      }
    }
    return unknown(model, readings);
  };

  return {
    lookup,
    entries: () => [...overrideEntries, ...shipped],
    withOverrides: (more) => buildCatalog(shipped, [...overrides, ...normalizeOverrides(more)]),
  };
}

function findIn(index: Index, reading: ModelReading, id: string): ModelCatalogEntry | undefined {
  if (reading.provider !== undefined) {
    const keyed = index.byKey.get(`${reading.provider}:${id}`);
    if (keyed) return keyed;
    // A provider-qualified reading also accepts an override written without a provider.
    const bare = index.byId.get(id);
    return bare?.provider === undefined ? bare : undefined;
  }
  return index.byId.get(id);
}

function overrideFor(index: Index, entry: ModelCatalogEntry): ModelCatalogEntry | undefined {
  for (const id of [entry.id, ...entry.aliases]) {
    const override = index.byKey.get(`${entry.provider}:${id.toLowerCase()}`);
    if (override) return override;
  }
  return undefined;
}

function found(model: string, entry: ModelCatalogEntry, matched: FoundModel["matched"]): FoundModel {
  return {
    status: "found",
    model,
    key: entry.provider === undefined ? entry.id : `${entry.provider}:${entry.id}`,
    contextLimit: entry.contextLimit,
    maxOutputTokens: entry.maxOutputTokens,
    matched,
    entry,
  };
}

function unknown(model: string, readings: readonly ModelReading[]): UnknownModel {
  const first = readings[0];
  const key =
    first === undefined
      ? model.trim().toLowerCase()
      : first.provider === undefined
        ? first.id
        : `${first.provider}:${first.id}`;
  const needsUserLimit = first?.providerKind === "local";
  const how =
    `Set it in code (budget models: { "${key}": { contextLimit: <tokens> } }) ` +
    `or in .ctxwin/config.json under "models"; until then ctxwin makes no rollover decision for it.`;
  const message = needsUserLimit
    ? `No context limit is known for "${model}": models served by "${first?.provider}" have ` +
      `whatever window that server was started with, so the limit must come from you. ${how}`
    : `No context limit is known for "${model}": it is not in ctxwin's model catalog. ${how}`;
  return { status: "unknown", model, key, needsUserLimit, message };
}
