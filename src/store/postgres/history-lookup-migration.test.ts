/**
 * PostgreSQL store format 1 → 2 (issue 27): a schema written before lookups were left out of
 * search holds each history lookup's text in both search columns; opening it rewrites those rows'
 * columns, and search stops returning them while every other row stays found.
 */
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { renderRowText } from "../../core/row-text.js";
import type { RowInput } from "../../core/row.js";
import { foldCase, rankedTerms } from "../../core/search-query.js";
import { openStore } from "../open-store.js";
import { historyLookup, text } from "../test-support/conformance-rows.js";
import {
  databaseWithAdmin,
  postgresUnavailable,
  type TestDatabase,
  writeSchema,
} from "../test-support/postgres-database.js";
import { POSTGRES_FORMAT_VERSION } from "./schema.js";
import { downgradeToFormatTwo, formatTwoVector } from "./test-support/format-two-schema.js";

const rows: RowInput[] = [
  text("The codename is PELICAN-77."),
  historyLookup("PELICAN-77", { toolName: "mcp__ctxwin__session_history", toolCallId: "c1" }),
];

describe.skipIf(postgresUnavailable !== "")("PostgreSQL store format 1 → 2", () => {
  let database: TestDatabase;
  let admin: pg.Client;
  databaseWithAdmin((opened) => ({ database, admin } = opened));

  it("rewrites the search columns of rows holding a history lookup", async () => {
    const schema = "lookup_migration";
    await writeSchema(database.url, schema, [["s", rows]]);
    // Write the columns as format 1 did: the lookup's call and query included.
    await downgradeToFormatTwo(admin, schema, { format: 1 });
    const oldText = renderRowText(rows[1]!);
    await admin.query(`UPDATE ${schema}.ctxwin_rows SET literal_text = $1, words = $2::tsvector WHERE seq = 2`, [
      foldCase(oldText),
      formatTwoVector(rankedTerms(oldText)),
    ]);

    const reopened = openStore({ url: database.url, schema });
    try {
      for (const mode of ["literal", "ranked"] as const) {
        expect((await reopened.search("s", { query: "PELICAN-77", mode })).hits.map((hit) => hit.row.seq)).toEqual([1]);
      }
    } finally {
      await reopened.close();
    }
    expect((await admin.query(`SELECT value FROM ${schema}.ctxwin_meta WHERE name = 'format'`)).rows).toEqual([
      { value: String(POSTGRES_FORMAT_VERSION) },
    ]);
    expect((await admin.query(`SELECT literal_text, words FROM ${schema}.ctxwin_rows WHERE seq = 2`)).rows).toEqual([
      { literal_text: null, words: null },
    ]);
  });
});
