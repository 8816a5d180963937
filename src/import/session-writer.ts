/**
 * Writes one session's imported rows: every row whose id the session does not hold yet, in
 * transcript order, in batches that each expect the session's last seq (so two imports running at
 * once never write a row twice: the loser re-reads and appends only what is still missing). The
 * counts it returns are rows it committed, nothing else (ADR 0049).
 */
import { AppendConflictError } from "../store/errors.js";
import type { HistoryStore, SessionParent } from "../store/port.js";
import type { BuiltRow, SourceRow } from "./source-format.js";
import { readStoredSession, type StoredSession } from "./stored-session.js";

export interface WriteOutcome {
  added: number;
  alreadyPresent: number;
  /** Added rows that belong before rows stored earlier: appended at the end, marked `importedLate`. */
  late: number;
  /** Results of calls stored earlier without one, added as rows of their own. */
  lateResults: number;
  /** Set when the session holds rows the source does not (a different history): nothing was written. */
  divergent?: { foreignRows: number };
  /** `stopWhen` said stop before every row was written: the counts are of the batches committed before. */
  stopped: boolean;
}

/** Appends that lost a race to another writer are re-planned this many times. */
const MAX_ATTEMPTS = 8;

/**
 * @example const outcome = await writeSessionRows({ store, sessionId, rows, refuseForeignRows: true });
 */
export async function writeSessionRows({
  store,
  sessionId,
  rows,
  normalizeId,
  refuseForeignRows = false,
  batchSize = 500,
  parent,
  stopWhen = () => false,
}: {
  store: HistoryStore;
  sessionId: string;
  rows: readonly BuiltRow[];
  normalizeId?: (id: string) => string;
  /** Refuse a session that holds rows other than the source's and manual resets (ctxwin exports). */
  refuseForeignRows?: boolean;
  batchSize?: number;
  /** A sub-agent's session: recorded when this import creates the session (ADR 0067). */
  parent?: SessionParent;
  /** Asked before each batch (the import's deadline): true stops the writing there. */
  stopWhen?: () => boolean;
}): Promise<WriteOutcome> {
  const committed = new Set<string>();
  for (let attempt = 1; ; attempt += 1) {
    const stored = await readStoredSession(store, sessionId, normalizeId, stopWhen);
    if (stored === undefined)
      return { added: committed.size, alreadyPresent: 0, late: 0, lateResults: 0, stopped: true };
    const plan = planAppend(rows, stored, committed);
    if (refuseForeignRows) {
      const sourceIds = new Set(rows.map(({ row }) => row.id));
      const foreignRows = [...stored.ids].filter(
        (id) => !sourceIds.has(id) && !stored.resets.has(id) && !committed.has(id),
      ).length;
      if (foreignRows > 0)
        return {
          added: committed.size,
          alreadyPresent: plan.alreadyPresent,
          late: 0,
          lateResults: 0,
          divergent: { foreignRows },
          stopped: false,
        };
    }
    try {
      let lastSeq = stored.lastSeq;
      for (let start = 0; start < plan.rows.length; start += batchSize) {
        if (stopWhen())
          return { added: committed.size, alreadyPresent: plan.alreadyPresent, late: 0, lateResults: 0, stopped: true };
        const batch = plan.rows.slice(start, start + batchSize);
        const written = await store.append(sessionId, batch, {
          expectLastSeq: lastSeq,
          ...(parent === undefined || lastSeq > 0 ? {} : { parent }),
        });
        lastSeq += written.length;
        for (const row of batch) committed.add(row.id);
      }
      return {
        added: committed.size,
        alreadyPresent: plan.alreadyPresent,
        late: plan.late,
        lateResults: plan.lateResults,
        stopped: false,
      };
    } catch (error) {
      if (!AppendConflictError.isInstance(error) || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}

interface AppendPlan {
  rows: SourceRow[];
  alreadyPresent: number;
  late: number;
  lateResults: number;
}

function planAppend(
  built: readonly BuiltRow[],
  stored: StoredSession,
  committedByThisRun: ReadonlySet<string>,
): AppendPlan {
  let lastPresent = -1;
  built.forEach(({ row }, index) => {
    if (stored.ids.has(row.id)) lastPresent = index;
  });
  const plan: AppendPlan = { rows: [], alreadyPresent: 0, late: 0, lateResults: 0 };
  built.forEach(({ row }, index) => {
    if (!stored.ids.has(row.id)) {
      const late = index < lastPresent;
      if (late) plan.late += 1;
      plan.rows.push(late ? { ...row, metadata: { ...objectOf(row.metadata), importedLate: true } } : row);
      return;
    }
    if (!committedByThisRun.has(row.id)) plan.alreadyPresent += 1;
    for (const result of lateResultRows(row, stored)) {
      plan.lateResults += 1;
      plan.rows.push(result);
    }
  });
  return plan;
}

/** A stored call without a result whose result the source now has: the result as a row of its own. */
function lateResultRows(row: SourceRow, stored: StoredSession): SourceRow[] {
  const open = stored.openCalls.get(row.id);
  if (open === undefined) return [];
  return row.parts.flatMap((part) => {
    const call = part as { type: string; toolCallId?: string; state?: string };
    if (
      call.type !== "dynamic-tool" ||
      call.toolCallId === undefined ||
      !open.has(call.toolCallId) ||
      call.state === "input-available"
    )
      return [];
    const id = `${row.id}#result:${call.toolCallId}`;
    if (stored.ids.has(id)) return [];
    return [
      {
        id,
        role: row.role,
        parts: [part],
        ...(row.createdAt === undefined ? {} : { createdAt: row.createdAt }),
        metadata: { lateResultOf: row.id },
      },
    ];
  });
}

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
