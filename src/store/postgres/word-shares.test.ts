import type pg from "pg";
import { describe, expect, it } from "vitest";
import type { RowInput } from "../../core/row.js";
import { openStore } from "../open-store.js";
import { databaseWithAdmin, postgresUnavailable, type TestDatabase } from "../test-support/postgres-database.js";
import { createWordShares } from "./word-shares.js";

const text = (value: string): RowInput => ({ role: "user", parts: [{ type: "text", text: value }] });

describe.skipIf(postgresUnavailable !== "")("word shares from the server's statistics", () => {
  // One client, ended before the database is dropped: a pool's `end` resolves before its clients'
  // sockets close, and the drop's termination then reached a closing client as an uncaught error.
  let database: TestDatabase;
  let client: pg.Client;
  databaseWithAdmin((opened) => ({ database, admin: client } = opened));

  async function storeWith(schema: string, rows: RowInput[]): Promise<void> {
    const store = openStore({ url: database.url, schema });
    try {
      if (rows.length > 0) await store.append("s", rows);
      else await store.lastSeq("s");
    } finally {
      await store.close();
    }
  }

  it("reads each frequent word's share of rows after ANALYZE, once per period", async () => {
    // The first 100 rows hold "ledger"; the 101st only in its context (ADR 0052): 101 of 400 rows.
    await storeWith(
      "shares_a",
      Array.from({ length: 400 }, (_unused, index) =>
        text(index < 100 ? `ledger entry ${index} settled` : `status report ${index}`),
      ),
    );
    await client.query("ANALYZE shares_a.ctxwin_rows");
    let clock = 0;
    const shares = createWordShares({ schema: "shares_a", ttlMs: 1_000, now: () => clock });
    const first = await shares(client);
    expect(first.shares.get("ledger")).toBeCloseTo(0.25, 2);
    expect(first.shares.get("report")).toBeCloseTo(0.75, 2);
    expect(first.tableRows).toBe(400);
    // Within the period the figures are not read again, even after the table changed.
    await client.query(
      "TRUNCATE shares_a.ctxwin_rows, shares_a.ctxwin_sessions, shares_a.ctxwin_windows, shares_a.ctxwin_operations",
    );
    await storeWith(
      "shares_a",
      Array.from({ length: 100 }, (_unused, index) => text(`ledger line ${index}`)),
    );
    await client.query("ANALYZE shares_a.ctxwin_rows");
    expect(await shares(client)).toBe(first);
    clock = 1_001;
    const later = await shares(client);
    expect(later.shares.get("ledger")).toBeCloseTo(1, 2);
    expect(later.shares.has("report")).toBe(false);
    expect(later.tableRows).toBe(100);
  });

  it("is empty for a table without statistics, and for another schema's table", async () => {
    await storeWith("shares_b", []);
    expect((await createWordShares({ schema: "shares_b" })(client)).shares.size).toBe(0);
    expect(await createWordShares({ schema: "no_such_schema" })(client)).toEqual({ shares: new Map(), tableRows: 0 });
  });
});
