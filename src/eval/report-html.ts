/**
 * `ctxwin eval --html`: a finished run as one self-contained HTML page — per suite, bar charts of
 * each strategy's score and tokens (cost on the bars), the comparison table `ctxwin eval` prints,
 * and every item's result. Static HTML and inline SVG with inline styles: no script, nothing
 * fetched (the page's own Content-Security-Policy forbids it), every result text escaped. The
 * bars, their box and labels are the web UI's Eval view's (`core/chart/strategy-charts.ts`, ADR 0071,
 * ADR 0102); only the drawing is this file's.
 */
import { barShapes, scoreChart, scoreText, tokenChart, type StrategyChart } from "../core/chart/strategy-charts.js";
import type { ItemResult } from "./eval-types.js";
import type { RunHeader } from "./results-file.js";
import { summarize, type SummaryRow } from "./summary-table.js";
import { ITEM_COLUMNS, SUMMARY_COLUMNS } from "../core/chart/eval-columns.js";

/** The web UI's colours for the strategies (web/src/styles/base.css). */
const STRATEGY_COLOURS: Readonly<Record<string, string>> = { rollover: "#1d4ed8", compact: "#6d28d9", off: "#4b5563" };

/** Text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const tokens = (value: number) => Math.round(value).toLocaleString("en-US");
const dollars = (value: number | null | undefined) =>
  value === undefined || value === null ? "–" : `$${value.toFixed(4)}`;

/** The chart's width in the page's SVG units (it scales to the page; its text with it). */
const CHART_WIDTH = 360;

function barChart(chart: StrategyChart): string {
  const { box, y, shapes } = barShapes(chart, CHART_WIDTH);
  const bottom = box.height - box.bottom;
  const text = (className: string, x: number | string, textY: number, anchor: string, content: string) =>
    `<text class="${className}" x="${x}" y="${textY.toFixed(1)}" text-anchor="${anchor}">${escapeHtml(content)}</text>`;
  const parts = [0, chart.top / 2, chart.top].map((value) =>
    text("tick", box.left - 6, y(value) + 4, "end", chart.tick(value)),
  );
  parts.push(`<line class="axis" x1="${box.left}" x2="${box.width - box.right}" y1="${bottom}" y2="${bottom}"/>`);
  shapes.forEach((shape, index) => {
    const bar = chart.bars[index]!;
    const colour = STRATEGY_COLOURS[shape.strategy] ?? "#374151";
    const middle = (shape.x + shape.width / 2).toFixed(1);
    const title = `<title>${escapeHtml(bar.description)}</title>`;
    shape.rects.forEach((rect, segment) => {
      const place = `x="${shape.x.toFixed(1)}" y="${rect.y.toFixed(1)}"`;
      const size = `width="${shape.width.toFixed(1)}" height="${rect.height.toFixed(1)}"`;
      const fill = `fill="${colour}"${segment > 0 ? ' fill-opacity="0.45"' : ""}`;
      parts.push(`<rect data-strategy="${escapeHtml(shape.strategy)}" ${place} ${size} ${fill}>${title}</rect>`);
    });
    parts.push(text("value", middle, shape.labelY, "middle", bar.label));
    parts.push(text("tick", middle, box.height - 6, "middle", shape.strategy));
  });
  const description = chart.bars.map((bar) => `${bar.strategy}: ${bar.label}`).join(", ");
  const label = escapeHtml(`${chart.title}: ${description}`);
  const svg = `<svg viewBox="0 0 ${box.width} ${box.height}" role="img" aria-label="${label}">${parts.join("")}</svg>`;
  return `<figure class="chart"><figcaption>${escapeHtml(chart.title)}</figcaption>${svg}</figure>`;
}

function summaryTable(rows: readonly SummaryRow[]): string {
  const cells = rows.map((row) => [
    row.strategy,
    String(row.items),
    scoreText(row.score),
    scoreText(row.evidenceReached),
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

function itemTable(results: readonly ItemResult[]): string {
  const cells = results.map((result) => [
    result.itemId,
    result.strategy,
    result.status,
    result.status === "failed" ? "–" : scoreText(result.score),
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
<div class="charts">${barChart(scoreChart(suiteRows))}${barChart(tokenChart(suiteRows))}</div>
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
