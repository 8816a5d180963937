/**
 * PostgreSQL for tests: each test file gets a fresh database on the server of the run (see
 * test/postgres-server.ts), dropped when the file is done; a store opened on it may use its own
 * schema per test (`schema` option).
 */
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import type { RowInput } from "../../core/row.js";
import { openStore } from "../open-store.js";

/** Why the PostgreSQL tests cannot run here ("" when they can). */
export const postgresUnavailable = inject("postgresUnavailable");

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

let counter = 0;

/**
 * @example
 * const database = await createTestDatabase();
 * const store = openStore({ url: database.url, schema: "t1" });
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject("postgresUrl");
  if (serverUrl === "") throw new Error(postgresUnavailable);
  counter += 1;
  const name = `ctxwin_test_${process.pid}_${counter}_${Math.floor(Math.random() * 1e9)}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * Why PostgreSQL tests needing `extension` cannot run here ("" when they can). Under `CI=true` a
 * missing extension throws instead: CI builds pgvector (.ci/run), so its absence is a broken run.
 *
 * @example const pgvectorMissing = await extensionUnavailable("vector");
 */
export async function extensionUnavailable(extension: string): Promise<string> {
  if (postgresUnavailable !== "") return postgresUnavailable;
  const found = await withClient(inject("postgresUrl"), (client) =>
    client.query("SELECT 1 FROM pg_available_extensions WHERE name = $1", [extension]),
  );
  if (found.rowCount !== 0) return "";
  const reason = `the PostgreSQL server of the tests has no '${extension}' extension`;
  if (process.env["CI"] === "true")
    throw new Error(`${reason} (CI=true: .ci/run installs it, so a missing one fails the run)`);
  console.warn(`ctxwin tests: ${reason}; the tests needing it are skipped.`);
  return reason;
}

/**
 * A test database for the tests of the calling `describe`: created before them, given to
 * `onOpen`, dropped after them.
 *
 * @example
 * let database: TestDatabase;
 * withTestDatabase((created) => (database = created));
 */
export function withTestDatabase(onOpen: (database: TestDatabase) => void): void {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    onOpen(database);
  });
  afterAll(async () => {
    await database?.drop();
  });
}

/**
 * A test database and an admin client connected to it, for the tests of the calling `describe`:
 * created before them, given to `onOpen`, closed and dropped after them.
 *
 * @example
 * let database: TestDatabase;
 * let admin: pg.Client;
 * databaseWithAdmin((opened) => ({ database, admin } = opened));
 */
export function databaseWithAdmin(onOpen: (opened: { database: TestDatabase; admin: pg.Client }) => void): void {
  let opened: { database: TestDatabase; admin: pg.Client } | undefined;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    opened = { database, admin };
    onOpen(opened);
  });
  afterAll(async () => {
    await opened?.admin.end();
    await opened?.database.drop();
  });
}

/**
 * Appends each `[sessionId, rows]` of `appends` in order to `schema` through this build's store,
 * then closes it: the content a migration test then takes back to an older format.
 *
 * @example await writeSchema(database.url, "old", [["s", [text("a")]]]);
 */
export async function writeSchema(
  url: string,
  schema: string,
  appends: readonly (readonly [string, readonly RowInput[]])[],
): Promise<void> {
  const store = openStore({ url, schema });
  try {
    for (const [sessionId, rows] of appends) await store.append(sessionId, [...rows]);
  } finally {
    await store.close();
  }
}
