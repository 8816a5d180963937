/**
 * PostgreSQL store format 4 → 5 (issue 51, ADR 0103): a schema whose rows keep their word vectors
 * out of line (the TOAST relation, as format 4 stored a long row's) is opened and written again:
 * the vectors are kept in the rows, the table stores what a new store stores for the same appends,
 * and every row reads and searches as before.
 */
import type pg from "pg";
import { describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import { openStore } from "../open-store.js";
import { databaseWithAdmin, postgresUnavailable, type TestDatabase } from "../test-support/postgres-database.js";
import { POSTGRES_FORMAT_VERSION } from "./schema.js";

const text = (value: string): RowInput => ({ role: "user", parts: [{ type: "text", text: value }] });
/** ~250 distinct words: a vector of ~4 KB (what one long row holds), which format 4 stored out of line. */
const longText = Array.from({ length: 250 }, (_unused, index) => `term${index.toString(36)}x`).join(" ");

describe.skipIf(postgresUnavailable !== "")("PostgreSQL store format 4 → 5", () => {
  let database: TestDatabase;
  let admin: pg.Client;
  databaseWithAdmin((opened) => ({ database, admin } = opened));
  const query = async <T extends pg.QueryResultRow>(sql: string) => (await admin.query<T>(sql)).rows;

  async function write(schema: string): Promise<void> {
    const store = openStore({ url: database.url, schema });
    try {
      await store.append("s", [text("a short first row about lighthouses"), text(`${longText} lighthouse`)]);
      await store.append("other", [text(`${longText} harbour`), text("the last row")]);
    } finally {
      await store.close();
    }
  }

  /** How many values the rows' TOAST relation holds, and the rows whose words have the size of one of them (out of line). */
  async function outOfLine(schema: string) {
    const [{ toast } = { toast: "" }] = await query<{ toast: string }>(
      `SELECT reltoastrelid::regclass::text AS toast FROM pg_class WHERE oid = '${schema}.ctxwin_rows'::regclass`,
    );
    const values = await query<{ bytes: number }>(
      `SELECT sum(length(chunk_data))::int AS bytes FROM ${toast} GROUP BY chunk_id ORDER BY 1`,
    );
    const words = await query<{ seq: number }>(
      `SELECT seq::int FROM ${schema}.ctxwin_rows WHERE pg_column_size(words) IN
       (SELECT sum(length(chunk_data)) FROM ${toast} GROUP BY chunk_id) ORDER BY session_key, seq`,
    );
    // Each value's bytes vary with the compression of a body's random id: the count does not.
    return { values: values.length, wordsOutOfLine: words.map((row) => row.seq) };
  }
  const rows = (schema: string) =>
    query(
      `SELECT s.session_id, r.seq, r.body, r.literal_text, r.words::text, r.word_count
       FROM ${schema}.ctxwin_rows r JOIN ${schema}.ctxwin_sessions s USING (session_key) ORDER BY 1, 2`,
    );
  const storage = (schema: string) =>
    query(
      `SELECT attstorage FROM pg_attribute WHERE attrelid = '${schema}.ctxwin_rows'::regclass AND attname = 'words'`,
    );

  /** Format 4's layout: the words may go out of line, and those of the two long rows do. */
  async function downgradeToFormatFour(schema: string): Promise<void> {
    await admin.query(
      `ALTER TABLE ${schema}.ctxwin_rows ALTER COLUMN words SET STORAGE EXTENDED,
       ALTER COLUMN words TYPE tsvector USING words || ''::tsvector`,
    );
    await admin.query(`UPDATE ${schema}.ctxwin_meta SET value = '4' WHERE name = 'format'`);
  }

  it("keeps each row's words in the row, as a new store does; rows read and search as before", async () => {
    await write("fresh");
    await write("old");
    await downgradeToFormatFour("old");
    expect((await outOfLine("old")).wordsOutOfLine).toEqual([2, 1]);
    expect((await outOfLine("fresh")).wordsOutOfLine).toEqual([]);
    const before = await rows("old");

    const store = openStore({ url: database.url, schema: "old" });
    try {
      const found = await store.search("s", { query: "lighthouse", mode: "ranked" });
      expect(found.hits.map((hit) => hit.row.seq)).toEqual([1, 2]);
      expect(
        (await store.search("other", { query: "harbour", mode: "literal" })).hits.map((hit) => hit.row.seq),
      ).toEqual([1]);
    } finally {
      await store.close();
    }
    expect(await query(`SELECT value FROM old.ctxwin_meta WHERE name = 'format'`)).toEqual([
      { value: String(POSTGRES_FORMAT_VERSION) },
    ]);
    expect(await storage("old")).toEqual([{ attstorage: "m" }]);
    expect(await storage("old")).toEqual(await storage("fresh"));
    expect(await rows("old")).toEqual(before);
    const migrated = await outOfLine("old");
    expect(migrated.wordsOutOfLine).toEqual([]);
    expect(migrated).toEqual(await outOfLine("fresh"));
  });

  it("a migration cut off while it rewrites the rows leaves format 4 whole; the next open migrates", async () => {
    await write("cut");
    await downgradeToFormatFour("cut");
    const before = await rows("cut");
    // Hold the table so the rewrite waits for it, then end the migrating connection as a crash would.
    await admin.query("BEGIN");
    await admin.query("LOCK TABLE cut.ctxwin_rows IN ACCESS SHARE MODE");
    const store = openStore({ url: database.url, schema: "cut" });
    const opening = store.lastSeq("s").then(
      () => "opened",
      () => "failed",
    );
    let rewriting: { pid: number } | undefined;
    while (rewriting === undefined) {
      // Inside a transaction the server's activity view is a snapshot: clear it before each look.
      await admin.query("SELECT pg_stat_clear_snapshot()");
      [rewriting] = await query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE query LIKE 'ALTER TABLE "cut".ctxwin_rows%' AND wait_event_type = 'Lock'`,
      );
      if (rewriting === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await admin.query("SELECT pg_terminate_backend($1)", [rewriting.pid]);
    await admin.query("COMMIT");
    expect(await opening).toBe("failed");
    await store.close();
    expect(await query(`SELECT value FROM cut.ctxwin_meta WHERE name = 'format'`)).toEqual([{ value: "4" }]);
    expect(await storage("cut")).toEqual([{ attstorage: "x" }]);
    expect(await rows("cut")).toEqual(before);
    expect((await outOfLine("cut")).wordsOutOfLine).toEqual([2, 1]);

    const reopened = openStore({ url: database.url, schema: "cut" });
    try {
      expect(await reopened.lastSeq("s")).toBe(2);
    } finally {
      await reopened.close();
    }
    expect(await storage("cut")).toEqual([{ attstorage: "m" }]);
    expect(await rows("cut")).toEqual(before);
    expect((await outOfLine("cut")).wordsOutOfLine).toEqual([]);
  });
});
