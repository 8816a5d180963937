/**
 * `ctxwin eval --html`: a finished run as one self-contained HTML page — per suite, bar charts of
 * each strategy's score and tokens (cost on the bars), the comparison table `ctxwin eval` prints,
 * and every item's result. Static HTML and inline SVG with inline styles: no script, nothing
 * fetched (the page's own Content-Security-Policy forbids it), every result text escaped. The
 * colours and shapes are the web UI's timeline's (ADR 0071).
 */
import type { ItemResult } from "./eval-types.js";
import type { RunHeader } from "./results-file.js";
import { SUMMARY_COLUMNS, summarize, type SummaryRow } from "./summary-table.js";

/** The web UI's colours for the strategies (web/src/styles/base.css). */
const STRATEGY_COLOURS: Readonly<Record<string, string>> = { rollover: "#1d4ed8", compact: "#6d28d9", off: "#4b5563" };

/** Text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const tokens = (value: number) => Math.round(value).toLocaleString("en-US");
const percent = (value: number | null | undefined) =>
  value === undefined || value === null ? "–" : `${(value * 100).toFixed(1)}%`;
const dollars = (value: number | null | undefined) =>
  value === undefined || value === null ? "–" : `$${value.toFixed(4)}`;

/** `$1.25`, `$0.00400`: as the web UI's figures. */
const shortDollars = (value: number) =>
  value >= 0.1 || value === 0 ? `$${value.toFixed(2)}` : `$${value.toPrecision(3)}`;

/** `12k`, `1.5M`: short axis labels, as the timeline's. */
function shortTokens(value: number): string {
  const trim = (figure: number) => (figure >= 10 ? String(Math.round(figure)) : String(Math.round(figure * 10) / 10));
  if (value >= 1_000_000) return `${trim(value / 1_000_000)}M`;
  if (value >= 1_000) return `${trim(value / 1_000)}k`;
  return String(Math.round(value));
}

/** A round top for an axis at or above `value`. */
function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

interface Bar {
  strategy: string;
  /** Stacked from the axis up; the first segment in the strategy's colour, the next lighter. */
  segments: number[];
  label: string;
}

const CHART = { width: 360, height: 200, left: 48, right: 8, top: 18, bottom: 24 };

function barChart({
  title,
  bars,
  top,
  tick,
}: {
  title: string;
  bars: readonly Bar[];
  top: number;
  tick: (value: number) => string;
}): string {
  const plotWidth = CHART.width - CHART.left - CHART.right;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const y = (value: number) => CHART.top + plotHeight - (Math.max(0, value) / top) * plotHeight;
  const slot = plotWidth / Math.max(1, bars.length);
  const barWidth = Math.min(64, slot * 0.6);
  const parts = [0, top / 2, top].map(
    (value) =>
      `<text class="tick" x="${CHART.left - 6}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${escapeHtml(tick(value))}</text>`,
  );
  parts.push(`<line class="axis" x1="${CHART.left}" x2="${CHART.width - CHART.right}" y1="${y(0)}" y2="${y(0)}"/>`);
  bars.forEach((bar, index) => {
    const x = CHART.left + slot * index + (slot - barWidth) / 2;
    let base = 0;
    const colour = STRATEGY_COLOURS[bar.strategy] ?? "#374151";
    bar.segments.forEach((value, segment) => {
      const height = y(base) - y(base + value);
      parts.push(
        `<rect data-strategy="${escapeHtml(bar.strategy)}" x="${x.toFixed(1)}" y="${y(base + value).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${Math.max(0, height).toFixed(1)}" fill="${colour}"${segment > 0 ? ' fill-opacity="0.45"' : ""}/>`,
      );
      base += value;
    });
    parts.push(
      `<text class="value" x="${(x + barWidth / 2).toFixed(1)}" y="${(y(base) - 4).toFixed(1)}" text-anchor="middle">${escapeHtml(bar.label)}</text>`,
    );
    parts.push(
      `<text class="tick" x="${(x + barWidth / 2).toFixed(1)}" y="${CHART.height - 6}" text-anchor="middle">${escapeHtml(bar.strategy)}</text>`,
    );
  });
  const description = bars.map((bar) => `${bar.strategy}: ${bar.label}`).join(", ");
  return `<figure class="chart"><figcaption>${escapeHtml(title)}</figcaption><svg viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" aria-label="${escapeHtml(`${title}: ${description}`)}">${parts.join("")}</svg></figure>`;
}

function scoreChart(rows: readonly SummaryRow[]): string {
  const bars = rows.map((row) => ({ strategy: row.strategy, segments: [row.score ?? 0], label: percent(row.score) }));
  return barChart({ title: "Score", bars, top: 1, tick: (value) => `${Math.round(value * 100)}%` });
}

function tokenChart(rows: readonly SummaryRow[]): string {
  const bars = rows.map((row) => ({
    strategy: row.strategy,
    segments: [row.inputTokens, row.outputTokens],
    label: `${shortTokens(row.inputTokens + row.outputTokens)}${row.costUsd === undefined ? "" : ` · ${shortDollars(row.costUsd)}`}`,
  }));
  // A round half as well as a round top: the middle tick is labelled too.
  const top = 2 * niceCeiling((Math.max(1, ...bars.map((bar) => bar.segments[0]! + bar.segments[1]!)) * 1.1) / 2);
  return barChart({ title: "Tokens (input, then output lighter) · cost", bars, top, tick: shortTokens });
}

function summaryTable(rows: readonly SummaryRow[]): string {
  const cells = rows.map((row) => [
    row.strategy,
    String(row.items),
    percent(row.score),
    percent(row.evidenceReached),
    String(row.failed),
    String(row.blocked),
    tokens(row.inputTokens),
    tokens(row.outputTokens),
    dollars(row.costUsd),
    row.wallSeconds.toFixed(1),
    String(row.rollovers),
    String(row.compactions),
    String(row.historyCalls),
  ]);
  return table({ caption: "Comparison", columns: SUMMARY_COLUMNS, cells });
}

const ITEM_COLUMNS = [
  "item",
  "strategy",
  "status",
  "score",
  "input tok",
  "output tok",
  "cost",
  "rollovers",
  "compactions",
  "history calls",
  "error",
];

function itemTable(results: readonly ItemResult[]): string {
  const cells = results.map((result) => [
    result.itemId,
    result.strategy,
    result.status,
    result.status === "failed" ? "–" : percent(result.score),
    tokens(result.inputTokens),
    tokens(result.outputTokens),
    dollars(result.costUsd),
    String(result.rollovers),
    String(result.compactions),
    String(result.historyCalls),
    result.error ?? "",
  ]);
  return table({
    caption: "Items",
    columns: ITEM_COLUMNS,
    cells,
    rowClass: (index) => (results[index]!.status === "failed" ? "failed" : ""),
  });
}

function table({
  caption,
  columns,
  cells,
  rowClass = () => "",
}: {
  caption: string;
  columns: readonly string[];
  cells: readonly string[][];
  rowClass?: (index: number) => string;
}): string {
  const textColumn = (index: number) => (index === 0 || columns[index] === "error" ? ' class="text"' : "");
  const head = `<tr>${columns.map((column, index) => `<th scope="col"${textColumn(index)}>${escapeHtml(column)}</th>`).join("")}</tr>`;
  const body = cells
    .map(
      (line, index) =>
        `<tr${rowClass(index) === "" ? "" : ` class="${rowClass(index)}"`}>` +
        `${line.map((cell, column) => `<td${textColumn(column)}>${escapeHtml(cell)}</td>`).join("")}</tr>`,
    )
    .join("\n");
  return `<div class="table"><table><caption>${escapeHtml(caption)}</caption><thead>${head}</thead><tbody>\n${body}\n</tbody></table></div>`;
}

const STYLE = `
:root { color: #1b1f24; background: #fff; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; line-height: 1.45; }
body { margin: 0 auto; padding: 1rem; max-width: 72rem; }
h1 { font-size: 1.3rem; margin: 0 0 0.3rem; }
h2 { font-size: 1.1rem; margin: 1.6rem 0 0.4rem; border-bottom: 1px solid #c9ced6; }
.run { color: #4b5563; margin: 0; font-size: 0.9rem; overflow-wrap: anywhere; }
.charts { display: flex; flex-wrap: wrap; gap: 1rem; }
.chart { margin: 0; flex: 1 1 18rem; max-width: 26rem; }
.chart figcaption { font-size: 0.85rem; font-weight: 600; }
.chart svg { width: 100%; height: auto; display: block; }
.axis { stroke: #4b5563; stroke-width: 1; }
.tick { fill: #4b5563; font-size: 11px; }
.value { fill: #1b1f24; font-size: 11px; }
.table { overflow-x: auto; margin-top: 0.6rem; }
table { border-collapse: collapse; font-size: 0.85rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 0.2rem 0; }
th, td { padding: 0.2rem 0.5rem; border-bottom: 1px solid #e2e8f0; text-align: right; vertical-align: top; white-space: nowrap; }
.text { text-align: left; }
td.text:last-child { white-space: normal; overflow-wrap: anywhere; min-width: 12rem; max-width: 28rem; }
tr.failed td { color: #b91c1c; }
`;

/**
 * The page of a run; `file` names the results file it was read from.
 *
 * @example fs.writeFileSync("report.html", renderEvalReport({ header, results, file: "ctxwin-eval.jsonl" }));
 */
export function renderEvalReport({
  header,
  results,
  file,
}: {
  header: RunHeader;
  results: readonly ItemResult[];
  file?: string;
}): string {
  const rows = summarize(results);
  const suites = [...new Set(rows.map((row) => row.suite))];
  const sections = suites.map((suite) => {
    const suiteRows = rows.filter((row) => row.suite === suite);
    const suiteResults = results.filter((result) => result.suite === suite);
    return `<section data-suite="${escapeHtml(suite)}">
<h2>${escapeHtml(suite)}</h2>
<div class="charts">${scoreChart(suiteRows)}${tokenChart(suiteRows)}</div>
${summaryTable(suiteRows)}
${itemTable(suiteResults)}
</section>`;
  });
  const run =
    `${header.model} · context limit ${tokens(header.contextLimit)} · seed ${header.seed} · ` +
    `started ${header.startedAt}${file === undefined ? "" : ` · ${file}`}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="generator" content="ctxwin eval">
<title>${escapeHtml(`ctxwin eval · ${header.model}`)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>ctxwin eval</h1>
<p class="run">${escapeHtml(run)}</p>
${sections.length === 0 ? "<p>No results yet.</p>" : sections.join("\n")}
</body>
</html>
`;
}
