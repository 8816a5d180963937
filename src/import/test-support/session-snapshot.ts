/**
 * What the import tests compare: a session's rows without what the store assigns (seq, tokens)
 * and without the header's source file name (a split import reads the session from other files),
 * plus the store's total row count, so a report can be checked against the store's change; and
 * the imports the tests repeat.
 */
import { expect } from "vitest";
import { createMemoryStore } from "../../store/memory/memory-store.js";
import type { HistoryStore, StoredRow } from "../../store/port.js";
import { importFiles, type ImportFilesOptions, type ImportFormat } from "../import-files.js";
import type { ImportReport } from "../import-report.js";

export async function allRows(store: HistoryStore, sessionId: string): Promise<StoredRow[]> {
  const rows: StoredRow[] = [];
  for (let afterSeq = 0; ;) {
    const page = await store.items(sessionId, { includeCleared: true, afterSeq, limit: 1000 });
    rows.push(...page.rows);
    if (!page.hasMore || page.rows.length === 0) return rows;
    afterSeq = page.rows.at(-1)!.seq;
  }
}

export async function sessionSnapshot(store: HistoryStore, sessionId: string): Promise<unknown[]> {
  return (await allRows(store, sessionId)).map(({ seq: _seq, tokens: _tokens, sessionId: _session, ...row }) => {
    const meta = row.meta as Record<string, unknown> | undefined;
    if (meta?.["type"] !== "imported-session") return row;
    const { file: _file, ...rest } = meta;
    return { ...row, meta: rest };
  });
}

/** Rows in the whole store (every session, cleared parts included). */
export async function storeRowCount(store: HistoryStore): Promise<number> {
  return (await store.sessions()).reduce((total, session) => total + session.lastSeq, 0);
}

/** Imports and checks that the report's rows are exactly the store's change. */
export async function importChecked(
  store: HistoryStore,
  options: Omit<ImportFilesOptions, "store">,
): Promise<ImportReport> {
  const before = await storeRowCount(store);
  const report = await importFiles({ store, ...options });
  expect(report.rowsAdded).toBe((await storeRowCount(store)) - before);
  return report;
}

/** Imports settled files into a fresh memory store: the report, and the store to read the rows from. */
export async function importSettled(
  format: ImportFormat,
  paths: string[],
): Promise<{ store: HistoryStore; report: ImportReport }> {
  const store = createMemoryStore();
  const report = await importFiles({ store, format, paths, settleMs: 0 });
  return { store, report };
}
