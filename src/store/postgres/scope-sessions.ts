/**
 * The sessions table as a cross-session search's scope needs it (ADR 0089), read again only when
 * the table changed (ADR 0094). Each call first asks the server for a fingerprint of the table's
 * row versions, in the search's own snapshot: the number of rows and an md5 of their `xmin` (the
 * transaction that wrote each version). Every insert or update of a session (an append, a clear, a
 * fork) writes a version whose `xmin` no version seen before has (that transaction had not
 * committed then), and a delete lowers the count, so the fingerprint changes with any change a
 * later snapshot sees, whoever made it (another process, an older ctxwin, a transaction that
 * committed out of order), and nothing is added to the write path.
 * An unchanged table hands back the same array, so that the scope built from it is reused
 * (`cross-search.ts`'s scope cache).
 */
import type pg from "pg";
import {
  SCOPE_SESSION_COLUMNS,
  scopeSessionOf,
  type ScopeSession,
  type ScopeSessionRecord,
} from "../cross-search/search-scope.js";
import type { TableNames } from "./schema.js";

export interface ScopeSessions {
  sessions: readonly ScopeSession[];
  /** By session id: its key in the rows table and its last seq. */
  stored: ReadonlyMap<string, { sessionKey: number; lastSeq: number }>;
  /** Rows of the store (every session's last seq summed). */
  storeRows: number;
  /** Every session's indexed rows and terms summed: the whole store's BM25 corpus. */
  indexedRows: number;
  indexedTerms: number;
}

type SessionsRecord = ScopeSessionRecord & { last_seq: string; indexed_rows: string; indexed_terms: string };

/**
 * @example const scopeSessions = createScopeSessions(tables); const { sessions } = await scopeSessions(client);
 */
export function createScopeSessions(
  tables: TableNames,
): (client: pg.PoolClient, alongside?: string) => Promise<ScopeSessions> {
  let cached: { fingerprint: string; value: ScopeSessions } | undefined;
  // `alongside`: a select list run with the fingerprint (the search's first planner settings).
  return async (client, alongside) => {
    // The row versions' writing transactions, in the order the table is read (another order only reads again).
    const fingerprint =
      (
        await client.query<{ fingerprint: string | null }>(
          `SELECT ${alongside === undefined ? "" : `${alongside}, `}
             count(*) || ':' || coalesce(md5(string_agg(xmin::text, ',')), '') AS fingerprint
           FROM ${tables.sessions}`,
        )
      ).rows[0]?.fingerprint ?? "";
    if (cached?.fingerprint === fingerprint) return cached.value;
    const records = (
      await client.query<SessionsRecord>(
        `SELECT ${SCOPE_SESSION_COLUMNS}, last_seq, indexed_rows, indexed_terms FROM ${tables.sessions}`,
      )
    ).rows;
    const value: ScopeSessions = {
      sessions: records.map(scopeSessionOf),
      stored: new Map(
        records.map((record) => [
          record.session_id,
          { sessionKey: Number(record.session_key), lastSeq: Number(record.last_seq) },
        ]),
      ),
      storeRows: records.reduce((sum, record) => sum + Number(record.last_seq), 0),
      indexedRows: records.reduce((sum, record) => sum + Number(record.indexed_rows), 0),
      indexedTerms: records.reduce((sum, record) => sum + Number(record.indexed_terms), 0),
    };
    cached = { fingerprint, value };
    return value;
  };
}
