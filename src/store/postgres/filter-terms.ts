/**
 * The PostgreSQL backend's filter terms (store format 3, ADR 0051), as on SQLite: for every row
 * in the search columns, one entry per `filterTermsOf` term (`role:user`, `tool:bash`), keyed by
 * session, term and seq, so that a filtered search knows at once whether any row of its range can
 * pass the filter, and reads only those rows when they are few.
 */
import type pg from "pg";
import { filterTermsOf, filterTermsRequired, type SearchFilter } from "../../core/search-filter.js";
import { indexedTextOf } from "../append-plan.js";
import { decodeRow } from "../row-codec.js";
import type { TableNames } from "./schema.js";

export function filterTermsTable(t: TableNames): string {
  return `CREATE TABLE ${t.filterTerms} (
      session_key bigint NOT NULL,
      term text NOT NULL,
      seq bigint NOT NULL,
      PRIMARY KEY (session_key, term, seq)
    )`;
}

/**
 * The condition that the row `r` holds every filter term of `filter` (ADR 0051, 0093), its terms the
 * parameters from `$firstParameter` on: nothing without a filter.
 *
 * @example const holds = holdsFilterTerms(t, { role: "user" }, 4); // sql " AND EXISTS (... $4 ...)", parameters ["role:user"]
 */
export function holdsFilterTerms(
  t: TableNames,
  filter: SearchFilter,
  firstParameter: number,
): { sql: string; parameters: string[] } {
  const parameters = filterTermsRequired(filter);
  const sql = parameters
    .map(
      (_, index) => ` AND EXISTS (SELECT 1 FROM ${t.filterTerms} ft
         WHERE ft.session_key = r.session_key AND ft.term = $${firstParameter + index} AND ft.seq = r.seq)`,
    )
    .join("");
  return { sql, parameters };
}

/** Writes the terms of appended rows: parallel arrays of terms and their rows' seqs. */
export async function insertFilterTerms(
  client: pg.PoolClient,
  t: TableNames,
  sessionKey: number,
  entries: readonly { seq: number; terms: readonly string[] }[],
): Promise<void> {
  const terms = entries.flatMap((entry) => entry.terms);
  if (terms.length === 0) return;
  await client.query(
    `INSERT INTO ${t.filterTerms} (session_key, term, seq) SELECT $1, * FROM unnest($2::text[], $3::bigint[])`,
    [sessionKey, terms, entries.flatMap((entry) => entry.terms.map(() => entry.seq))],
  );
}

/** Rows read per query while filling the table, so memory stays bounded on a large store. */
const PAGE = 1_000;

interface StoredRecord {
  session_key: number;
  session_id: string;
  seq: number;
  body: string;
}

/**
 * Format 2 → 3 (with the words' context, `migrations.ts`): creates the table and fills it from every row the search columns hold, decoded
 * with the codec every read uses (a row that no longer decodes is left out, as reads skip it).
 * Runs in the opening transaction, under its lock: a failure leaves format 2 whole.
 */
export async function addFilterTerms(client: pg.PoolClient, t: TableNames): Promise<void> {
  await client.query(filterTermsTable(t));
  for (let afterKey = 0, afterSeq = 0; ;) {
    const page = await client.query<StoredRecord>(
      `SELECT r.session_key, s.session_id, r.seq, r.body FROM ${t.rows} r JOIN ${t.sessions} s ON s.session_key = r.session_key
       WHERE r.visible AND (r.session_key, r.seq) > ($1, $2) ORDER BY r.session_key, r.seq LIMIT ${PAGE}`,
      [afterKey, afterSeq],
    );
    const bySession = new Map<number, { seq: number; terms: string[] }[]>();
    for (const record of page.rows) {
      const decoded = decodeRow(record.session_id, Number(record.seq), record.body);
      if (!decoded.ok || indexedTextOf(decoded.row).length === 0) continue;
      const entries = bySession.get(Number(record.session_key)) ?? [];
      entries.push({ seq: Number(record.seq), terms: filterTermsOf(decoded.row) });
      bySession.set(Number(record.session_key), entries);
    }
    for (const [sessionKey, entries] of bySession) await insertFilterTerms(client, t, sessionKey, entries);
    const last = page.rows.at(-1);
    if (page.rows.length < PAGE || last === undefined) return;
    afterKey = Number(last.session_key);
    afterSeq = Number(last.seq);
  }
}
