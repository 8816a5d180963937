/**
 * Preflight checks (docs/design.md §5): (a) on send, can a fresh window hold the new input at all;
 * (b) per attempt, is the fully assembled request for that attempt's model under its hard ceiling.
 * Outcomes are values: `ok`, `blocked` (with a sentence for people), or `unknown-limit`.
 */
import { requirePositiveInteger } from "./budget-arguments.js";
import type { CalibrationState } from "./calibration.js";
import type { CountableMessage } from "./message-tokens.js";
import { defaultModelCatalog, type ModelCatalog } from "./model-catalog.js";
import { estimateRequestTokens, type RequestEstimate, type ToolDefinitions } from "./request-estimate.js";
import { DEFAULT_OUTPUT_RESERVE, hardCeilingFor } from "./step-budget.js";

export interface PreflightOk {
  status: "ok";
  model: string;
  tokens: number;
  limit: number;
  hardCeiling: number;
  /** Tokens left under the ceiling. */
  headroom: number;
  estimate: RequestEstimate;
}

export interface PreflightBlocked {
  status: "blocked";
  reason: "fresh-window-too-small" | "request-over-ceiling";
  model: string;
  tokens: number;
  limit: number;
  hardCeiling: number;
  /** Tokens above the ceiling. */
  excess: number;
  /** What happened and what to do: shorten it, remove attachments, or use a larger model. */
  message: string;
  estimate: RequestEstimate;
}

export interface PreflightUnknownLimit {
  status: "unknown-limit";
  model: string;
  /** Normalized model reference: warn once per key. */
  key: string;
  tokens: number;
  /** The model runs on a host whose window only the user knows. */
  needsUserLimit: boolean;
  message: string;
  estimate: RequestEstimate;
}

export type PreflightOutcome = PreflightOk | PreflightBlocked | PreflightUnknownLimit;

interface PreflightCommon {
  model: string;
  /** The context limit, when known to the caller; otherwise it is looked up in `catalog`. */
  limit?: number | undefined;
  catalog?: ModelCatalog | undefined;
  outputReserve?: number | undefined;
  calibration?: CalibrationState | undefined;
  imageTokens?: number | undefined;
  fileTokens?: number | undefined;
}

export interface FreshWindowInput extends PreflightCommon {
  system?: string | undefined;
  /** The rendered `<hot_memories>` block, notes file included. */
  hotMemories?: string | undefined;
  tools?: ToolDefinitions | undefined;
  /** The lead-in row a rollover writes (text or the row itself). */
  leadIn?: string | CountableMessage | undefined;
  /** The new input. */
  message: string | CountableMessage;
  /** Images attached to the new input outside its parts. */
  images?: number | undefined;
}

export interface RequestInput extends PreflightCommon {
  request: {
    system?: string | readonly string[] | undefined;
    messages: readonly CountableMessage[];
    tools?: ToolDefinitions | undefined;
    images?: number | undefined;
  };
  /** The previous estimate of this window for the same model, to count only what is new. */
  previous?: RequestEstimate | undefined;
}

/**
 * (a) Could a fresh window hold this input? Estimates system + hot memories + tools + lead-in + the
 * new message and compares it with the model's hard ceiling.
 *
 * @example
 * const outcome = preflightFreshWindow({ model: "openai:gpt-4.1", system, hotMemories, tools, leadIn, message: userText });
 * if (outcome.status === "blocked") keepAsRejectedInput(userText, outcome.message);
 */
export function preflightFreshWindow({
  system,
  hotMemories,
  tools,
  leadIn,
  message,
  images,
  ...common
}: FreshWindowInput): PreflightOutcome {
  const messages = [leadIn, message].filter((entry) => entry !== undefined).map(asMessage);
  const estimate = estimateRequestTokens({
    model: common.model,
    system: [system, hotMemories].filter((text): text is string => typeof text === "string" && text.length > 0),
    messages,
    tools,
    images,
    calibration: common.calibration,
    imageTokens: common.imageTokens,
    fileTokens: common.fileTokens,
  });
  return judge(estimate, common, "fresh-window-too-small");
}

/**
 * (b) Is this fully assembled request under the hard ceiling of the model it is for? Run it for
 * every attempt: a fallback model gets its own check.
 *
 * @example
 * const outcome = preflightRequest({ model: attempt.model, request: { system, messages: rows, tools } });
 * if (outcome.status !== "blocked") send(request);
 */
export function preflightRequest({ request, previous, ...common }: RequestInput): PreflightOutcome {
  const estimate = estimateRequestTokens({
    model: common.model,
    system: request.system,
    messages: request.messages,
    tools: request.tools,
    images: request.images,
    calibration: common.calibration,
    previous,
    imageTokens: common.imageTokens,
    fileTokens: common.fileTokens,
  });
  return judge(estimate, common, "request-over-ceiling");
}

function judge(
  estimate: RequestEstimate,
  common: PreflightCommon,
  blockedReason: PreflightBlocked["reason"],
): PreflightOutcome {
  const { model, catalog = defaultModelCatalog, outputReserve = DEFAULT_OUTPUT_RESERVE } = common;
  const tokens = estimate.tokens;
  let limit = common.limit;
  if (limit === undefined) {
    const lookup = catalog.lookup(model);
    if (lookup.status === "unknown") {
      return {
        status: "unknown-limit",
        model,
        key: lookup.key,
        tokens,
        needsUserLimit: lookup.needsUserLimit,
        message: lookup.message,
        estimate,
      };
    }
    limit = lookup.contextLimit;
  }
  requirePositiveInteger("limit", limit);
  const hardCeiling = hardCeilingFor({ limit, outputReserve });
  if (tokens <= hardCeiling)
    return { status: "ok", model, tokens, limit, hardCeiling, headroom: hardCeiling - tokens, estimate };
  const reserved = limit - hardCeiling;
  const sizes =
    `about ${format(tokens)} tokens, but ${model} accepts at most ${format(hardCeiling)} ` +
    `(its ${format(limit)}-token limit minus ${format(reserved)} kept for the reply)`;
  const message =
    blockedReason === "fresh-window-too-small"
      ? `This message was not sent: even in a fresh context window it needs ${sizes}. ` +
        "Shorten it, remove attachments, or use a model with a larger context window."
      : `This request was not sent: it needs ${sizes}. Shorten the input, remove attachments, or use a model with a larger context window.`;
  return {
    status: "blocked",
    reason: blockedReason,
    model,
    tokens,
    limit,
    hardCeiling,
    excess: tokens - hardCeiling,
    message,
    estimate,
  };
}

function asMessage(entry: string | CountableMessage | undefined): CountableMessage {
  return typeof entry === "string" ? { role: "user", content: entry } : (entry as CountableMessage);
}

function format(value: number): string {
  return value.toLocaleString("en-US");
}
