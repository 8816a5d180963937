import { describe, expect, it } from "vitest";
import { describeStoreConformance } from "../conformance.js";
import { StoreReadOnlyError } from "../errors.js";
import { openStore } from "../open-store.js";
import { withTestDatabase, postgresUnavailable, type TestDatabase } from "../test-support/postgres-database.js";

describe.skipIf(postgresUnavailable !== "")("postgres backend", () => {
  let database: TestDatabase;
  let schemas = 0;
  withTestDatabase((created) => (database = created));
  // A fresh schema per case, in one database per file.
  describeStoreConformance("postgres", (context) =>
    openStore({ url: database.url, schema: `case_${(schemas += 1)}`, ...context }),
  );

  it("a read-only store refuses attachParent and writes nothing", async () => {
    const writer = openStore({ url: database.url, schema: "read_only_attach" });
    await writer.append("parent", [{ role: "user", parts: [{ type: "text", text: "p" }] }]);
    await writer.append("child", [{ role: "user", parts: [{ type: "text", text: "c" }] }]);
    const reader = openStore({ url: database.url, schema: "read_only_attach", readOnly: true });
    try {
      const error = await reader
        .attachParent("child", { sessionId: "parent", itemId: "1" })
        .catch((caught: unknown) => caught);
      expect(StoreReadOnlyError.isInstance(error)).toBe(true);
      expect((await writer.session("child"))?.parent).toBeUndefined();
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});
