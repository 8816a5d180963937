/**
 * Where a request to an Anthropic model gets its `cache_control` breakpoints (docs/adr/0055):
 * at most 4 per request, counting any the caller's own tools or messages already carry. In order
 * of value: the newest message (the next step reads everything up to it), the end of the system
 * prompt (tools + system: what the next window's first request can read), and the end of the
 * previous request (the message before the newest assistant step), which the newest breakpoint's
 * 20-block look-back misses after a step with many parallel tool calls. A breakpoint whose prefix is
 * shorter than the model's minimum cacheable length is not placed: Anthropic would ignore it.
 *
 * Pure: reads and returns call options of the AI SDK's provider interface; the provider package
 * turns a message's `providerOptions.anthropic.cacheControl` into `cache_control` on its last block.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt, SharedV4ProviderOptions } from "@ai-sdk/provider";
import type { CacheHintDrop } from "../core/rollover/step-usage.js";

/** Anthropic's limit of breakpoints in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** Characters per token of the prefix estimate: deliberately low, so a prefix is rather over-counted than a breakpoint lost. */
const CHARACTERS_PER_TOKEN = 3;

export type CacheTtl = "5m" | "1h";

export interface BreakpointPlan {
  params: LanguageModelV4CallOptions;
  /** Breakpoints ctxwin placed (the caller's own not included). */
  placed: number;
  dropped: CacheHintDrop[];
}

/**
 * @example
 * const { params: sent, placed } = placeAnthropicBreakpoints({ params, ttl: "5m", minimumTokens: 1024 });
 */
export function placeAnthropicBreakpoints({
  params,
  ttl,
  minimumTokens,
  optionsName = "anthropic",
}: {
  params: LanguageModelV4CallOptions;
  ttl?: CacheTtl | undefined;
  /** The model's minimum cacheable length, when known. */
  minimumTokens?: number | undefined;
  optionsName?: string;
}): BreakpointPlan {
  const prompt = params.prompt;
  const existing = countExistingBreakpoints(params, optionsName);
  const dropped: CacheHintDrop[] = [];
  // A message the caller marked already is a breakpoint (counted above), not a candidate.
  const candidates = candidateIndexes(prompt).filter(
    (index) => !hasCacheControl(prompt[index]?.providerOptions, optionsName),
  );
  const prefixTokens = prefixTokenEstimates(params);
  const eligible = candidates.filter((index) => {
    const tokens = prefixTokens[index] ?? 0;
    if (minimumTokens === undefined || tokens >= minimumTokens) return true;
    dropped.push({
      reason: "below-minimum",
      detail: `a prefix of about ${tokens} tokens is under the model's minimum of ${minimumTokens}`,
    });
    return false;
  });
  const slots = Math.max(0, MAX_CACHE_BREAKPOINTS - existing);
  const chosen = eligible.slice(0, slots);
  if (eligible.length > slots) {
    dropped.push({
      reason: "breakpoint-limit",
      detail: `${existing} breakpoint(s) set by the caller leave room for ${slots} of ctxwin's ${eligible.length} (Anthropic allows ${MAX_CACHE_BREAKPOINTS})`,
    });
  }
  if (chosen.length === 0) return { params, placed: 0, dropped };
  const cacheControl = ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl };
  const marked = new Set(chosen);
  const nextPrompt = prompt.map((message, index) =>
    marked.has(index)
      ? ({
          ...message,
          providerOptions: withOption(message.providerOptions, optionsName, { cacheControl }),
        } as typeof message)
      : message,
  );
  return { params: { ...params, prompt: nextPrompt }, placed: chosen.length, dropped };
}

/** Message indexes worth a breakpoint, most valuable first, without duplicates. */
function candidateIndexes(prompt: LanguageModelV4Prompt): number[] {
  const cacheable = (index: number) => index >= 0 && prompt[index] !== undefined && prompt[index]!.role !== "assistant";
  const newest = prompt.length - 1;
  let lastSystem = -1;
  let lastAssistant = -1;
  prompt.forEach((message, index) => {
    if (message.role === "system") lastSystem = index;
    if (message.role === "assistant") lastAssistant = index;
  });
  const ordered = [newest, lastSystem, lastAssistant - 1].filter(cacheable);
  return [...new Set(ordered)];
}

/** Estimated tokens of the request up to and including each message (tool definitions first, as Anthropic orders them). */
function prefixTokenEstimates(params: LanguageModelV4CallOptions): number[] {
  let characters = JSON.stringify(params.tools ?? []).length;
  return params.prompt.map((message) => {
    characters += JSON.stringify(message.content).length;
    return Math.ceil(characters / CHARACTERS_PER_TOKEN);
  });
}

/** Breakpoints the caller already set on tools, messages or parts (each counts against the limit). */
function countExistingBreakpoints(params: LanguageModelV4CallOptions, optionsName: string): number {
  let count = 0;
  for (const tool of params.tools ?? [])
    if ("providerOptions" in tool && hasCacheControl(tool.providerOptions, optionsName)) count += 1;
  for (const message of params.prompt) {
    if (hasCacheControl(message.providerOptions, optionsName)) count += 1;
    if (typeof message.content === "string") continue;
    for (const part of message.content)
      if (hasCacheControl((part as { providerOptions?: SharedV4ProviderOptions }).providerOptions, optionsName))
        count += 1;
  }
  return count;
}

function hasCacheControl(options: SharedV4ProviderOptions | undefined, optionsName: string): boolean {
  for (const name of new Set([optionsName, "anthropic"])) {
    const own = options?.[name];
    if (own !== undefined && (own["cacheControl"] != null || own["cache_control"] != null)) return true;
  }
  return false;
}

function withOption(
  options: SharedV4ProviderOptions | undefined,
  name: string,
  values: Record<string, unknown>,
): SharedV4ProviderOptions {
  return { ...options, [name]: { ...options?.[name], ...values } } as SharedV4ProviderOptions;
}
