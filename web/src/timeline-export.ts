/**
 * The timeline as a file: CSV (one line per request and per mark, for a spreadsheet) or the JSON
 * the API answered. Built in the page and saved through a temporary object URL.
 */
import type { TimelineView } from "./api/timeline-types";

const CSV_HEADER = [
  "type",
  "kind",
  "seq",
  "window",
  "at",
  "tokens",
  "limit",
  "source",
  "output_tokens",
  "tool_output_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
  "cost_usd",
  "detail",
];

/**
 * @example
 * timelineCsv(view).split("\n")[0]
 * // "type,kind,seq,window,at,tokens,limit,source,output_tokens,tool_output_tokens,cache_read_tokens,cache_write_tokens,cost_usd,detail"
 */
export function timelineCsv(view: TimelineView): string {
  const lines = [CSV_HEADER.join(",")];
  const entries = [
    ...view.points.map((point) => ({
      seq: point.seq,
      cells: [
        "request",
        "request",
        point.seq,
        point.windowId,
        point.at,
        point.tokens,
        point.limit,
        point.source,
        point.outputTokens,
        point.toolOutputTokens,
        point.cacheReadTokens,
        point.cacheWriteTokens,
        point.costUsd,
        point.model,
      ],
    })),
    ...view.marks.map((mark) => ({
      seq: mark.seq,
      cells: [
        "mark",
        mark.kind,
        mark.seq,
        mark.windowId,
        mark.at,
        mark.tokens,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        mark.detail,
      ],
    })),
  ].sort((left, right) => left.seq - right.seq);
  for (const entry of entries) lines.push(entry.cells.map(csvCell).join(","));
  return `${lines.join("\n")}\n`;
}

function csvCell(value: string | number | null): string {
  if (value === null) return "";
  const text = String(value);
  // Quote what would split a cell, and neutralize a leading formula character for spreadsheets.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === "string" ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Saves `text` as a download named `fileName`. */
export function downloadText({ text, fileName, type }: { text: string; fileName: string; type: string }): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
