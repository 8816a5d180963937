/**
 * What every part of a session's send flow shares: the store, the models, the tools, the budget
 * policy and the request frame around the rows.
 */
import type { LanguageModel, ToolSet } from "ai";
import type { HistoryStore } from "../store/port.js";
import { modelKey, type SessionBudgetPolicy } from "./budget-policy.js";
import { estimateRequestTokens, type RequestEstimate } from "../core/budget/request-estimate.js";
import { systemText, type RequestFrame, type ToolOutputLimits } from "./request-assembly.js";
import type { SessionEvents, TurnSink } from "./session-events.js";
import type { BudgetStrategy, ContinuityOptions, HotMemoriesProvider } from "./session-types.js";
import type { SessionCalibration } from "./session-calibration.js";
import type { NewContextRequest } from "./new-context.js";
import type { LoopSettings } from "./loop-settings.js";
import type { CacheHintSettings } from "./cache-hints.js";
import type { WindowMemories } from "./window-memories.js";

export interface SessionContext {
  store: HistoryStore;
  sessionId: string;
  now: () => Date;
  generateId: () => string;
  policy: SessionBudgetPolicy;
  strategy: BudgetStrategy;
  /** The primary model first, then the fallbacks; replaced by `setModel`. */
  models: LanguageModel[];
  system: string | undefined;
  tools: ToolSet;
  historyToolAvailable: boolean;
  hotMemories: HotMemoriesProvider;
  /** The hot memories block each window's requests carry (rendered once per window, `window-memories.ts`). */
  windowMemories: WindowMemories;
  notesPath: string | undefined;
  maxSteps: number;
  /** The continuity features (docs/adr/0023), resolved to their defaults. */
  continuity: Required<ContinuityOptions>;
  /** Retries of a failed model call (the AI SDK's `maxRetries`). */
  maxRetries: number;
  /** Milliseconds to wait before retry `n` (from 1) of a step that failed mid-stream. */
  retryDelay: (retry: number) => number;
  /** Whether the provider may keep server-side state (OpenAI Responses `store`); default false. */
  providerStore: boolean;
  /** Provider prompt-cache hints (`cache-hints.ts`). */
  cache: CacheHintSettings;
  maxToolOutputShare: number;
  events: SessionEvents;
  /** Logs a message once per distinct text. */
  warnOnce: (message: string) => void;
  /**
   * The last estimate of the request overhead (system text, tools) per model key: the next one
   * reuses it, so an unchanged system prompt and tool set are not tokenized again.
   */
  overheadEstimates: Map<string, RequestEstimate>;
  /** Correction of our estimates learned from the provider's reported input tokens. */
  calibration: SessionCalibration;
  /** A `new_context` call of the running step, taken when the step settles (docs/adr/0025). */
  newContextRequest?: NewContextRequest | undefined;
  /** The sink of the send whose turn is running (turns run one at a time), if it has one. */
  activeSink?: TurnSink | undefined;
  /** The caller's own settings of the AI SDK's loop, applied around ctxwin's (loop-settings.ts). */
  loop: LoopSettings;
}

/**
 * The primary model of the session.
 *
 * @example primaryModel(context).modelId
 */
export function primaryModel(context: SessionContext): LanguageModel {
  const model = context.models[0];
  if (model === undefined) throw new Error("a session needs a model");
  return model;
}

/**
 * The context limit of a model, warning once when it is unknown (then no rollover decision is made).
 *
 * @example contextLimitFor(context, model) // 128_000 or undefined
 */
export function contextLimitFor(context: SessionContext, model: LanguageModel): number | undefined {
  const lookup = context.policy.limitOf(model);
  if (lookup.contextLimit === undefined) {
    // The lookup's message says how to set the limit, and that until then no rollover decision is made.
    context.warnOnce(`ctxwin: ${lookup.message}`);
  }
  return lookup.contextLimit;
}

/**
 * The request frame for the next request. A request of a known window carries the hot memories
 * block rendered for that window's first request, so its system prompt (the start of the cached
 * prefix) stays the same through the window (docs/adr/0055); without a window the block is
 * rendered afresh (the on-send figures before the turn's window is decided).
 *
 * @example const frame = await requestFrame(context, model, { windowId });
 */
export async function requestFrame(
  context: SessionContext,
  model: LanguageModel,
  { windowId }: { windowId?: string | undefined } = {},
): Promise<RequestFrame> {
  const key = modelKey(model);
  const hotMemories = await context.windowMemories.blockFor(windowId);
  const overhead = estimateRequestTokens({
    model: key,
    system: systemText({ system: context.system, hotMemories }),
    tools: context.tools,
    previous: context.overheadEstimates.get(key),
  });
  context.overheadEstimates.set(key, overhead);
  return {
    model: key,
    system: context.system,
    hotMemories,
    tools: context.tools,
    overhead,
    countTokens: (text) => context.policy.countTokens(text, model),
    calibration: context.calibration.state(),
    calibrationFactor: context.calibration.factor(model),
  };
}

/** Without a known limit, tool outputs above this many tokens are still shown as a view. */
const UNKNOWN_LIMIT_MAX_OUTPUT_TOKENS = 32_000;

/**
 * How big one tool output may be in a request for this model before a truncated view replaces it.
 *
 * @example toolOutputLimits(context, model) // { maxOutputTokens: 6_000, headChars: 3_000 }
 */
export function toolOutputLimits(context: SessionContext, model: LanguageModel): ToolOutputLimits {
  const limit = context.policy.limitOf(model).contextLimit;
  const maxOutputTokens =
    limit === undefined
      ? UNKNOWN_LIMIT_MAX_OUTPUT_TOKENS
      : Math.max(1, Math.floor(context.maxToolOutputShare * context.policy.hardCeiling(limit)));
  return { maxOutputTokens, headChars: Math.min(4_000, Math.max(200, Math.floor(maxOutputTokens / 2))) };
}
