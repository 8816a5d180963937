import { afterAll, beforeAll, describe } from "vitest";
import { describeStoreConformance } from "../conformance.js";
import { openStore } from "../open-store.js";
import { createTestDatabase, postgresUnavailable, type TestDatabase } from "../test-support/postgres-database.js";

describe.skipIf(postgresUnavailable !== "")("postgres backend", () => {
  let database: TestDatabase;
  let schemas = 0;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });
  // A fresh schema per case, in one database per file.
  describeStoreConformance("postgres", (context) => openStore({ url: database.url, schema: `case_${(schemas += 1)}`, ...context }));
});
