/**
 * The usage a provider reported for a step, kept in the `metadata` of the step's assistant row so
 * that a new session object over the same store can re-derive the window's pressure.
 */

/** Token usage of one step as the provider reported it. */
export interface StepUsage {
  /** Input tokens of the request, cached reads included once. */
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  /** Input tokens read from the provider's cache (already inside `inputTokens`). */
  cacheReadTokens?: number | undefined;
  /** Input tokens written to the provider's cache (already inside `inputTokens`; Anthropic charges them extra). */
  cacheWriteTokens?: number | undefined;
  /** The name importers wrote for `cacheReadTokens` before issue 28; read as it, never written. */
  cachedInputTokens?: number | undefined;
}

/** A cache hint ctxwin did not send, and why (docs/adr/0055). */
export interface CacheHintDrop {
  /**
   * `rejected`: the provider refused the request with it (it was sent again without);
   * `breakpoint-limit`: no room left under Anthropic's 4 breakpoints; `below-minimum`: the prefix is
   * shorter than the model's minimum cacheable length.
   */
  reason: "rejected" | "breakpoint-limit" | "below-minimum";
  detail: string;
}

/** The cache hints a step's request was sent with. */
export interface StepCacheHints {
  /** `anthropic`: `cache_control` breakpoints; `openai`: a `prompt_cache_key`. */
  provider: "anthropic" | "openai";
  /** Breakpoints ctxwin placed (Anthropic). */
  breakpoints?: number;
  /** The breakpoints' lifetime when it is not Anthropic's default of 5 minutes (its writes cost more). */
  ttl?: "1h";
  /** Whether the request carried ctxwin's `prompt_cache_key` (OpenAI Responses). */
  promptCacheKey?: boolean;
  dropped?: CacheHintDrop[];
}

/** What ctxwin stores in an assistant step row's `metadata`. */
export interface StepMetadata {
  usage: StepUsage;
  /** `provider:modelId` of the model that produced the step. */
  model: string;
  finishReason?: string;
  /** Our own estimate of the request the step answered (for calibration). */
  estimatedInputTokens?: number;
  /** Our calibrated estimate of that request: the figure the hard-ceiling check used. */
  checkedInputTokens?: number;
  /** The context limit the step was budgeted against, so a viewer without the model can draw the bar. */
  contextLimit?: number;
  /**
   * Tool calls of the step that never executed: the SDK refused them before running (a tool the
   * step did not offer, input its schema rejected). Their parts end in `output-error` like a tool
   * that threw; this tells the two apart (docs/adr/0050).
   */
  notRunToolCallIds?: string[];
  /** The cache hints of the request, when ctxwin sent (or dropped) any. */
  cache?: StepCacheHints;
}

/**
 * @example
 * stepMetadata({ usage: { inputTokens: 900, outputTokens: 40 }, model: "openai:gpt-4o" })
 */
export function stepMetadata(metadata: StepMetadata): { ctxwinStep: StepMetadata } {
  return { ctxwinStep: metadata };
}

/**
 * The step metadata of a row, or `undefined` when the row has none (or it is malformed).
 *
 * @example
 * readStepMetadata(row)?.usage.inputTokens
 */
export function readStepMetadata(row: { metadata?: unknown }): StepMetadata | undefined {
  const metadata = row.metadata;
  if (typeof metadata !== "object" || metadata === null) return undefined;
  const step = (metadata as { ctxwinStep?: unknown }).ctxwinStep;
  if (typeof step !== "object" || step === null) return undefined;
  const usage = (step as { usage?: unknown }).usage;
  if (typeof usage !== "object" || usage === null) return undefined;
  const inputTokens = countOrUndefined((usage as { inputTokens?: unknown }).inputTokens);
  const outputTokens = countOrUndefined((usage as { outputTokens?: unknown }).outputTokens);
  const model = (step as { model?: unknown }).model;
  const estimatedInputTokens = countOrUndefined((step as { estimatedInputTokens?: unknown }).estimatedInputTokens);
  const checkedInputTokens = countOrUndefined((step as { checkedInputTokens?: unknown }).checkedInputTokens);
  const contextLimit = countOrUndefined((step as { contextLimit?: unknown }).contextLimit);
  const notRun = (step as { notRunToolCallIds?: unknown }).notRunToolCallIds;
  const fields = usage as { cacheReadTokens?: unknown; cacheWriteTokens?: unknown; cachedInputTokens?: unknown };
  const cacheReadTokens = countOrUndefined(fields.cacheReadTokens) ?? countOrUndefined(fields.cachedInputTokens);
  const cacheWriteTokens = countOrUndefined(fields.cacheWriteTokens);
  const cache = readCacheHints((step as { cache?: unknown }).cache);
  return {
    usage: {
      inputTokens,
      outputTokens,
      ...(cacheReadTokens === undefined ? {} : { cacheReadTokens }),
      ...(cacheWriteTokens === undefined ? {} : { cacheWriteTokens }),
    },
    model: typeof model === "string" ? model : "unknown",
    ...(estimatedInputTokens === undefined ? {} : { estimatedInputTokens }),
    ...(checkedInputTokens === undefined ? {} : { checkedInputTokens }),
    ...(contextLimit === undefined || contextLimit === 0 ? {} : { contextLimit }),
    ...(Array.isArray(notRun)
      ? { notRunToolCallIds: notRun.filter((id): id is string => typeof id === "string") }
      : {}),
    ...(cache === undefined ? {} : { cache }),
  };
}

const DROP_REASONS: ReadonlySet<string> = new Set(["rejected", "breakpoint-limit", "below-minimum"]);

function readCacheHints(value: unknown): StepCacheHints | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { provider, breakpoints, ttl, promptCacheKey, dropped } = value as Record<string, unknown>;
  if (provider !== "anthropic" && provider !== "openai") return undefined;
  const drops = Array.isArray(dropped)
    ? dropped.flatMap((entry): CacheHintDrop[] => {
        const { reason, detail } = (entry ?? {}) as Record<string, unknown>;
        return typeof reason === "string" && DROP_REASONS.has(reason)
          ? [{ reason: reason as CacheHintDrop["reason"], detail: typeof detail === "string" ? detail : "" }]
          : [];
      })
    : [];
  const count = countOrUndefined(breakpoints);
  return {
    provider,
    ...(count === undefined ? {} : { breakpoints: count }),
    ...(ttl === "1h" ? { ttl } : {}),
    ...(typeof promptCacheKey === "boolean" ? { promptCacheKey } : {}),
    ...(drops.length === 0 ? {} : { dropped: drops }),
  };
}

function countOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}
