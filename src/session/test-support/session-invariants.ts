/**
 * Checks of docs/design.md §10 over a whole stored session, for crash and long-session tests. Each
 * returns a list of problems (empty when the invariant holds), so a failure says what broke where.
 */
import { classifyBoundary, rolloverMetaOf } from "../../core/boundary.js";
import { isSubstantive } from "../../core/visibility.js";
import { bucketWindows } from "../../core/windows.js";
import type { HistoryStore, StoredRow } from "../../store/port.js";

/** Every row of a session, privacy floor included, in seq order. */
export async function readAllRows(store: HistoryStore, sessionId: string): Promise<StoredRow[]> {
  const rows: StoredRow[] = [];
  for (let afterSeq = 0; ;) {
    const page = await store.items(sessionId, { afterSeq, limit: 500, includeCleared: true });
    rows.push(...page.rows);
    if (!page.hasMore || page.rows.length === 0) return rows;
    afterSeq = page.rows.at(-1)!.seq;
  }
}

const rolloverIdOf = (row: StoredRow): unknown =>
  row.meta?.["rolloverId"] ?? (row.metadata as Record<string, unknown> | undefined)?.["rolloverId"];

/**
 * Invariants 1, 4, 5, 7 and the no-empty-window-chain guard.
 *
 * @example
 * expect(sessionProblems(await readAllRows(store, "s"), lastSeq)).toEqual([]);
 */
export function sessionProblems(rows: readonly StoredRow[], lastSeq: number): string[] {
  const problems: string[] = [];
  rows.forEach((row, index) => {
    if (row.seq !== index + 1) problems.push(`seq ${row.seq} at position ${index + 1} (gap or disorder)`);
  });
  if (rows.length !== lastSeq) problems.push(`${rows.length} rows but lastSeq ${lastSeq}`);

  const seenRollovers = new Set<string>();
  rows.forEach((row, index) => {
    const meta = rolloverMetaOf(row);
    if (meta === undefined) return;
    if (seenRollovers.has(meta.rolloverId))
      problems.push(`second boundary for rollover ${meta.rolloverId} at seq ${row.seq}`);
    seenRollovers.add(meta.rolloverId);
    const leadIn = rows[index + 1];
    const trigger = rows[index + 2];
    if (leadIn?.meta?.type !== "lead-in" || rolloverIdOf(leadIn) !== meta.rolloverId)
      problems.push(`boundary at seq ${row.seq} is not followed by its lead-in`);
    if (trigger === undefined || rolloverIdOf(trigger) !== meta.rolloverId)
      problems.push(`boundary at seq ${row.seq} is not followed by its triggering input`);
  });

  for (const row of rows) {
    for (const part of row.parts) {
      const isTool = part.type === "dynamic-tool" || part.type.startsWith("tool-");
      const state = (part as { state?: unknown }).state;
      if (isTool && state !== "output-available" && state !== "output-error" && state !== "output-denied")
        problems.push(`tool call without its result at seq ${row.seq} (${String(state)})`);
    }
  }

  const windows = bucketWindows(rows);
  windows.forEach((window, index) => {
    const warnings = window.rows.filter((row) => row.meta?.type === "budget-warning").length;
    if (warnings > 1) problems.push(`${warnings} budget warnings in window ${window.windowId}`);
    const previous = windows[index - 1];
    if (window.kind === "rollover" && previous !== undefined && !previous.rows.some(isSubstantive)) {
      problems.push(`window ${window.windowId} rolled over an already-fresh window ${previous.windowId}`);
    }
  });
  if (rows.some((row) => classifyBoundary(row) === "reset")) problems.push("unexpected reset boundary");
  return problems;
}
