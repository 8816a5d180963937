/**
 * The budget bar's figures updated from a `data-ctxwin-usage` part while an answer streams: the
 * part brings the window's tokens and limit, the last figures from the server bring the threshold
 * and ceiling (and anything else the bar shows), which hold while the limit is the same.
 */
import type { LiveUsage } from "./api/chat-types";
import type { UsageView } from "./api/types";

/**
 * @example usageWithLive(previous, { windowId: "w:0", contextTokens: 6_000, contextLimit: 10_000, percent: 60 })
 * // { ...previous, contextTokens: 6_000, percent: 60, tokensUntilRollover: previous.threshold - 6_000 }
 */
export function usageWithLive(previous: UsageView | undefined, live: LiveUsage): UsageView {
  const contextTokens = Math.max(0, Math.round(live.contextTokens));
  const contextLimit = live.contextLimit !== undefined && live.contextLimit > 0 ? live.contextLimit : null;
  const percent = contextLimit === null ? null : Math.round((contextTokens / contextLimit) * 1000) / 10;
  if (previous === undefined || previous.contextLimit !== contextLimit) {
    return {
      ...previous,
      spend: previous?.spend ?? null,
      model: previous?.model ?? null,
      modelSource: previous?.modelSource ?? null,
      windowId: live.windowId,
      contextTokens,
      contextLimit,
      threshold: null,
      hardCeiling: null,
      percent,
      thresholdPercent: null,
      tokensUntilRollover: null,
    };
  }
  const tokensUntilRollover = previous.threshold === null ? null : Math.max(0, previous.threshold - contextTokens);
  return { ...previous, windowId: live.windowId, contextTokens, percent, tokensUntilRollover };
}
