/**
 * The axes of ctxwin's charts — the web UI's context timeline and Eval view, and the static eval
 * page (`ctxwin eval --html`): the chart's pixel box, a round axis top, its ticks and their short
 * labels. Pure and without imports, so the web UI bundles it as it is (the layer lint lets web/
 * import src/core/chart/ and nothing else of src/ at run time).
 */

export interface ChartBox {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Pixel box of a chart for a container width: shorter on a phone. */
export function chartBox(width: number): ChartBox {
  const narrow = width < 600;
  return { width, height: narrow ? 180 : 230, left: narrow ? 40 : 56, right: 10, top: 22, bottom: 22 };
}

/**
 * The y axis labels: 0, halfway and the top, each a distinct label (`shortTokens`) — a top too low
 * to halve in whole tokens (or in the labels' rounding) keeps only 0 and the top.
 *
 * @example axisTicks(16_000) // [0, 8_000, 16_000]
 */
export function axisTicks(maxTokens: number): number[] {
  const ticks = maxTokens > 0 ? [0, maxTokens / 2, maxTokens] : [0];
  const labels = new Set<string>();
  return ticks.filter((tick) => {
    const label = shortTokens(tick);
    if (labels.has(label) || (tick !== maxTokens && !Number.isInteger(tick))) return false;
    labels.add(label);
    return true;
  });
}

/**
 * Short axis labels.
 *
 * @example [shortTokens(950), shortTokens(12_000), shortTokens(1_500_000)] // ["950", "12k", "1.5M"]
 */
export function shortTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${trim(tokens / 1_000_000)}M`;
  if (tokens >= 1_000) return `${trim(tokens / 1_000)}k`;
  return String(Math.round(tokens));
}

function trim(value: number): string {
  return value >= 10 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
}

/**
 * A round axis top at or above `value` (1 for nothing to show).
 *
 * @example niceCeiling(1_234) // 1_500
 */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}
