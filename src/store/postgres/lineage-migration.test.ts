/**
 * PostgreSQL store format 3 → 4 (issue 30): a schema written before lineage gets the lineage
 * columns on open; its sessions read as before and can be forked.
 */
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
import {
  databaseWithAdmin,
  postgresUnavailable,
  type TestDatabase,
  writeSchema,
} from "../test-support/postgres-database.js";
import { POSTGRES_FORMAT_VERSION } from "./schema.js";

describe.skipIf(postgresUnavailable !== "")("PostgreSQL store format 3 → 4", () => {
  let database: TestDatabase;
  let admin: pg.Client;
  databaseWithAdmin((opened) => ({ database, admin } = opened));

  it("adds the lineage columns to a schema without them; its sessions read as before and fork", async () => {
    const schema = "lineage_migration";
    await writeSchema(database.url, schema, [
      ["s", [{ role: "user", parts: [{ type: "text", text: "before lineage" }] }]],
    ]);
    await admin.query(
      `ALTER TABLE ${schema}.ctxwin_sessions DROP COLUMN parent_session_id, DROP COLUMN parent_item_id, DROP COLUMN fork_of_session_id,
       DROP COLUMN fork_at_seq, DROP COLUMN inherited_window_count`,
    );
    await admin.query(`UPDATE ${schema}.ctxwin_meta SET value = '3' WHERE name = 'format'`);

    const reopened = openStore({ url: database.url, schema });
    try {
      expect(await reopened.session("s")).toMatchObject({ sessionId: "s", lastSeq: 1, windowCount: 1 });
      await reopened.fork("s", { atSeq: 1, newSessionId: "f" });
      expect((await reopened.items("f")).rows.map((row) => row.parts)).toEqual([
        [{ type: "text", text: "before lineage" }],
      ]);
    } finally {
      await reopened.close();
    }
    expect((await admin.query(`SELECT value FROM ${schema}.ctxwin_meta WHERE name = 'format'`)).rows).toEqual([
      { value: String(POSTGRES_FORMAT_VERSION) },
    ]);
  });
});
