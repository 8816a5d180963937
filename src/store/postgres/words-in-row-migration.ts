/**
 * PostgreSQL store format 4 → 5 (issue 51, ADR 0103): each row's `words` is kept in the row
 * (`STORAGE MAIN`) instead of out of line in the table's TOAST relation, so a search that tests
 * the words of the rows it walks, or reads its candidates' counts, reads the row's own page and
 * not three or four more of the TOAST relation and its index. Its text columns (`body`,
 * `literal_text`) go out of line instead when a row is long. Rows keep their values.
 *
 * The storage of a column applies to the values written after it is set: the table is written
 * again in the same statement, each vector a new copy of itself (`|| ''::tsvector` adds nothing),
 * and its indexes are built again from the new table (faster than updating every row's index
 * entries, and compact). One statement inside the opening transaction (`initialize.ts`), under an
 * exclusive lock of the table: a failure or a crash leaves format 4 whole. A large store takes a
 * while (100,000 rows of ~2,000 characters: docs/benchmarks.md), so it runs without the store's
 * statement timeouts.
 */
import type pg from "pg";
import type { PostgresMigration } from "./migrations.js";
import { tableNames } from "./schema.js";

/** Client-side limit of the rewrite: a day stands for none (node-postgres reads 0 as "the pool's"). */
const REWRITE_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export const keepWordsInRows: PostgresMigration = {
  run: async (client: pg.PoolClient, schema: string) => {
    const t = tableNames(schema);
    await client.query("SELECT set_config('statement_timeout', '0', true)");
    // node-postgres reads `query_timeout` of a query's config, though its types do not list it.
    const rewrite: pg.QueryConfig & { query_timeout: number } = {
      text: `ALTER TABLE ${t.rows} ALTER COLUMN words SET STORAGE MAIN,
             ALTER COLUMN words TYPE tsvector USING words || ''::tsvector`,
      query_timeout: REWRITE_TIMEOUT_MS,
    };
    await client.query(rewrite);
  },
};
