/**
 * Creates or migrates a store's schema on open. Runs in one transaction under a database-wide
 * advisory lock, so processes opening the same store at once create it once; a schema written by
 * a newer ctxwin, or a schema of the same name that is not ctxwin's, is refused before anything
 * is written to it.
 */
import type pg from "pg";
import { StoreFormatError } from "../errors.js";
import { POSTGRES_MIGRATIONS } from "./migrations.js";
import { limitPendingLists } from "./pending-list-limit.js";
import { POSTGRES_FORMAT_VERSION, schemaV1, tableNames } from "./schema.js";

/** Key of the advisory lock taken while a store's schema is checked or created ("ctxw"). */
const initializeLockKey = 0x63747877;

export interface InitializeResult {
  /** Literal search has a trigram index (pg_trgm is installed in the database). */
  trigramIndex: boolean;
}

/**
 * Runs inside a transaction of `client`. With `readOnly` the schema is only checked: a missing
 * store, or one of an older format that would need migrating, is refused and nothing is written.
 */
export async function initializeSchema(
  client: pg.PoolClient,
  schema: string,
  where: string,
  { readOnly = false }: { readOnly?: boolean } = {},
): Promise<InitializeResult> {
  const t = tableNames(schema);
  if (!readOnly) await client.query("SELECT pg_advisory_xact_lock($1)", [initializeLockKey]);
  const tables = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1",
    [schema],
  );
  const names = new Set(tables.rows.map((row) => row.name));
  let version: number;
  if (names.size === 0 && readOnly) {
    throw new StoreFormatError(
      where,
      `No ctxwin store in the schema '${schema}' on ${where} (a read-only open never creates one). Check the URL and its ?schema=.`,
    );
  }
  if (names.size === 0) {
    const operatorClass = await trigramOperatorClass(client);
    for (const statement of schemaV1(schema, operatorClass)) await client.query(statement);
    version = 1;
  } else {
    if (!names.has("ctxwin_meta")) {
      throw new StoreFormatError(
        where,
        `The schema '${schema}' on ${where} holds tables that are not a ctxwin store; it was left untouched. Pick another schema name (option 'schema').`,
      );
    }
    const meta = await client.query<{ name: string; value: string }>(`SELECT name, value FROM ${t.meta}`);
    const values = new Map(meta.rows.map((row) => [row.name, row.value]));
    version = Number(values.get("format"));
    if (values.get("application") !== "ctxwin" || !Number.isInteger(version) || version < 1) {
      throw new StoreFormatError(
        where,
        `The schema '${schema}' on ${where} is not a ctxwin store (no valid format marker); it was left untouched.`,
      );
    }
    if (version > POSTGRES_FORMAT_VERSION) {
      throw new StoreFormatError(
        where,
        `The schema '${schema}' on ${where} was written by a newer ctxwin (store format ${version}; ` +
          `this build reads up to ${POSTGRES_FORMAT_VERSION}). Upgrade ctxwin to open it; it was left untouched.`,
      );
    }
  }
  if (readOnly && version < POSTGRES_FORMAT_VERSION) {
    throw new StoreFormatError(
      where,
      `The schema '${schema}' on ${where} has store format ${version}; open it once without readOnly to migrate it to format ${POSTGRES_FORMAT_VERSION}.`,
    );
  }
  for (; version < POSTGRES_FORMAT_VERSION; version += 1) {
    const migration = POSTGRES_MIGRATIONS[version];
    if (migration === undefined)
      throw new StoreFormatError(
        where,
        `The schema '${schema}' on ${where} has store format ${version}, which this build cannot migrate.`,
      );
    if ("run" in migration) await migration.run(client, schema);
    else for (const statement of migration.statements(schema)) await client.query(statement);
    await client.query(`UPDATE ${t.meta} SET value = $1 WHERE name = 'format'`, [String(version + 1)]);
  }
  // Not a format change: a storage parameter of the indexes, set where it is missing (ADR 0104).
  if (!readOnly) await limitPendingLists(client, schema);
  const index = await client.query(
    "SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND indexname = 'ctxwin_rows_literal'",
    [schema],
  );
  return { trigramIndex: index.rowCount === 1 };
}

/**
 * The qualified `gin_trgm_ops` operator class, installing pg_trgm when it is available and this
 * user may install it (it is a trusted extension); undefined otherwise (ADR 0036).
 */
async function trigramOperatorClass(client: pg.PoolClient): Promise<string | undefined> {
  const available = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'");
  if (available.rowCount === 0) return undefined;
  await client.query("SAVEPOINT ctxwin_trgm");
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    await client.query("RELEASE SAVEPOINT ctxwin_trgm");
  } catch {
    // Not allowed to install it here: literal search works without the index (ADR 0036).
    await client.query("ROLLBACK TO SAVEPOINT ctxwin_trgm");
  }
  const located = await client.query<{ schema: string }>(
    "SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'",
  );
  const schema = located.rows[0]?.schema;
  return schema === undefined ? undefined : `"${schema}".gin_trgm_ops`;
}
