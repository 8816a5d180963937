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
  cachedInputTokens?: number | undefined;
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
  return {
    usage: { inputTokens, outputTokens, cachedInputTokens: countOrUndefined((usage as { cachedInputTokens?: unknown }).cachedInputTokens) },
    model: typeof model === "string" ? model : "unknown",
    ...(estimatedInputTokens === undefined ? {} : { estimatedInputTokens }),
    ...(checkedInputTokens === undefined ? {} : { checkedInputTokens }),
    ...(contextLimit === undefined || contextLimit === 0 ? {} : { contextLimit }),
    ...(Array.isArray(notRun) ? { notRunToolCallIds: notRun.filter((id): id is string => typeof id === "string") } : {}),
  };
}

function countOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}
