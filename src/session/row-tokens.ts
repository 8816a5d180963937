/**
 * The session's thin adapter to the budget engine's token counting (`core/budget`). A stored row
 * caches `countRowTokens(row)` in `tokens`: its content in o200k_base, model-independent. What a
 * request carries is counted by `estimateRequestTokens` for the model of that request. The one
 * session-specific step is the view: an oversized tool output is sent as a truncated view, so a
 * viewed row drops its cached count and is counted as sent, not as stored.
 */
import { countRowTokens, type CountableMessage } from "../core/budget/message-tokens.js";
import { estimateRequestTokens } from "../core/budget/request-estimate.js";
import { viewOversizedToolOutputs, type ViewableRow } from "../core/rollover/tool-output-view.js";

export interface ToolOutputLimits {
  /** A tool output above this many tokens is shown as a truncated view. */
  maxOutputTokens: number;
  headChars: number;
}

/**
 * The count a row caches in `tokens` when the engine writes it (the budget engine's `countRowTokens`).
 *
 * @example
 * store.append(sessionId, [{ ...row, tokens: storedRowTokens(row) }]);
 */
export function storedRowTokens(row: { role: string; parts: readonly { type: string }[] }): number {
  return countRowTokens(row as CountableMessage);
}

/**
 * The rows as a request sends them: oversized tool outputs replaced by their views (`views` maps
 * the tool call id to the view text). A viewed row is a copy without its cached `tokens`, so an
 * estimate counts the view; every other row is the same object.
 *
 * @example
 * const { rows: sent, views } = requestRows({ rows: slice, countTokens, limits });
 */
export function requestRows<T extends ViewableRow & { tokens?: number | undefined }>({
  rows,
  countTokens,
  limits,
}: {
  rows: readonly T[];
  /** The request model's token count, for the size test and the view's note. */
  countTokens: (text: string) => number;
  limits: ToolOutputLimits;
}): { rows: T[]; views: Map<string, string> } {
  const { rows: viewed, views } = viewOversizedToolOutputs({ rows, countTokens, ...limits });
  return {
    rows: viewed.map((row, index) =>
      row === rows[index] || row.tokens === undefined ? row : { ...row, tokens: undefined },
    ),
    views,
  };
}

/**
 * Tokens one row adds to a request for `model` as it is sent (its view), with the message framing
 * and the model's provider factor, before calibration: `estimateRequestTokens` of that one message.
 *
 * @example
 * sentRowTokens({ row, model: "anthropic:claude-sonnet-4-5", countTokens, limits }) // ⌈(content + 4) × 1.35⌉
 */
export function sentRowTokens<T extends ViewableRow & { role: string; tokens?: number | undefined }>({
  row,
  model,
  countTokens,
  limits,
}: {
  row: T;
  model: string;
  countTokens: (text: string) => number;
  limits: ToolOutputLimits;
}): number {
  const sent = requestRows({ rows: [row], countTokens, limits }).rows[0] ?? row;
  const estimate = estimateRequestTokens({ model, messages: [sent as unknown as CountableMessage] });
  const messages = estimate.breakdown.messages;
  return estimate.profile.factor === 1 ? messages : Math.ceil(messages * estimate.profile.factor - 1e-9);
}
