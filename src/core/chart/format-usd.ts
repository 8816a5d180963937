/**
 * A dollar figure as every face writes it — the terminal's timeline, the eval charts and the web
 * UI: two decimals from $0.10, three significant digits below. In `core/chart/` so that the web UI
 * imports this one (ADR 0102, ADR 0109).
 *
 * @example formatUsd(0.01234) // "$0.0123"
 */
export function formatUsd(usd: number): string {
  if (usd >= 0.1 || usd === 0) return `$${usd.toFixed(2)}`;
  return `$${usd.toPrecision(3)}`;
}
