/**
 * PostgreSQL store format 2 → 3 (ADR 0051, 0052): a schema written by a format-2 build (main
 * before issue 27's search parts) is migrated on its first writable open to exactly what this
 * build's appends write: each row's words with its context and term count, each session's indexed
 * rows and terms, and each indexed row's filter terms. A format-1 schema takes the same way after
 * the 1 → 2 step.
 */
import type pg from "pg";
import { describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import { StoreFormatError } from "../errors.js";
import { historyLookup, text } from "../test-support/conformance-rows.js";
import { openStore } from "../open-store.js";
import {
  databaseWithAdmin,
  postgresUnavailable,
  type TestDatabase,
  writeSchema,
} from "../test-support/postgres-database.js";
import { POSTGRES_FORMAT_VERSION } from "./schema.js";
import { downgradeToFormatTwo } from "./test-support/format-two-schema.js";

const reset: RowInput = { role: "assistant", parts: [], boundary: { kind: "reset" } };
const lookup = historyLookup("append");
const hidden: RowInput = { ...text("hidden"), synthetic: true, uiVisible: false, meta: { type: "continue" } };

describe.skipIf(postgresUnavailable !== "")("PostgreSQL store format migrations", () => {
  let database: TestDatabase;
  let admin: pg.Client;
  const query = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
    (await admin.query<T>(sql, values)).rows;

  databaseWithAdmin((opened) => ({ database, admin } = opened));

  const write = (schema: string, appends: readonly [string, RowInput[]][]) =>
    writeSchema(database.url, schema, appends);

  const index = (schema: string) =>
    query<{ entry: string }>(
      `SELECT s.session_id || '#' || r.seq || ' ' || coalesce(r.words::text, '-') || ' ' || r.word_count AS entry
       FROM ${schema}.ctxwin_rows r JOIN ${schema}.ctxwin_sessions s USING (session_key) ORDER BY s.session_id, r.seq`,
    );
  const filterTerms = (schema: string) =>
    query(
      `SELECT s.session_id, f.term, f.seq FROM ${schema}.ctxwin_filter_terms f JOIN ${schema}.ctxwin_sessions s USING (session_key) ORDER BY 1, 2, 3`,
    );
  const counters = (schema: string) =>
    query(`SELECT session_id, indexed_rows, indexed_terms FROM ${schema}.ctxwin_sessions ORDER BY session_id`);

  it.each([2, 1] as const)(
    "opens a format-%i schema and rebuilds each row's words with its context and its filter terms: what appends write",
    async (format) => {
      const old = `format_${format}`;
      const fresh = `fresh_${format}`;
      const appends: [string, RowInput[]][] = [
        ["s", [text("How often do you work out with your family?"), text("Three times a week; it keeps us on track.")]],
        ["other", [text("painting classes on Tuesdays"), hidden, text("after a hidden row")]],
        ["s", Array.from({ length: 600 }, (_unused, item) => text(`routine progress note ${item}`))],
        [
          "other",
          [
            text("the next append"),
            lookup,
            {
              role: "assistant",
              parts: [{ type: "tool-bash", toolCallId: "b1", state: "input-available", input: { command: "ls" } }],
            },
          ],
        ],
        ["s", [reset, text("after the reset")]],
      ];
      await write(old, appends);
      await write(fresh, appends);
      await downgradeToFormatTwo(admin, old, { format });
      await expect(openStore({ url: database.url, schema: old, readOnly: true }).lastSeq("s")).rejects.toSatisfy(
        (error: unknown) => StoreFormatError.isInstance(error),
      );

      const store = openStore({ url: database.url, schema: old });
      try {
        const seqs = async (search: string) =>
          (await store.search("s", { query: search, mode: "ranked", includeCleared: true })).hits.map(
            (hit) => hit.row.seq,
          );
        // The reply is found by the words of the question it answers.
        expect(await seqs("How often do they work out?")).toEqual([1, 2]);
      } finally {
        await store.close();
      }
      expect(await query(`SELECT value FROM ${old}.ctxwin_meta WHERE name = 'format'`)).toEqual([
        { value: String(POSTGRES_FORMAT_VERSION) },
      ]);
      const migrated = await index(old);
      expect(migrated).toEqual(await index(fresh));
      expect(await counters(old)).toEqual(await counters(fresh));
      expect(await filterTerms(old)).toEqual(await filterTerms(fresh));
      // Filter terms for indexed rows only: not the hidden row (other#2) nor the history lookup (other#5).
      expect(
        (await filterTerms(old))
          .filter((entry) => entry["session_id"] === "other")
          .map((entry) => `${entry["term"]} ${entry["seq"]}`),
      ).toEqual(["role:assistant 6", "role:user 1", "role:user 3", "role:user 4", "tool:bash 6"]);
      // Own terms labelled A, context terms B; no context across the reset or the hidden row.
      expect(migrated.find((row) => row.entry.startsWith("s#2 "))?.entry).toMatch(/'often':\d+B/);
      expect(migrated.filter((row) => /^(s#604|other#3) .*\d+B/.test(row.entry))).toEqual([]);
      expect(migrated.find((row) => row.entry.startsWith("other#4 "))?.entry).toBe(
        "other#4 'a':5B 'after':4B 'append':3A 'hidden':6B 'next':2A 'row':7B 'the':1A 7",
      );
    },
  );
});
