/**
 * The store's GIN indexes (pg_trgm's on `literal_text`, the word index on `words`) keep a short
 * pending list (ADR 0104). A GIN index puts new entries in a list that every read of the index
 * scans, until a vacuum or an insert that finds the list over `gin_pending_list_limit` (4 MB by
 * default) moves them into the index: right after an import, or in a store written to all the
 * time, each read scanned up to 512 list pages (a rare phrase across 1,000 sessions: 435 buffers,
 * 11 ms on the server, where the index itself takes 54). With a limit of 256 kB a read scans at
 * most 32 of them, for 4% of a 100-row import's throughput; `fastupdate = off` (no list) cost 57%.
 *
 * Set on every writable open where an index lacks it, in the opening transaction: a storage
 * parameter changes no row and no result, so it is no format change (older builds read and write
 * the store as before).
 * The lists already there are moved into their indexes once. An index the connecting role does not
 * own is left as it is (the parameter is a cost, never a result; only its owner may change it).
 */
import type pg from "pg";

/** `gin_pending_list_limit` of the store's GIN indexes, in kB (PostgreSQL's default: 4,096). */
export const PENDING_LIST_LIMIT_KB = 256;

const option = `gin_pending_list_limit=${PENDING_LIST_LIMIT_KB}`;
const indexNames = ["ctxwin_rows_literal", "ctxwin_rows_words"];

/**
 * Sets the limit on each of the schema's GIN indexes that lacks it and that the connecting role
 * owns, and empties its pending list. Runs inside the opening transaction (`initialize.ts`).
 *
 * @example await limitPendingLists(client, "ctxwin");
 */
export async function limitPendingLists(client: pg.PoolClient, schema: string): Promise<void> {
  const indexes = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relname = ANY($2::text[]) AND pg_has_role(c.relowner, 'USAGE')
       AND NOT coalesce(c.reloptions @> ARRAY[$3::text], false)`,
    [schema, indexNames, option],
  );
  for (const { name } of indexes.rows) {
    const index = `"${schema}".${name}`;
    await client.query(`ALTER INDEX ${index} SET (${option})`);
    await client.query("SELECT gin_clean_pending_list($1::regclass)", [index]);
  }
}
