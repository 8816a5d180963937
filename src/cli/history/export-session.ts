/**
 * `ctxwin history export`: a session as JSON lines (every stored row after the floor, hidden and
 * boundary rows included, exactly as stored, so the export can be re-imported) or as Markdown
 * (the readable transcript, one section per context window).
 */
import { renderRowText } from "../../core/row-text.js";
import { allWindows, scopeRows, windowRows, type HistoryScope } from "./history-queries.js";

export type ExportFormat = "jsonl" | "markdown";

export const EXPORT_FORMATS: readonly ExportFormat[] = ["jsonl", "markdown"];

/**
 * Writes the export chunk by chunk through `write`.
 *
 * @example await exportSession(scope, { format: "jsonl", write: (chunk) => process.stdout.write(chunk) });
 */
export async function exportSession(
  scope: HistoryScope,
  { format, write }: { format: ExportFormat; write: (chunk: string) => void },
): Promise<void> {
  if (format === "jsonl") {
    for await (const row of scopeRows(scope, { all: true })) write(`${JSON.stringify(row)}\n`);
    return;
  }
  write(`# Session ${scope.sessionId}\n`);
  for (const window of await allWindows(scope)) {
    const reason = window.reason === undefined ? "" : `, ${window.reason}`;
    write(`\n---\n\n## Window ${window.windowId} (${window.kind}${reason}${window.active ? ", active" : ""})\n`);
    for (const row of await windowRows(scope, window.windowId)) {
      const type = typeof row.meta?.type === "string" ? ` (${row.meta.type})` : "";
      write(`\n### #${row.seq} ${row.role}${type} · ${row.createdAt}\n\n${renderRowText(row)}\n`);
    }
  }
}
