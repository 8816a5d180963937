/**
 * SQLite store format 6 → 7 (issue 30): a store written before lineage gets the lineage columns
 * on open; its sessions read as before, with no parent and no origin, and can be forked.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
import { STORE_FORMAT_VERSION } from "./schema.js";
import { temporaryDatabases } from "../test-support/temporary-database.js";

const temporaryDatabase = temporaryDatabases("ctxwin-lineage-migration-");

describe("SQLite store format 6 → 7", () => {
  it("adds the lineage columns to a store without them; its sessions read as before and fork", async () => {
    const file = temporaryDatabase();
    const store = openStore({ path: file });
    await store.append("s", [{ role: "user", parts: [{ type: "text", text: "before lineage" }] }]);
    await store.close();

    // Take the file back to the format before lineage: no lineage columns or indexes.
    const db = new Database(file);
    db.exec("DROP INDEX ctxwin_sessions_by_parent; DROP INDEX ctxwin_sessions_by_fork_origin;");
    for (const column of [
      "parent_session_id",
      "parent_item_id",
      "fork_of_session_id",
      "fork_at_seq",
      "inherited_window_count",
    ]) {
      db.exec(`ALTER TABLE ctxwin_sessions DROP COLUMN ${column}`);
    }
    db.pragma("user_version = 6");
    db.close();

    const reopened = openStore({ path: file });
    try {
      expect(await reopened.session("s")).toMatchObject({ sessionId: "s", lastSeq: 1, windowCount: 1 });
      expect((await reopened.session("s"))?.forkOf).toBeUndefined();
      await reopened.fork("s", { atSeq: 1, newSessionId: "f" });
      expect((await reopened.items("f")).rows.map((row) => row.parts)).toEqual([
        [{ type: "text", text: "before lineage" }],
      ]);
    } finally {
      await reopened.close();
    }
    const check = new Database(file, { readonly: true });
    expect(check.pragma("user_version", { simple: true })).toBe(STORE_FORMAT_VERSION);
    const columns = (
      check.prepare("SELECT name FROM pragma_table_info('ctxwin_sessions')").all() as { name: string }[]
    ).map((column) => column.name);
    expect(columns).toEqual(
      expect.arrayContaining([
        "parent_session_id",
        "parent_item_id",
        "fork_of_session_id",
        "fork_at_seq",
        "inherited_window_count",
      ]),
    );
    check.close();
  });
});
