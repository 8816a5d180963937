/**
 * Migrations of the PostgreSQL store format: `POSTGRES_MIGRATIONS[n]` turns format n into n + 1.
 * They run inside the opening transaction, under the same advisory lock as creation
 * (`initialize.ts`); a new schema is created at format 1 and migrated up, so every store ends in
 * the same schema, and a failure part-way leaves the old format whole.
 */
import type pg from "pg";
import { addContextToWordIndex } from "./word-index-migration.js";

export type PostgresMigration = (client: pg.PoolClient, schema: string) => Promise<void>;

export const POSTGRES_MIGRATIONS: Readonly<Record<number, PostgresMigration>> = {
  // 1 → 2: each row's words carry its context and term counts for BM25 (ADR 0052), rebuilt from the rows.
  1: addContextToWordIndex,
};
