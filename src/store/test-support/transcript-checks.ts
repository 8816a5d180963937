/**
 * Checks of a whole session's transcript, used after concurrent writers and crashes. Each check
 * returns a list of problems (empty when all is well), so a failing test shows every problem
 * found rather than the first one.
 */
import type { HistoryStore, StoredRow } from "../port.js";
import { tagOf } from "./row-tags.js";

/**
 * Every row of a session in seq order, read through the public `items` view.
 *
 * @example
 * const rows = await readWholeSession(store, "s1");
 */
export async function readWholeSession(store: HistoryStore, sessionId: string): Promise<StoredRow[]> {
  const rows: StoredRow[] = [];
  for (;;) {
    const page = await store.items(sessionId, { afterSeq: rows.at(-1)?.seq ?? 0, limit: 1000, includeCleared: true });
    rows.push(...page.rows);
    if (!page.hasMore || page.rows.length === 0) return rows;
  }
}

/** Seqs must be exactly 1, 2, ..., `lastSeq`, each once, in order. */
export function seqProblems(rows: readonly StoredRow[], lastSeq: number): string[] {
  const problems: string[] = [];
  if (rows.length !== lastSeq) problems.push(`${rows.length} rows read, but the store's last seq is ${lastSeq}`);
  rows.forEach((row, position) => {
    if (row.seq !== position + 1 && problems.length < 20)
      problems.push(`row at position ${position} has seq ${row.seq}, expected ${position + 1}`);
  });
  return problems;
}

/** Rows of every append call must be all there, contiguous, and in the order they were given. */
export function batchProblems(rows: readonly StoredRow[]): string[] {
  const byBatch = new Map<string, StoredRow[]>();
  for (const row of rows) {
    const tag = tagOf(row);
    if (tag === undefined) continue;
    const members = byBatch.get(tag.batch) ?? [];
    members.push(row);
    byBatch.set(tag.batch, members);
  }
  const problems: string[] = [];
  for (const [batch, members] of byBatch) {
    const size = tagOf(members[0] as StoredRow)?.size;
    const indexes = members.map((row) => tagOf(row)?.index);
    const seqs = members.map((row) => row.seq);
    if (members.length !== size)
      problems.push(`batch ${batch}: ${members.length} of ${String(size)} rows present (seqs ${seqs.join(",")})`);
    if (indexes.some((index, position) => index !== position))
      problems.push(`batch ${batch}: rows out of order (indexes ${indexes.join(",")})`);
    const first = seqs[0] ?? 0;
    if (seqs.some((seq, position) => seq !== first + position))
      problems.push(`batch ${batch}: not contiguous (seqs ${seqs.join(",")})`);
  }
  return problems;
}

/** Each worker's rows must appear in the order the worker wrote them. */
export function workerOrderProblems(rows: readonly StoredRow[]): string[] {
  const lastOrder = new Map<string, number>();
  const problems: string[] = [];
  for (const row of rows) {
    const tag = tagOf(row);
    if (tag === undefined) continue;
    const previous = lastOrder.get(tag.worker) ?? -1;
    if (tag.order !== previous + 1)
      problems.push(`worker ${tag.worker}: row of order ${tag.order} at seq ${row.seq} follows order ${previous}`);
    lastOrder.set(tag.worker, tag.order);
  }
  return problems;
}

/** Distinct batch ids present in the rows. */
export function batchesPresent(rows: readonly StoredRow[]): Set<string> {
  const batches = new Set<string>();
  for (const row of rows) {
    const tag = tagOf(row);
    if (tag !== undefined) batches.add(tag.batch);
  }
  return batches;
}
