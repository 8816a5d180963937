/**
 * `ctxwin history export`: a session as JSON lines (every stored row after the floor, hidden and
 * boundary rows included, exactly as stored, so the export can be re-imported) or as Markdown
 * (the readable transcript, one section per context window).
 */
import { renderRowText } from "../../core/row-text.js";
import type { StoredRow } from "../../store/port.js";
import { allWindows, windowRows, type HistoryScope } from "./history-queries.js";

export type ExportFormat = "jsonl" | "markdown";

export const EXPORT_FORMATS: readonly ExportFormat[] = ["jsonl", "markdown"];

/** Rows read per store call. */
const PAGE_ROWS = 200;

/**
 * Writes the export chunk by chunk through `write`.
 *
 * @example await exportSession(scope, { format: "jsonl", write: (chunk) => process.stdout.write(chunk) });
 */
export async function exportSession(scope: HistoryScope, { format, write }: { format: ExportFormat; write: (chunk: string) => void }): Promise<void> {
  if (format === "jsonl") {
    for await (const row of allRows(scope)) write(`${JSON.stringify(row)}\n`);
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

async function* allRows(scope: HistoryScope): AsyncGenerator<StoredRow> {
  let afterSeq = scope.floor;
  for (;;) {
    const page = await scope.store.items(scope.sessionId, { afterSeq, limit: PAGE_ROWS, includeCleared: scope.includeCleared });
    for (const row of page.rows) if (row.seq > scope.floor) yield row;
    const last = page.rows.at(-1);
    if (!page.hasMore || last === undefined) return;
    afterSeq = last.seq;
  }
}
