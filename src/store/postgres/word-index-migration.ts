/**
 * PostgreSQL store format 1 → 2 (ADR 0052): every indexed row's `words` is built again with its
 * context (the last terms of the indexed row right before it, labelled B) and its term count
 * (`word_count`), and each session gets its indexed rows and terms counted, as appends of this
 * build write them. Rows are read with the read path's codec: a row whose body no longer decodes
 * is left out of the ranked index (every read skips it), and the row after it gets no context.
 * Runs inside the opening transaction (`initialize.ts`): a failure leaves format 1 whole.
 */
import type pg from "pg";
import { contextTerms } from "../../core/ranked-context.js";
import { rankedTerms } from "../../core/search-query.js";
import { indexedTextOf } from "../append-plan.js";
import { decodeRow } from "../row-codec.js";
import { tableNames } from "./schema.js";
import { wordVector } from "./word-vector.js";

/** Rows read and written per statement, so memory stays bounded on a large store. */
const PAGE = 500;

/** @example await addContextToWordIndex(client, "ctxwin"); */
export async function addContextToWordIndex(client: pg.PoolClient, schema: string): Promise<void> {
  const t = tableNames(schema);
  await client.query(`ALTER TABLE ${t.rows} ADD COLUMN word_count integer NOT NULL DEFAULT 0`);
  await client.query(
    `ALTER TABLE ${t.sessions} ADD COLUMN indexed_rows bigint NOT NULL DEFAULT 0, ADD COLUMN indexed_terms bigint NOT NULL DEFAULT 0`,
  );
  const sessions = await client.query<{ session_key: number; session_id: string }>(
    `SELECT session_key, session_id FROM ${t.sessions} ORDER BY session_key`,
  );
  for (const session of sessions.rows) {
    let previous: { seq: number; terms: readonly string[] } | undefined;
    let indexedRows = 0;
    let indexedTerms = 0;
    for (let after = 0; ;) {
      const page = await client.query<{ seq: number; body: string }>(
        `SELECT seq, body FROM ${t.rows} WHERE session_key = $1 AND visible AND seq > $2 ORDER BY seq LIMIT ${PAGE}`,
        [session.session_key, after],
      );
      const seqs: number[] = [];
      const vectors: (string | null)[] = [];
      const counts: number[] = [];
      for (const record of page.rows) {
        const seq = Number(record.seq);
        const decoded = decodeRow(session.session_id, seq, record.body);
        const text = decoded.ok ? indexedTextOf(decoded.row) : "";
        const terms = rankedTerms(text);
        const context = text.length > 0 && previous?.seq === seq - 1 ? previous.terms : [];
        previous = { seq, terms: contextTerms(terms) };
        seqs.push(seq);
        vectors.push(text.length > 0 ? wordVector({ terms, context }) : null);
        counts.push(terms.length + context.length);
        if (text.length > 0) {
          indexedRows += 1;
          indexedTerms += terms.length + context.length;
        }
      }
      if (seqs.length > 0) {
        await client.query(
          `UPDATE ${t.rows} r SET words = v.words, word_count = v.word_count
           FROM unnest($2::bigint[], $3::tsvector[], $4::integer[]) AS v(seq, words, word_count)
           WHERE r.session_key = $1 AND r.seq = v.seq`,
          [session.session_key, seqs, vectors, counts],
        );
      }
      const last = seqs.at(-1);
      if (page.rows.length < PAGE || last === undefined) break;
      after = last;
    }
    await client.query(`UPDATE ${t.sessions} SET indexed_rows = $2, indexed_terms = $3 WHERE session_key = $1`, [
      session.session_key,
      indexedRows,
      indexedTerms,
    ]);
  }
}
