/**
 * Migrations of the PostgreSQL store's format (schema.ts writes format 1; initialize.ts runs these).
 */
import type pg from "pg";
import { addSessionLineage } from "./lineage-migration.js";
import { reindexHistoryLookups } from "./reindex-history-lookups.js";

/**
 * `MIGRATIONS[n]` turns format n into n + 1, in the same transaction and under the same lock as
 * creation: statements, or a function for a migration that must read rows with this build's codec.
 */
export type PostgresMigration = { statements: (schema: string) => string[] } | { run: (client: pg.PoolClient, schema: string) => Promise<void> };

export const POSTGRES_MIGRATIONS: Readonly<Record<number, PostgresMigration>> = {
  // 1 → 2: rows holding a history lookup are indexed without it (issue 27).
  1: { run: reindexHistoryLookups },
  // 2 → 3: reserved for the search-index change developed on another branch; nothing to do in
  // this one. On merge that step takes this key and the lineage step below follows it.
  2: { statements: () => [] },
  // 3 → 4: sessions record their parent and fork origin (issue 30, ADR 0059).
  3: addSessionLineage,
};
