/**
 * Text the UI shows for numbers, times and window events, kept in one place so the dividers, the
 * windows panel and the budget bar say the same thing the same way.
 */
import { formatUsd } from "../../src/core/chart/format-usd.js";
import type { RowBoundary, SpendView, UsageView, WindowView } from "./api/types";

/** A dollar figure, as the terminal and the eval charts write it (one function, in src/core/chart/). */
export { formatUsd };

/** A count as the UI writes it: `12,345`. */
export function formatCount(count: number): string {
  return Math.round(count).toLocaleString("en-US");
}

/** `12,345` */
export const formatTokens = formatCount;

/** A percentage as the API gives it (0–100), rounded: `71%`. */
export function formatPercent(percent: number): string {
  return `${Math.round(percent)}%`;
}

/** A short local date and time for an ISO timestamp; the ISO text itself when it does not parse. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}

/**
 * The label of the divider that opens window `windowNumber`.
 *
 * @example
 * dividerLabel({ windowNumber: 3, boundary: { kind: "rollover", percent: 71, reason: "on-send" } })
 * // "Context window 3 — rolled over at 71% · on-send"
 */
export function dividerLabel({ windowNumber, boundary }: { windowNumber: number; boundary: RowBoundary }): string {
  const head = `Context window ${windowNumber}`;
  if (boundary.kind === "rollover") {
    const at = boundary.percent === undefined ? "rolled over" : `rolled over at ${formatPercent(boundary.percent)}`;
    return boundary.reason === undefined ? `${head} — ${at}` : `${head} — ${at} · ${boundary.reason}`;
  }
  if (boundary.kind === "compaction")
    return `${head} — compacted into a summary${boundary.reason === undefined ? "" : ` · ${boundary.reason}`}`;
  return `${head} — cleared by you (the agent cannot search before this line)`;
}

/** One line describing a window for the windows panel. */
export function windowDescription(window: WindowView): string {
  if (window.kind === "initial") return "first window";
  if (window.kind === "rollover") {
    const at = window.percent === undefined ? "" : ` at ${formatPercent(window.percent)}`;
    return `rolled over${at}${window.reason === undefined ? "" : ` · ${window.reason}`}`;
  }
  if (window.kind === "compaction") return "compaction summary";
  return "cleared by you";
}

export interface BudgetFigures {
  /** Used share of the context limit, 0–100, or undefined when the limit is unknown. */
  usedPercent: number | undefined;
  /** Where the rollover threshold sits, 0–100, or undefined when there is none. */
  thresholdPercent: number | undefined;
  summary: string;
  countdown: string;
  state: "calm" | "near" | "over" | "unknown";
}

/**
 * What the budget bar shows for a usage reading.
 *
 * @example
 * budgetFigures({ usage }).countdown // "rolls over in ~2,100 tokens"
 */
export function budgetFigures({ usage }: { usage: UsageView }): BudgetFigures {
  const { contextTokens, contextLimit, threshold } = usage;
  if (contextLimit === null || contextLimit <= 0) {
    return {
      usedPercent: undefined,
      thresholdPercent: undefined,
      summary: `${formatTokens(contextTokens)} tokens in this window`,
      countdown: "context limit unknown — no automatic rollover",
      state: "unknown",
    };
  }
  const usedPercent = clampPercent(usage.percent ?? (contextTokens / contextLimit) * 100);
  const thresholdPercent =
    usage.thresholdPercent ?? (threshold === null ? undefined : (threshold / contextLimit) * 100);
  const summary = `${formatTokens(contextTokens)} / ${formatTokens(contextLimit)} tokens · ${formatPercent(usedPercent)}`;
  const left = usage.tokensUntilRollover ?? (threshold === null ? null : threshold - contextTokens);
  if (left === null)
    return {
      usedPercent,
      thresholdPercent: undefined,
      summary,
      countdown: "automatic rollover is off",
      state: usedPercent >= 90 ? "over" : "calm",
    };
  if (left <= 0)
    return {
      usedPercent,
      thresholdPercent: clampPercent(thresholdPercent ?? 100),
      summary,
      countdown: "over the threshold — rolls over on the next send",
      state: "over",
    };
  const near = thresholdPercent !== undefined && usedPercent >= thresholdPercent - 10;
  return {
    usedPercent,
    thresholdPercent: clampPercent(thresholdPercent ?? 100),
    summary,
    countdown: `rolls over in ~${formatTokens(left)} tokens`,
    state: near ? "near" : "calm",
  };
}

function clampPercent(value: number): number {
  return Math.min(100, Math.max(0, value));
}

/**
 * Which model the budget figures are for, or nothing when no model is known (ADR 0080).
 *
 * @example budgetModelLine({ ...usage, model: "ollama:qwen3:32b", modelSource: "server" })
 * // "limit of ollama:qwen3:32b — the server's model: this session does not say which model it ran on"
 */
export function budgetModelLine(usage: Pick<UsageView, "model" | "modelSource">): string | undefined {
  if (usage.model === undefined || usage.model === null) return undefined;
  if (usage.modelSource === "server")
    return `limit of ${usage.model} — the server's model: this session does not say which model it ran on`;
  return `limit of ${usage.model}, this session's model`;
}

/**
 * What a window's requests spent, in one line: the share of their input read from the provider's
 * prompt cache and the estimated cost (without a cache in brackets); tokens only when no price is known.
 *
 * @example spendLine(spend) // "91% of input from the cache · ~$0.53 (no cache: $1.80)"
 */
export function spendLine(spend: SpendView | null): string | undefined {
  if (spend === null || spend.requests === 0) return undefined;
  const cache = `${formatPercent(spend.cachedShare * 100)} of input from the cache`;
  if (spend.costUsd === null || spend.uncachedCostUsd === null)
    return `${cache} · ${formatTokens(spend.inputTokens)} input tokens`;
  return `${cache} · ~${formatUsd(spend.costUsd)} (no cache: ${formatUsd(spend.uncachedCostUsd)})`;
}

/**
 * A one-line summary of a tool call's input: its first short string argument, else the JSON itself.
 *
 * @example toolCallSummary('{"path":"src/x.ts"}') // "src/x.ts"
 */
export function toolCallSummary(input: string, maxLength = 80): string {
  let summary = input;
  try {
    const parsed: unknown = JSON.parse(input);
    if (typeof parsed === "string") summary = parsed;
    else if (parsed !== null && typeof parsed === "object") {
      const values = Object.values(parsed as Record<string, unknown>);
      const first = values.find(
        (value): value is string | number => typeof value === "string" || typeof value === "number",
      );
      summary = first === undefined ? input : String(first);
    }
  } catch {
    summary = input;
  }
  summary = summary.replace(/\s+/g, " ").trim();
  return summary.length > maxLength ? `${summary.slice(0, maxLength - 1)}…` : summary;
}

/**
 * A text cut into plain and marked pieces by match spans (a search hit's words): spans that overlap
 * or fall outside the text are clipped, so every character appears once.
 *
 * @example markedPieces("find the word", [{ start: 9, length: 4 }]) // [{ text: "find the ", marked: false }, { text: "word", marked: true }]
 */
export function markedPieces(
  text: string,
  spans: ReadonlyArray<{ start: number; length: number }> = [],
): Array<{ text: string; marked: boolean }> {
  const pieces: Array<{ text: string; marked: boolean }> = [];
  let position = 0;
  for (const span of [...spans].sort((left, right) => left.start - right.start)) {
    const start = Math.max(position, Math.min(text.length, span.start));
    const end = Math.min(text.length, span.start + span.length);
    if (end <= start) continue;
    if (start > position) pieces.push({ text: text.slice(position, start), marked: false });
    pieces.push({ text: text.slice(start, end), marked: true });
    position = end;
  }
  if (position < text.length || pieces.length === 0) pieces.push({ text: text.slice(position), marked: false });
  return pieces;
}
