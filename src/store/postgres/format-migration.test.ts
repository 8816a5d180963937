/**
 * PostgreSQL store format 1 → 2 (ADR 0052): a schema written by a format-1 build is migrated on
 * its first writable open to exactly what this build's appends write: each row's words with its
 * context and term count, and each session's indexed rows and terms.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import { rankedTerms } from "../../core/search-query.js";
import { indexedTextOf } from "../append-plan.js";
import { StoreFormatError } from "../errors.js";
import { openStore } from "../open-store.js";
import { decodeRow } from "../row-codec.js";
import { createTestDatabase, postgresUnavailable, type TestDatabase } from "../test-support/postgres-database.js";
import { POSTGRES_FORMAT_VERSION } from "./schema.js";

const text = (value: string): RowInput => ({ role: "user", parts: [{ type: "text", text: value }] });
const reset: RowInput = { role: "assistant", parts: [], boundary: { kind: "reset" } };
const hidden: RowInput = { ...text("hidden"), synthetic: true, uiVisible: false, meta: { type: "continue" } };

/** Format 1's words: the row's terms at their positions, no labels, no context. */
function formatOneVector(terms: readonly string[]): string | null {
  const positions = new Map<string, number[]>();
  terms.forEach((term, index) => positions.set(term, [...(positions.get(term) ?? []), index + 1]));
  return positions.size === 0 ? null : [...positions].map(([term, list]) => `'${term}':${list.join(",")}`).join(" ");
}

describe.skipIf(postgresUnavailable !== "")("PostgreSQL store format migrations", () => {
  let database: TestDatabase;
  let admin: pg.Client;
  const query = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => (await admin.query<T>(sql, values)).rows;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await database.drop();
  });

  async function write(schema: string, appends: readonly [string, RowInput[]][]): Promise<void> {
    const store = openStore({ url: database.url, schema });
    try {
      for (const [sessionId, rows] of appends) await store.append(sessionId, rows);
    } finally {
      await store.close();
    }
  }

  /** Turns a format-2 schema into what a format-1 build wrote for the same appends. */
  async function downgradeToFormatOne(schema: string): Promise<void> {
    const rows = await query<{ session_id: string; session_key: number; seq: number; body: string }>(
      `SELECT s.session_id, r.session_key, r.seq, r.body FROM ${schema}.ctxwin_rows r JOIN ${schema}.ctxwin_sessions s USING (session_key) WHERE r.visible`,
    );
    for (const row of rows) {
      const decoded = decodeRow(row.session_id, Number(row.seq), row.body);
      const vector = decoded.ok ? formatOneVector(rankedTerms(indexedTextOf(decoded.row))) : null;
      await query(`UPDATE ${schema}.ctxwin_rows SET words = $3::tsvector WHERE session_key = $1 AND seq = $2`, [row.session_key, row.seq, vector]);
    }
    await query(`ALTER TABLE ${schema}.ctxwin_rows DROP COLUMN word_count`);
    await query(`ALTER TABLE ${schema}.ctxwin_sessions DROP COLUMN indexed_rows, DROP COLUMN indexed_terms`);
    await query(`UPDATE ${schema}.ctxwin_meta SET value = '1' WHERE name = 'format'`);
  }

  const index = (schema: string) =>
    query<{ entry: string }>(
      `SELECT s.session_id || '#' || r.seq || ' ' || coalesce(r.words::text, '-') || ' ' || r.word_count AS entry
       FROM ${schema}.ctxwin_rows r JOIN ${schema}.ctxwin_sessions s USING (session_key) ORDER BY s.session_id, r.seq`,
    );
  const counters = (schema: string) => query(`SELECT session_id, indexed_rows, indexed_terms FROM ${schema}.ctxwin_sessions ORDER BY session_id`);

  it("opens a format-1 schema and rebuilds each row's words with its context: what appends write (ADR 0052)", async () => {
    const appends: [string, RowInput[]][] = [
      ["s", [text("How often do you work out with your family?"), text("Three times a week; it keeps us on track.")]],
      ["other", [text("painting classes on Tuesdays"), hidden, text("after a hidden row")]],
      ["s", Array.from({ length: 600 }, (_unused, item) => text(`routine progress note ${item}`))],
      ["other", [text("the next append")]],
      ["s", [reset, text("after the reset")]],
    ];
    await write("format_one", appends);
    await write("fresh", appends);
    await downgradeToFormatOne("format_one");
    await expect(openStore({ url: database.url, schema: "format_one", readOnly: true }).lastSeq("s")).rejects.toSatisfy((error: unknown) => StoreFormatError.isInstance(error));

    const store = openStore({ url: database.url, schema: "format_one" });
    try {
      const seqs = async (search: string) => (await store.search("s", { query: search, mode: "ranked", includeCleared: true })).hits.map((hit) => hit.row.seq);
      // The reply is found by the words of the question it answers.
      expect(await seqs("How often do they work out?")).toEqual([1, 2]);
    } finally {
      await store.close();
    }
    expect(await query("SELECT value FROM format_one.ctxwin_meta WHERE name = 'format'")).toEqual([{ value: String(POSTGRES_FORMAT_VERSION) }]);
    const migrated = await index("format_one");
    expect(migrated).toEqual(await index("fresh"));
    expect(await counters("format_one")).toEqual(await counters("fresh"));
    // Own terms labelled A, context terms B; no context across the reset or the hidden row.
    expect(migrated.find((row) => row.entry.startsWith("s#2 "))?.entry).toMatch(/'often':\d+B/);
    expect(migrated.filter((row) => /^(s#604|other#3) .*\d+B/.test(row.entry))).toEqual([]);
    expect(migrated.find((row) => row.entry.startsWith("other#4 "))?.entry).toBe("other#4 'a':5B 'after':4B 'append':3A 'hidden':6B 'next':2A 'row':7B 'the':1A 7");
  });
});
