/**
 * PostgreSQL store format 1 → 2: rows holding a call of the history tool were indexed with the
 * call's text (its query); their two search columns are written again from `renderSearchText`, so
 * a lookup is never a hit for the next one (ADR 0053). Rows with a value over the search cut get
 * the cut (ADR 0048). Only rows whose body names the tool or is longer than the cut are read, a
 * page at a time, inside the migration's transaction.
 */
import type pg from "pg";
import { SESSION_HISTORY_TOOL_NAME } from "../../core/row-text.js";
import { MAX_SEARCH_VALUE_CHARS, renderSearchText } from "../../core/search-text.js";
import { foldCase, rankedTerms } from "../../core/search-query.js";
import { decodeRow } from "../row-codec.js";
import { withoutNul } from "./append-rows.js";
import { tableNames } from "./schema.js";
import { wordVector } from "./word-vector.js";

const PAGE = 1_000;

/**
 * @example await reindexHistoryLookups(client, "ctxwin");
 */
export async function reindexHistoryLookups(client: pg.PoolClient, schema: string): Promise<void> {
  const t = tableNames(schema);
  let after = { sessionKey: 0, seq: 0 };
  for (;;) {
    const page = await client.query<{ session_key: string; seq: string; session_id: string; body: string }>(
      `SELECT r.session_key, r.seq, s.session_id, r.body FROM ${t.rows} r JOIN ${t.sessions} s ON s.session_key = r.session_key
       WHERE r.visible AND (r.session_key, r.seq) > ($1, $2) AND (strpos(r.body, $3) > 0 OR length(r.body) > ${MAX_SEARCH_VALUE_CHARS})
       ORDER BY r.session_key, r.seq LIMIT ${PAGE}`,
      [after.sessionKey, after.seq, SESSION_HISTORY_TOOL_NAME],
    );
    for (const record of page.rows) {
      const decoded = decodeRow(record.session_id, Number(record.seq), record.body);
      if (!decoded.ok) continue;
      const text = renderSearchText(decoded.row);
      await client.query(
        `UPDATE ${t.rows} SET literal_text = $1, words = $2::tsvector WHERE session_key = $3 AND seq = $4`,
        [
          text.length === 0 ? null : withoutNul(foldCase(text)),
          text.length === 0 ? null : wordVector({ terms: rankedTerms(text), context: [] }),
          record.session_key,
          record.seq,
        ],
      );
    }
    const last = page.rows.at(-1);
    if (page.rows.length < PAGE || last === undefined) return;
    after = { sessionKey: Number(last.session_key), seq: Number(last.seq) };
  }
}
