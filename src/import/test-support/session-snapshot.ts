/**
 * What the import tests compare: a session's rows without what the store assigns (seq, tokens)
 * and without the header's source file name (a split import reads the session from other files),
 * plus the store's total row count, so a report can be checked against the store's change.
 */
import type { HistoryStore, StoredRow } from "../../store/port.js";

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
