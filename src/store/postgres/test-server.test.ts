import pg from "pg";
import { describe, expect, it } from "vitest";
import { withTestDatabase, postgresUnavailable, type TestDatabase } from "../test-support/postgres-database.js";

describe.skipIf(postgresUnavailable !== "")("the tests' PostgreSQL server", () => {
  let database: TestDatabase;
  withTestDatabase((created) => (database = created));

  it("answers in a fresh database of this file, with pg_trgm available", async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const result = await client.query<{ tables: string; trgm: string }>(
        "SELECT (SELECT count(*) FROM pg_tables WHERE schemaname = 'public') AS tables, " +
          "(SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_trgm') AS trgm",
      );
      expect(result.rows[0]).toEqual({ tables: "0", trgm: "1" });
    } finally {
      await client.end();
    }
  });
});
