/**
 * Provider prompt-cache hints (issue 28, docs/adr/0055), the one place they live: a model wrapper
 * (AI SDK middleware) that adds them to each request as the provider package receives it.
 * - Anthropic: `cache_control` breakpoints (`cache-breakpoints.ts`), with the session's TTL.
 * - OpenAI Responses: a `prompt_cache_key` per session window, so the window's requests reach the
 *   machines that hold its prefix.
 * - Every other provider (Google's implicit caching needs only a stable prefix; OpenAI-compatible
 *   servers): nothing, so nothing can break them.
 * A hint never fails a request: a provider that refuses one gets the request again without any,
 * for the rest of the session, with one warning. What was sent or left out rides on the step's
 * provider metadata (`ctxwin.cache`), which the step recorder stores with the step.
 */
import { createHash } from "node:crypto";
import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4StreamPart,
  type SharedV4ProviderOptions,
} from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModel } from "ai";
import { lookupModelPrices } from "../core/budget/model-prices.js";
import type { CacheHintDrop, StepCacheHints } from "../core/rollover/step-usage.js";
import { modelKey } from "./budget-policy.js";
import { placeAnthropicBreakpoints, type CacheTtl } from "./cache-breakpoints.js";
import { responsesOptionsName } from "./provider-options.js";

export type { CacheTtl } from "./cache-breakpoints.js";

/** The session's cache-hint settings and what it learned (a model that refused its hints). */
export interface CacheHintSettings {
  enabled: boolean;
  /** Lifetime of Anthropic breakpoints; `undefined` is Anthropic's default (5 minutes). */
  ttl: CacheTtl | undefined;
  /** Model keys whose provider refused a request with hints: they get none for the rest of the session. */
  refusedBy: Set<string>;
}

export interface CacheHintContext {
  sessionId: string;
  cache: CacheHintSettings;
  /** Logs a message once per distinct text. */
  warnOnce: (message: string) => void;
}

/** Where ctxwin's facts ride on the provider metadata of a step. */
export const CACHE_METADATA_KEY = "ctxwin";

type HintTarget = { provider: "anthropic" } | { provider: "openai"; optionsName: string };

/**
 * The model with the session's cache hints, or the model itself when it gets none.
 *
 * @example streamText({ model: cacheHintedModel(context, model, { windowId }), ... })
 */
export function cacheHintedModel(
  context: CacheHintContext,
  model: LanguageModel,
  { windowId }: { windowId: string },
): LanguageModel {
  if (!context.cache.enabled || typeof model === "string" || model.specificationVersion !== "v4") return model;
  const target = hintTargetOf(model);
  if (target === undefined) return model;
  const key = modelKey(model);
  const hinted = async <Result>(
    params: LanguageModelV4CallOptions,
    call: (params: LanguageModelV4CallOptions) => PromiseLike<Result>,
    tag: (result: Result, facts: StepCacheHints) => Result,
  ): Promise<Result> => {
    if (context.cache.refusedBy.has(key))
      return tag(await call(params), {
        provider: target.provider,
        dropped: [{ reason: "rejected", detail: "refused earlier in this session" }],
      });
    const plan = planHints({ context, target, key, params, windowId });
    warnAboutDrops(context, key, plan.facts.dropped ?? []);
    try {
      return tag(await call(plan.params), plan.facts);
    } catch (error) {
      if (plan.params === params || !refusesCacheHints(error)) throw error;
      context.cache.refusedBy.add(key);
      const detail = refusalText(error);
      context.warnOnce(
        `ctxwin: ${key} refused the request's prompt-cache hints (${detail}); it was sent again without them, and this session sends none to it from now on.`,
      );
      return tag(await call(params), { provider: target.provider, dropped: [{ reason: "rejected", detail }] });
    }
  };
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v4",
      wrapStream: ({ params, model: inner }) =>
        hinted(
          params,
          (sent) => inner.doStream(sent),
          (result, facts) => ({ ...result, stream: result.stream.pipeThrough(finishTagger(facts)) }),
        ),
      wrapGenerate: ({ params, model: inner }) =>
        hinted(
          params,
          (sent) => inner.doGenerate(sent),
          (result, facts) => ({
            ...result,
            providerMetadata: { ...result.providerMetadata, [CACHE_METADATA_KEY]: { cache: asJson(facts) } },
          }),
        ),
    },
  });
}

/**
 * The cache facts a step's provider metadata carries, if ctxwin put any there.
 *
 * @example cacheHintsOf(step.providerMetadata)?.breakpoints
 */
export function cacheHintsOf(providerMetadata: unknown): StepCacheHints | undefined {
  if (typeof providerMetadata !== "object" || providerMetadata === null) return undefined;
  const own = (providerMetadata as Record<string, { cache?: StepCacheHints } | undefined>)[CACHE_METADATA_KEY];
  return own?.cache;
}

/**
 * A stable `prompt_cache_key` for one window of a session: the session id is hashed (the provider
 * needs no name), and the key stays well under the API's 64 characters.
 *
 * @example promptCacheKeyFor("build-42", "w:118") // "ctxwin-3f1c…-w:118"
 */
export function promptCacheKeyFor(sessionId: string, windowId: string): string {
  return `ctxwin-${createHash("sha256").update(sessionId).digest("hex").slice(0, 16)}-${windowId}`;
}

function hintTargetOf(model: LanguageModelV4): HintTarget | undefined {
  if (model.provider.split(".").includes("anthropic")) return { provider: "anthropic" };
  const optionsName = responsesOptionsName(model);
  return optionsName === undefined ? undefined : { provider: "openai", optionsName };
}

function planHints({
  context,
  target,
  key,
  params,
  windowId,
}: {
  context: CacheHintContext;
  target: HintTarget;
  key: string;
  params: LanguageModelV4CallOptions;
  windowId: string;
}): {
  params: LanguageModelV4CallOptions;
  facts: StepCacheHints;
} {
  if (target.provider === "anthropic") {
    const ttl = context.cache.ttl;
    const plan = placeAnthropicBreakpoints({
      params,
      ttl,
      minimumTokens: lookupModelPrices({ model: key })?.minimumCacheableTokens,
    });
    const facts: StepCacheHints = {
      provider: "anthropic",
      breakpoints: plan.placed,
      ...(ttl === "1h" ? { ttl } : {}),
      ...(plan.dropped.length === 0 ? {} : { dropped: plan.dropped }),
    };
    return { params: plan.params, facts };
  }
  const own = params.providerOptions?.[target.optionsName];
  // A key the caller chose stays theirs.
  if (own?.["promptCacheKey"] != null) return { params, facts: { provider: "openai", promptCacheKey: false } };
  const providerOptions = {
    ...params.providerOptions,
    [target.optionsName]: { ...own, promptCacheKey: promptCacheKeyFor(context.sessionId, windowId) },
  } as SharedV4ProviderOptions;
  return { params: { ...params, providerOptions }, facts: { provider: "openai", promptCacheKey: true } };
}

const DROP_WARNINGS: Record<Exclude<CacheHintDrop["reason"], "rejected">, string> = {
  "below-minimum":
    "is shorter than the model's minimum cacheable length, so it is sent without a cache breakpoint there",
  "breakpoint-limit":
    "already carries cache breakpoints of its own, so ctxwin places only as many as fit under Anthropic's limit of 4",
};

/** One warning per session, model and reason; every step records its own drops. */
function warnAboutDrops(context: CacheHintContext, key: string, dropped: readonly CacheHintDrop[]): void {
  for (const reason of new Set(dropped.map((drop) => drop.reason))) {
    if (reason === "rejected") continue;
    context.warnOnce(
      `ctxwin: a request to ${key} ${DROP_WARNINGS[reason]} (recorded in each step's metadata as cache.dropped).`,
    );
  }
}

/** A refusal that names a cache option: an old or strict server that does not know it. */
function refusesCacheHints(error: unknown): error is APICallError {
  if (!APICallError.isInstance(error)) return false;
  if (error.statusCode !== 400 && error.statusCode !== 422) return false;
  return /prompt_cache_key|prompt_cache_retention|cache_control|cachecontrol/i.test(
    `${error.message} ${error.responseBody ?? ""}`,
  );
}

function refusalText(error: APICallError): string {
  const text = error.message.replace(/\s+/g, " ").trim();
  return `HTTP ${error.statusCode}: ${text.length > 160 ? `${text.slice(0, 157)}...` : text}`;
}

function finishTagger(facts: StepCacheHints): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
  return new TransformStream({
    transform(part, controller) {
      if (part.type !== "finish") return controller.enqueue(part);
      controller.enqueue({
        ...part,
        providerMetadata: { ...part.providerMetadata, [CACHE_METADATA_KEY]: { cache: asJson(facts) } },
      });
    },
  });
}

function asJson(facts: StepCacheHints): Record<string, never> {
  return JSON.parse(JSON.stringify(facts)) as Record<string, never>;
}
