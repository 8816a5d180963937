/**
 * PostgreSQL store format 3 → 4 (issue 30, ADR 0059): each session records its parent and, for a
 * fork, its origin, the seq it shares up to and how many of the origin's windows it inherits.
 * No row is touched. Also the lineage statements, kept apart from the row and search statements.
 */
import type pg from "pg";
import { ancestorsOf, decideAttachment, MAX_LINEAGE_DEPTH, type AttachTarget } from "../lineage/attach-parent.js";
import { sessionExists } from "../lineage/create-fork.js";
import { AttachParentRefusedError } from "../lineage/lineage-errors.js";
import type { ForkRecord, SessionLineage } from "../lineage/lineage-backend.js";
import type { AttachParentResult, SessionParent } from "../port.js";
import type { PostgresMigration } from "./migrations.js";
import { tableNames, type TableNames } from "./schema.js";
import { lineageOfRecord, type LineageRecord } from "../session-record.js";

export const addSessionLineage: PostgresMigration = {
  statements: (schema) => {
    const t = tableNames(schema);
    return [
      `ALTER TABLE ${t.sessions} ADD COLUMN IF NOT EXISTS parent_session_id text, ADD COLUMN IF NOT EXISTS parent_item_id text,
         ADD COLUMN IF NOT EXISTS fork_of_session_id text, ADD COLUMN IF NOT EXISTS fork_at_seq bigint,
         ADD COLUMN IF NOT EXISTS inherited_window_count bigint NOT NULL DEFAULT 0`,
      `CREATE INDEX IF NOT EXISTS ctxwin_sessions_by_parent ON ${t.sessions} (parent_session_id) WHERE parent_session_id IS NOT NULL`,
      `CREATE INDEX IF NOT EXISTS ctxwin_sessions_by_fork_origin ON ${t.sessions} (fork_of_session_id) WHERE fork_of_session_id IS NOT NULL`,
    ];
  },
};

export async function setParent(
  client: pg.PoolClient,
  t: TableNames,
  sessionKey: number,
  parent: { sessionId: string; itemId: string },
): Promise<void> {
  await client.query(`UPDATE ${t.sessions} SET parent_session_id = $1, parent_item_id = $2 WHERE session_key = $3`, [
    parent.sessionId,
    parent.itemId,
    sessionKey,
  ]);
}

/** Key of the advisory lock that serializes `attachParent` calls, so two cannot close a cycle ("ctpa"). */
const attachLockKey = 0x63747061;

/**
 * `attachParent` in the caller's writing transaction: the checks of `decideAttachment` over the
 * session and the parent's chain, then an UPDATE that only sets a parent that is still unset.
 */
export async function attachParent(
  client: pg.PoolClient,
  t: TableNames,
  sessionId: string,
  parent: SessionParent,
): Promise<AttachParentResult> {
  await client.query("SELECT pg_advisory_xact_lock($1)", [attachLockKey]);
  const targetOf = async (): Promise<AttachTarget | undefined> => {
    const found = await client.query<LineageRecord>(
      `SELECT parent_session_id, parent_item_id, fork_of_session_id, fork_at_seq FROM ${t.sessions} WHERE session_id = $1 FOR UPDATE`,
      [sessionId],
    );
    const record = found.rows[0];
    return record === undefined ? undefined : lineageOfRecord(record);
  };
  const chain = await client.query<{ session_id: string; parent_session_id: string | null }>(
    `WITH RECURSIVE chain (session_id, parent_session_id, depth) AS (
       SELECT session_id, parent_session_id, 0 FROM ${t.sessions} WHERE session_id = $1
       UNION ALL
       SELECT s.session_id, s.parent_session_id, c.depth + 1 FROM ${t.sessions} s JOIN chain c ON s.session_id = c.parent_session_id WHERE c.depth <= $2
     )
     SELECT session_id, parent_session_id FROM chain`,
    [parent.sessionId, MAX_LINEAGE_DEPTH],
  );
  const parentIds = new Map(chain.rows.map((record) => [record.session_id, record.parent_session_id ?? undefined]));
  const decide = async () =>
    decideAttachment({
      sessionId,
      parent,
      target: await targetOf(),
      parentExists: parentIds.has(parent.sessionId),
      ancestors: ancestorsOf(parent.sessionId, (id) => parentIds.get(id)),
    });
  if ((await decide()) === "unchanged") return "unchanged";
  const updated = await client.query(
    `UPDATE ${t.sessions} SET parent_session_id = $1, parent_item_id = $2 WHERE session_id = $3 AND parent_session_id IS NULL AND fork_of_session_id IS NULL`,
    [parent.sessionId, parent.itemId, sessionId],
  );
  if (updated.rowCount === 1) return "attached";
  // Another writer recorded a lineage in between: decide again over what it wrote (unchanged or refused).
  if ((await decide()) === "unchanged") return "unchanged";
  throw new AttachParentRefusedError(
    "has-other-parent",
    `Session '${sessionId}' got another lineage while its parent was attached.`,
  );
}

export async function lineageOf(
  client: pg.PoolClient,
  t: TableNames,
  sessionId: string,
): Promise<SessionLineage | undefined> {
  const found = await client.query<{
    fork_of_session_id: string | null;
    fork_at_seq: string | null;
    floor_seq: string;
  }>(`SELECT fork_of_session_id, fork_at_seq, floor_seq FROM ${t.sessions} WHERE session_id = $1`, [sessionId]);
  const row = found.rows[0];
  if (row === undefined) return undefined;
  const forkOf =
    row.fork_of_session_id === null
      ? {}
      : { forkOf: { sessionId: row.fork_of_session_id, atSeq: Number(row.fork_at_seq) } };
  return { ...forkOf, floorSeq: Number(row.floor_seq) };
}

/** The fork's session record and first window, in the caller's transaction; refused when the id is taken. */
export async function insertFork(
  client: pg.PoolClient,
  t: TableNames,
  record: ForkRecord,
  timestamp: string,
): Promise<void> {
  const { cursor, window } = record;
  const inserted = await client.query<{ session_key: number }>(
    `INSERT INTO ${t.sessions} (session_id, incarnation, created_at, updated_at, last_seq, active_window_seq, floor_seq,
     fork_of_session_id, fork_at_seq, inherited_window_count)
     VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (session_id) DO NOTHING RETURNING session_key`,
    [
      record.sessionId,
      crypto.randomUUID(),
      timestamp,
      cursor.lastSeq,
      cursor.activeWindowSeq,
      cursor.floorSeq,
      record.forkOf.sessionId,
      record.forkOf.atSeq,
      record.inheritedWindowCount,
    ],
  );
  const key = inserted.rows[0]?.session_key;
  if (key === undefined) throw sessionExists(record.sessionId);
  await client.query(
    `INSERT INTO ${t.windows} (session_key, window_seq, kind, reason, rollover_id, context_tokens, max_tokens,
     first_seq, last_seq, row_count, visible_count, started_at, ended_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      key,
      window.boundarySeq,
      window.kind,
      window.reason ?? null,
      window.rolloverId ?? null,
      window.contextTokens ?? null,
      window.maxTokens ?? null,
      window.firstSeq,
      window.lastSeq,
      window.rowCount,
      window.visibleCount,
      window.startedAt,
      window.endedAt,
    ],
  );
}
