/**
 * Migrations of the PostgreSQL store's format (schema.ts writes format 1; initialize.ts runs these).
 */
import type pg from "pg";
import { addFilterTerms } from "./filter-terms.js";
import { addSessionLineage } from "./lineage-migration.js";
import { reindexHistoryLookups } from "./reindex-history-lookups.js";
import { tableNames } from "./schema.js";
import { addContextToWordIndex } from "./word-index-migration.js";
import { keepWordsInRows } from "./words-in-row-migration.js";

/**
 * `MIGRATIONS[n]` turns format n into n + 1, in the same transaction and under the same lock as
 * creation: statements, or a function for a migration that must read rows with this build's codec.
 * A new schema is created as format 1 and migrated up, so every store ends in the same schema.
 */
export type PostgresMigration =
  { statements: (schema: string) => string[] } | { run: (client: pg.PoolClient, schema: string) => Promise<void> };

export const POSTGRES_MIGRATIONS: Readonly<Record<number, PostgresMigration>> = {
  // 1 → 2: rows holding a history lookup are indexed without it (issue 27, ADR 0053).
  1: { run: reindexHistoryLookups },
  // 2 → 3: each row's words carry its context and term counts for BM25 (ADR 0052), rebuilt from
  // the rows; each searchable row's role and called tools become filter terms (ADR 0051).
  2: {
    run: async (client, schema) => {
      await addContextToWordIndex(client, schema);
      await addFilterTerms(client, tableNames(schema));
    },
  },
  // 3 → 4: sessions record their parent and fork origin (issue 30, ADR 0059).
  3: addSessionLineage,
  // 4 → 5: each row's words are kept in the row, not out of line (issue 51, ADR 0103).
  4: keepWordsInRows,
};
