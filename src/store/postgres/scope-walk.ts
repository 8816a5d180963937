/**
 * Cross-session search's walk on the PostgreSQL backend (ADR 0094): the scope's segments in the
 * order a page shows them (sessions by newest activity first, each one's rows newest first), read
 * a batch of segments per statement, each segment's newest matching rows from the primary key
 * walked backwards. A common query finds its page in the first few sessions and stops there,
 * instead of listing every match in the store from an index (docs/benchmarks.md, fleet).
 */
import type pg from "pg";
import type { SearchScope } from "../cross-search/search-scope.js";
import { WALK_ROWS, planSettings, withPlan, type PlannerMethod } from "./planner-methods.js";
import type { ScopeSessions } from "./scope-sessions.js";
import type { TableNames } from "./schema.js";

/** Rows a walk may test in all: a query sparser than that is listed by an index instead. */
const WALK_LIMIT = 10_000;

/**
 * How many rows a walk may test in a store of `storeRows` rows: `WALK_LIMIT`, and never more than a
 * twentieth of the store (a small store's index lists the few matches at once).
 */
export const walkLimit = (storeRows: number) => Math.min(WALK_LIMIT, Math.ceil(storeRows / 20));

/**
 * Runs a statement under a plan (`withPlan`), setting the planner only when the last statement was
 * planned otherwise; `alongside` is the select list that sets `plan` within another statement.
 */
export interface PlanAs {
  <T>(plan: readonly PlannerMethod[], work: () => Promise<T>): Promise<T>;
  alongside(plan: readonly PlannerMethod[]): string;
}

/**
 * A `PlanAs` for one read transaction (the settings are local to it): a statement planned like the
 * one before it needs no new settings, one round trip less.
 *
 * @example const planAs = transactionPlanner(client); await planAs(WALK_ROWS, () => client.query(...));
 */
export function transactionPlanner(client: pg.PoolClient): PlanAs {
  let planned: readonly PlannerMethod[] | undefined;
  const planAs = <T>(plan: readonly PlannerMethod[], work: () => Promise<T>): Promise<T> => {
    if (plan.length === 0 || plan === planned) return work();
    planned = plan;
    return withPlan(client, plan, work);
  };
  return Object.assign(planAs, {
    alongside(plan: readonly PlannerMethod[]) {
      planned = plan;
      return planSettings(plan);
    },
  });
}

/** Stored rows `low < seq <= high` of `storedIn`, shown under `ownerId`. */
export interface WalkSegment {
  storedIn: string;
  sessionKey: number;
  ownerId: string;
  low: number;
  high: number;
}

/** Rows of a segment. */
export const segmentRows = (segment: WalkSegment) => segment.high - segment.low;

const walkOrders = new WeakMap<SearchScope, WalkSegment[]>();

/**
 * The scope's segments holding rows, owners by rank, each owner's segments newest first (a fork's
 * own rows, then its origin's). Kept per scope: a scope is reused while the sessions table is unchanged.
 */
export function walkOrder(scope: SearchScope, stored: ScopeSessions["stored"]): readonly WalkSegment[] {
  const cached = walkOrders.get(scope);
  if (cached !== undefined) return cached;
  const ranked: (WalkSegment & { rank: number })[] = [];
  for (const [storedIn, segments] of scope.segments) {
    const session = stored.get(storedIn);
    if (session === undefined) continue;
    for (const { ownerId, rank, low, high } of segments) {
      const top = Math.min(high, session.lastSeq);
      if (top > low) ranked.push({ storedIn, sessionKey: session.sessionKey, ownerId, rank, low, high: top });
    }
  }
  ranked.sort((left, right) => left.rank - right.rank || right.high - left.high);
  const order = ranked.map(({ rank: _rank, ...segment }) => segment);
  walkOrders.set(scope, order);
  return order;
}

/**
 * Where the batch starting at `start` ends: past at least `rows` rows and `owners` owners, and never
 * between two segments of one owner (so that each owner is read whole).
 */
export function batchEnd(
  order: readonly WalkSegment[],
  start: number,
  { rows = 0, owners = 0 }: { rows?: number; owners?: number },
): number {
  let end = start;
  let takenRows = 0;
  let takenOwners = 0;
  while (end < order.length) {
    const segment = order[end] as WalkSegment;
    const sameOwner = end > start && segment.ownerId === order[end - 1]?.ownerId;
    if (!sameOwner && takenRows >= rows && takenOwners >= owners) break;
    if (!sameOwner) takenOwners += 1;
    takenRows += segmentRows(segment);
    end += 1;
  }
  return end;
}

/** Owners and rows of `order[start, end)` (a batch `batchEnd` cut: its owners are whole). */
export function batchSize(order: readonly WalkSegment[], start: number, end: number): { owners: number; rows: number } {
  let owners = 0;
  let rows = 0;
  for (let index = start; index < end; index += 1) {
    const segment = order[index] as WalkSegment;
    if (index === start || segment.ownerId !== order[index - 1]?.ownerId) owners += 1;
    rows += segmentRows(segment);
  }
  return { owners, rows };
}

/** A matching row found by a walk: `segment` is its index in the walk order; its body when asked for. */
export interface WalkedRow {
  segment: number;
  seq: number;
  encoded?: { window_seq: number; body: string };
}

/**
 * The newest `perSegment` rows of each segment of `order[start, end)` for which `condition` holds
 * (SQL over the rows table `r`, its `parameters` `$5` on), in walk order, with their bodies when `bodies`.
 */
export async function walkSegments(
  { client, tables, planAs }: { client: pg.PoolClient; tables: TableNames; planAs: PlanAs },
  {
    order,
    start,
    end,
    condition,
    parameters,
    perSegment,
    bodies,
  }: {
    order: readonly WalkSegment[];
    start: number;
    end: number;
    condition: string;
    parameters: readonly string[];
    perSegment: number;
    bodies: boolean;
  },
): Promise<WalkedRow[]> {
  const batch = order.slice(start, end);
  if (batch.length === 0) return [];
  // Each segment's rows from the primary key, newest first: neither index lists the store's matches.
  const result = await planAs(WALK_ROWS, () =>
    client.query<{ segment: string; seq: string; window_seq: string | null; body: string | null }>(
      `SELECT k.segment, m.seq, m.window_seq, m.body
       FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) WITH ORDINALITY AS k(session_key, low, high, segment)
       CROSS JOIN LATERAL (SELECT r.seq, ${bodies ? "r.window_seq, r.body" : "NULL AS window_seq, NULL AS body"}
         FROM ${tables.rows} r
         WHERE r.session_key = k.session_key AND r.seq > k.low AND r.seq <= k.high AND ${condition}
         ORDER BY r.seq DESC LIMIT $4) m`,
      [
        batch.map((segment) => segment.sessionKey),
        batch.map((segment) => segment.low),
        batch.map((segment) => segment.high),
        perSegment,
        ...parameters,
      ],
    ),
  );
  return result.rows
    .map((row) => ({
      segment: start + Number(row.segment) - 1,
      seq: Number(row.seq),
      ...(row.body === null ? {} : { encoded: { window_seq: Number(row.window_seq), body: row.body } }),
    }))
    .sort((left, right) => left.segment - right.segment || right.seq - left.seq);
}
