/**
 * Terminal rendering of a session's budget: a bar with the rollover threshold marked, and divider
 * lines for window events. Shared by `ctxwin demo` and `ctxwin chat`.
 */
import type { SessionUsage } from "../../session/session-types.js";

export interface TerminalStyle {
  /** ANSI colors and dim text; off when output is not a terminal or NO_COLOR is set. */
  color?: boolean;
}

const FILLED = "█";
const EMPTY = "░";
const MARKER = "│";

const ansi = {
  dim: (text: string) => `\u001b[2m${text}\u001b[22m`,
  green: (text: string) => `\u001b[32m${text}\u001b[39m`,
  yellow: (text: string) => `\u001b[33m${text}\u001b[39m`,
  red: (text: string) => `\u001b[31m${text}\u001b[39m`,
  cyan: (text: string) => `\u001b[36m${text}\u001b[39m`,
};

/** Whether to color output written to `stream`: only on a terminal, and never with `NO_COLOR` set. */
export function wantsColor({
  stream,
  env = process.env,
}: {
  stream: { isTTY?: boolean };
  env?: NodeJS.ProcessEnv;
}): boolean {
  return stream.isTTY === true && (env["NO_COLOR"] ?? "") === "" && env["TERM"] !== "dumb";
}

/** `12,345` */
export function formatTokens(tokens: number): string {
  return Math.round(tokens).toLocaleString("en-US");
}

/**
 * One line: the used share of the window, the rollover threshold as a marker, and what is left before
 * the rollover.
 *
 * @example
 * renderBudgetBar({ usage: await session.usage() })
 * // "[███████████░░░│░░░░░] 9,812 / 16,000 tokens · 61% · rolls over at 70% (~1,388 tokens left)"
 */
export function renderBudgetBar({
  usage,
  width = 20,
  color = false,
}: { usage: SessionUsage; width?: number } & TerminalStyle): string {
  const { contextTokens, contextLimit, threshold } = usage;
  if (contextLimit === undefined || contextLimit <= 0)
    return `${formatTokens(contextTokens)} tokens in this window · context limit unknown`;
  const share = Math.min(1, Math.max(0, contextTokens / contextLimit));
  const filled = Math.round(share * width);
  const markerAt = threshold === undefined ? -1 : Math.min(width - 1, Math.round((threshold / contextLimit) * width));
  let bar = "";
  for (let cell = 0; cell < width; cell += 1) {
    if (cell === markerAt && cell >= filled) bar += MARKER;
    else bar += cell < filled ? FILLED : EMPTY;
  }
  const percent = Math.round(share * 100);
  const paint = !color
    ? (text: string) => text
    : threshold !== undefined && contextTokens >= threshold
      ? ansi.red
      : share >= 0.5
        ? ansi.yellow
        : ansi.green;
  const action = usage.strategy === "compact" ? "compacts" : "rolls over";
  const rollover =
    threshold === undefined
      ? usage.strategy === "off"
        ? " · no automatic rollover (strategy off)"
        : ""
      : contextTokens >= threshold
        ? ` · over the ${Math.round((threshold / contextLimit) * 100)}% threshold: ${action} on the next send`
        : ` · ${action} at ${Math.round((threshold / contextLimit) * 100)}% (~${formatTokens(threshold - contextTokens)} tokens left)`;
  return `[${paint(bar)}] ${formatTokens(contextTokens)} / ${formatTokens(contextLimit)} tokens · ${percent}%${rollover}`;
}

/**
 * A full-width divider around a short label, for rollovers, warnings and other window events.
 *
 * @example
 * dividerLine({ text: "context window 3 · rolled over at 71% (on-send)" })
 * // "──── context window 3 · rolled over at 71% (on-send) ─────────────…"
 */
export function dividerLine({
  text,
  width = 72,
  color = false,
}: { text: string; width?: number } & TerminalStyle): string {
  const lead = "──── ";
  const tail = Math.max(4, width - lead.length - text.length - 1);
  const line = `${lead}${text} ${"─".repeat(tail)}`;
  return color ? ansi.cyan(line) : line;
}

/** Dim text for secondary lines (tool calls, hints). */
export function dim({ text, color = false }: { text: string } & TerminalStyle): string {
  return color ? ansi.dim(text) : text;
}
