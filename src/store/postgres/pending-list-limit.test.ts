/**
 * The store's GIN indexes keep a short pending list (ADR 0104): set on a new store, set on an
 * existing store's next writable open (its list emptied), left alone by a read-only open and by a
 * role that does not own the indexes.
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
import { databaseWithAdmin, postgresUnavailable, type TestDatabase } from "../test-support/postgres-database.js";
import { PENDING_LIST_LIMIT_KB } from "./pending-list-limit.js";

const limit = `gin_pending_list_limit=${PENDING_LIST_LIMIT_KB}`;
interface PlanNode {
  "Node Type": string;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}

/** The first node of `type` in an `EXPLAIN (FORMAT JSON)` plan. */
const findPlanNode = (node: PlanNode | undefined, type: string): PlanNode | undefined =>
  node === undefined
    ? undefined
    : node["Node Type"] === type
      ? node
      : (node.Plans ?? []).map((child) => findPlanNode(child, type)).find((found) => found !== undefined);

const row = (text: string) => ({ role: "user" as const, parts: [{ type: "text" as const, text }] });

describe.skipIf(postgresUnavailable !== "")("PostgreSQL GIN pending lists", () => {
  let database: TestDatabase;
  let admin: pg.Client;
  databaseWithAdmin((opened) => ({ database, admin } = opened));

  /** Each GIN index's storage parameters, by index name. */
  const options = async (schema: string) =>
    (
      await admin.query<{ name: string; options: string[] | null }>(
        `SELECT c.relname AS name, c.reloptions AS options FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_am a ON a.oid = c.relam
         WHERE n.nspname = $1 AND a.amname = 'gin' ORDER BY c.relname`,
        [schema],
      )
    ).rows;
  /** Drops the limit again, as a store written before ADR 0104 has its indexes. */
  const resetLimits = (schema: string) =>
    admin.query(
      `ALTER INDEX ${schema}.ctxwin_rows_literal RESET (gin_pending_list_limit);
       ALTER INDEX ${schema}.ctxwin_rows_words RESET (gin_pending_list_limit)`,
    );

  it("a new store's trigram and word indexes keep a pending list of at most the limit", async () => {
    const store = openStore({ url: database.url, schema: "fresh" });
    await store.append("s", [row("a short pending list")]);
    await store.close();
    expect(await options("fresh")).toEqual([
      { name: "ctxwin_rows_literal", options: [limit] },
      { name: "ctxwin_rows_words", options: [limit] },
    ]);
  });

  it("an existing store's indexes get the limit on the next writable open, not on a read-only one", async () => {
    const writer = openStore({ url: database.url, schema: "existing" });
    await writer.append("s", [row("written before the limit")]);
    await writer.close();
    await resetLimits("existing");
    const reader = openStore({ url: database.url, schema: "existing", readOnly: true });
    expect((await reader.search("s", { query: "before the limit", mode: "literal" })).hits).toHaveLength(1);
    await reader.close();
    expect((await options("existing")).map((index) => index.options)).toEqual([null, null]);

    const reopened = openStore({ url: database.url, schema: "existing" });
    expect((await reopened.search("s", { query: "before the limit", mode: "literal" })).hits).toHaveLength(1);
    await reopened.close();
    expect((await options("existing")).map((index) => index.options)).toEqual([[limit], [limit]]);
  });

  it("the next writable open moves an existing store's pending entries into its indexes", async () => {
    const schema = "pending";
    const writer = openStore({ url: database.url, schema });
    await writer.append("s", [row("first")]);
    // As before ADR 0104: the default limit (4 MB), no vacuum; the store stays open (no new open sets the limit).
    await resetLimits(schema);
    await admin.query(`ALTER TABLE ${schema}.ctxwin_rows SET (autovacuum_enabled = false)`);
    // 80 rows of ~2,000 distinct trigrams: ~2 MB of entries, which stay in the pending list.
    const hex = (seed: number) => createHash("sha256").update(String(seed)).digest("hex");
    await writer.append(
      "s",
      Array.from({ length: 80 }, (_, index) =>
        row(Array.from({ length: 30 }, (_, part) => hex(index * 30 + part)).join(" ")),
      ),
    );
    await writer.close();
    /** Buffers that pg_trgm's index reads for a phrase no row holds: its pending list, whole, and its tree. */
    const indexBuffers = async () => {
      await admin.query("BEGIN");
      try {
        // A table this small is otherwise scanned whole.
        await admin.query("SET LOCAL enable_seqscan = off");
        const result = await admin.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT 1 FROM ${schema}.ctxwin_rows WHERE literal_text LIKE '%zqxjw%'`,
        );
        const node = findPlanNode(result.rows[0]?.["QUERY PLAN"][0]?.Plan, "Bitmap Index Scan");
        return (node?.["Shared Hit Blocks"] ?? 0) + (node?.["Shared Read Blocks"] ?? 0);
      } finally {
        await admin.query("COMMIT");
      }
    };
    const before = await indexBuffers();
    expect(before).toBeGreaterThan(50);
    const reopened = openStore({ url: database.url, schema });
    expect((await reopened.search("s", { query: "first", mode: "literal" })).hits).toHaveLength(1);
    await reopened.close();
    expect(await indexBuffers()).toBeLessThan(before / 10);
  });

  it("a role that does not own the indexes opens the store and leaves them as they are", async () => {
    const role = `ctxwin_pending_${process.pid}`;
    const schema = "not_owned";
    const owner = openStore({ url: database.url, schema });
    await owner.append("s", [row("owned by another role")]);
    await owner.close();
    await resetLimits(schema);
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    try {
      await admin.query(
        `GRANT USAGE ON SCHEMA ${schema} TO ${role}; GRANT ALL ON ALL TABLES IN SCHEMA ${schema} TO ${role};
         GRANT ALL ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`,
      );
      const url = new URL(database.url);
      url.username = role;
      const guest = openStore({ url: url.toString(), schema });
      try {
        await guest.append("s", [row("written by a guest")]);
        expect((await guest.search("s", { query: "guest", mode: "literal" })).hits).toHaveLength(1);
      } finally {
        await guest.close();
      }
      expect((await options(schema)).map((index) => index.options)).toEqual([null, null]);
    } finally {
      await admin.query(`DROP OWNED BY ${role}; DROP ROLE ${role}`);
    }
  });
});
