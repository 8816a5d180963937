/**
 * Test fixture: turns a schema this build wrote into what main's PostgreSQL store format 2 held
 * for the same appends (before format 3, issue 27): `words` holds each indexed row's own terms,
 * unlabelled, at their positions (no context, ADR 0052), there is no `word_count` and no session
 * counters, and no filter terms table (ADR 0051). Format 1 differed only in indexing the agent's
 * own history lookups (ADR 0053): `format: 1` labels the same schema format 1.
 */
import type pg from "pg";
import { rankedTerms } from "../../../core/search-query.js";
import { indexedTextOf } from "../../append-plan.js";
import { decodeRow } from "../../row-codec.js";

/** Formats 1 and 2's words: the row's terms at their positions, no labels, no context. */
export function formatTwoVector(terms: readonly string[]): string | null {
  const positions = new Map<string, number[]>();
  terms.forEach((term, index) => positions.set(term, [...(positions.get(term) ?? []), index + 1]));
  return positions.size === 0 ? null : [...positions].map(([term, list]) => `'${term}':${list.join(",")}`).join(" ");
}

/** @example await downgradeToFormatTwo(admin, "ctxwin_test"); */
export async function downgradeToFormatTwo(
  admin: pg.Client,
  schema: string,
  { format = 2 }: { format?: 1 | 2 } = {},
): Promise<void> {
  const rows = await admin.query<{ session_id: string; session_key: number; seq: number; body: string }>(
    `SELECT s.session_id, r.session_key, r.seq, r.body FROM ${schema}.ctxwin_rows r JOIN ${schema}.ctxwin_sessions s USING (session_key) WHERE r.visible`,
  );
  for (const row of rows.rows) {
    const decoded = decodeRow(row.session_id, Number(row.seq), row.body);
    const vector = decoded.ok ? formatTwoVector(rankedTerms(indexedTextOf(decoded.row))) : null;
    await admin.query(`UPDATE ${schema}.ctxwin_rows SET words = $3::tsvector WHERE session_key = $1 AND seq = $2`, [
      row.session_key,
      row.seq,
      vector,
    ]);
  }
  await admin.query(`ALTER TABLE ${schema}.ctxwin_rows DROP COLUMN word_count`);
  await admin.query(`ALTER TABLE ${schema}.ctxwin_sessions DROP COLUMN indexed_rows, DROP COLUMN indexed_terms`);
  await admin.query(`DROP TABLE ${schema}.ctxwin_filter_terms`);
  await admin.query(`UPDATE ${schema}.ctxwin_meta SET value = $1 WHERE name = 'format'`, [String(format)]);
}
