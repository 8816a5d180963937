import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { RowInput } from "../../core/row.js";
import { LITERAL_SCAN_LIMIT } from "../filtered-scan.js";
import {
  StoreConnectionLostError,
  StoreFormatError,
  StoreOptionsError,
  StoreTimeoutError,
  StoreUnavailableError,
} from "../errors.js";
import { openStore, type PostgresOpenOptions } from "../open-store.js";
import type { HistoryStore, StoreWarning } from "../port.js";
import { createTestDatabase, postgresUnavailable, type TestDatabase } from "../test-support/postgres-database.js";
import { POSTGRES_FORMAT_VERSION } from "./schema.js";
import { downgradeToFormatTwo } from "./test-support/format-two-schema.js";
import { appendThreeNeedles, expectSecondRowSkipped } from "../test-support/corrupt-row.js";
import { bashRow, LEDGER_FILTER_TERMS, ledgerRows } from "../test-support/ledger-rows.js";

const text = (value: string): RowInput => ({ role: "user", parts: [{ type: "text", text: value }] });
const textOf = (row: { parts: readonly unknown[] }) => (row.parts[0] as { text: string }).text;

describe.skipIf(postgresUnavailable !== "")("PostgreSQL store on a real server", () => {
  let database: TestDatabase;
  let admin: pg.Client;
  let schemas = 0;
  const opened: HistoryStore[] = [];
  const newSchema = () => `files_${(schemas += 1)}`;
  const open = (options: Partial<PostgresOpenOptions> = {}) => {
    const store = openStore({ url: database.url, ...options });
    opened.push(store);
    return store;
  };
  const query = async <T extends pg.QueryResultRow>(sql: string, values: unknown[] = []) =>
    (await admin.query<T>(sql, values)).rows;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    vi.unstubAllEnvs();
  });
  afterAll(async () => {
    await admin.end();
    await database.drop();
  });

  it("creates its schema with a format marker and a trigram index, and keeps rows across reopen", async () => {
    const schema = newSchema();
    const first = open({ schema });
    await first.append("s", [text("durable")]);
    await first.close();
    expect(await query(`SELECT name, value FROM ${schema}.ctxwin_meta ORDER BY name`)).toEqual([
      { name: "application", value: "ctxwin" },
      { name: "format", value: String(POSTGRES_FORMAT_VERSION) },
    ]);
    expect(
      await query("SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname = 'ctxwin_rows_literal'", [
        schema,
      ]),
    ).toHaveLength(1);
    const second = open({ schema });
    expect(textOf((await second.read("s", 1))!)).toBe("durable");
  });

  it("keeps projects apart by schema on one server", async () => {
    const left = open({ schema: newSchema() });
    const right = open({ schema: newSchema() });
    await left.append("s", [text("left only")]);
    expect(await right.lastSeq("s")).toBe(0);
    expect((await right.search("s", { query: "left", mode: "literal" })).hits).toEqual([]);
  });

  it("refuses a schema of a newer format, or one that is not ctxwin's, and leaves it untouched", async () => {
    const newer = newSchema();
    await open({ schema: newer }).append("s", [text("from the future")]);
    await query(`UPDATE ${newer}.ctxwin_meta SET value = $1 WHERE name = 'format'`, [
      String(POSTGRES_FORMAT_VERSION + 1),
    ]);
    const before = await query(`SELECT seq, body FROM ${newer}.ctxwin_rows ORDER BY seq`);
    const error = await open({ schema: newer })
      .append("s", [text("must not land")])
      .catch((caught: unknown) => caught);
    expect(StoreFormatError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(
      `newer ctxwin (store format ${POSTGRES_FORMAT_VERSION + 1}; this build reads up to ${POSTGRES_FORMAT_VERSION})`,
    );
    expect(await query(`SELECT seq, body FROM ${newer}.ctxwin_rows ORDER BY seq`)).toEqual(before);
    expect(await query(`SELECT value FROM ${newer}.ctxwin_meta WHERE name = 'format'`)).toEqual([
      { value: String(POSTGRES_FORMAT_VERSION + 1) },
    ]);

    const foreign = newSchema();
    await query(`CREATE SCHEMA ${foreign}; CREATE TABLE ${foreign}.accounts (id int)`);
    const refused = await open({ schema: foreign })
      .lastSeq("s")
      .catch((caught: unknown) => caught);
    expect(StoreFormatError.isInstance(refused)).toBe(true);
    expect(await query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1", [foreign])).toEqual([
      { table_name: "accounts" },
    ]);
  });

  it("migrates a format-2 schema on open: the filter terms are filled in from its rows (ADR 0051)", async () => {
    const schema = newSchema();
    const writer = open({ schema });
    await writer.append("s", ledgerRows("corrupt ledger"));
    await writer.append("t", [bashRow]);
    await writer.close();
    const terms =
      `SELECT s.session_id, f.term, f.seq FROM ${schema}.ctxwin_filter_terms f ` +
      `JOIN ${schema}.ctxwin_sessions s USING (session_key) ORDER BY 1, 2, 3`;
    const written = await query(terms);
    expect(written.map((entry) => Object.values(entry).join(" "))).toEqual(LEDGER_FILTER_TERMS);
    // What format 2 held: no terms table (nor the words' context); one row's JSON broken since.
    await downgradeToFormatTwo(admin, schema);
    await query(`UPDATE ${schema}.ctxwin_rows SET body = '{"broken' WHERE seq = 5`);
    const store = open({ schema, onWarning: () => {} });
    expect(
      (await store.search("s", { query: "ledger", mode: "literal", toolName: "read_file" })).hits.map(
        (hit) => hit.row.seq,
      ),
    ).toEqual([2]);
    expect(await query(`SELECT value FROM ${schema}.ctxwin_meta WHERE name = 'format'`)).toEqual([
      { value: String(POSTGRES_FORMAT_VERSION) },
    ]);
    expect(await query(terms)).toEqual(
      written.filter((entry) => !(entry["session_id"] === "s" && entry["seq"] === "5")),
    );
    expect(
      (await store.search("s", { query: "ledger", mode: "literal", role: "system" })).hits.map((hit) => hit.row.seq),
    ).toEqual([4]);
  });

  it("skips a row whose stored JSON is corrupt, with a warning and a count, on every read path", async () => {
    const schema = newSchema();
    const warnings: StoreWarning[] = [];
    const store = open({ schema, onWarning: (warning) => warnings.push(warning) });
    await appendThreeNeedles(store);
    await query(`UPDATE ${schema}.ctxwin_rows SET body = $1 WHERE seq = 2`, ['{"id": "broken", "role": "us']);
    await expectSecondRowSkipped(store);
    expect(store.diagnostics().corruptRowsSkipped).toBe(5);
    expect(warnings[0]).toMatchObject({ code: "corrupt-row", sessionId: "s", seq: 2 });
  });

  it("keeps seq gap-free when many connections and several first openers append at once", async () => {
    const schema = newSchema();
    const stores = Array.from({ length: 4 }, () => open({ schema, maxConnections: 5 }));
    const writes = stores.flatMap((store, storeIndex) =>
      Array.from({ length: 10 }, (_, index) =>
        store.append("busy", [text(`${storeIndex}-${index}-a`), text(`${storeIndex}-${index}-b`)]),
      ),
    );
    const results = await Promise.all(writes);
    for (const rows of results) expect(rows[1]!.seq).toBe(rows[0]!.seq + 1);
    const { rows } = await stores[0]!.items("busy", { limit: 1000 });
    expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 80 }, (_, index) => index + 1));
  });

  it("stores text with NUL characters and finds the text around them", async () => {
    const store = open({ schema: newSchema() });
    await store.append("s", [text("lantern\u0000harbour")]);
    expect(textOf((await store.read("s", 1))!)).toBe("lantern\u0000harbour");
    expect((await store.search("s", { query: "lantern", mode: "literal" })).hits).toHaveLength(1);
    // ("after" alone, a stop word, is no ranked query: ADR 0051.)
    expect((await store.search("s", { query: "harbour", mode: "ranked" })).hits).toHaveLength(1);
  });

  it("CTXWIN_DATABASE_URL selects the server when no store is named, and an explicit path still wins", async () => {
    const url = new URL(database.url);
    vi.stubEnv("CTXWIN_DATABASE_URL", url.toString());
    const fromEnvironment = openStore({ directory: "/nonexistent/project" });
    opened.push(fromEnvironment);
    expect(fromEnvironment.backend).toBe("postgres");
    await fromEnvironment.append("env", [text("via environment")]);
    expect(await query("SELECT count(*)::int AS count FROM ctxwin.ctxwin_rows")).toEqual([{ count: 1 }]);
    const memory = openStore({ backend: "memory" });
    expect(memory.backend).toBe("memory");
    await memory.close();
  });

  it("a server that cannot be reached is a StoreUnavailableError, and TLS options reach the driver", async () => {
    const down = open({ url: "postgres://postgres@127.0.0.1:1/none", connectTimeoutMs: 2_000 });
    const error = await down.lastSeq("s").catch((caught: unknown) => caught);
    expect(StoreUnavailableError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /Cannot connect to the PostgreSQL server at postgres:\/\/postgres@127\.0\.0\.1:1\/none/,
    );
    // The test server speaks no TLS: asking for it fails the connection, as the driver reports.
    const tls = await open({ schema: newSchema(), ssl: { rejectUnauthorized: false } })
      .lastSeq("s")
      .catch((caught: unknown) => caught);
    expect(StoreUnavailableError.isInstance(tls)).toBe(true);
    expect((tls as Error).message).toMatch(/SSL/);
  });

  it("literal search reads the newest rows one by one, then older ones by the plan their matches call for, losing no row at the seam", async () => {
    const store = open({ schema: newSchema() });
    // 300 rows; the walk covers the newest 100 (201–300), where only row 201 holds "kestrel": the
    // older rows then come from the trigram index. "common" is in every row: the walk goes on.
    const rare = new Set([201, 200, 199, 150, 10]);
    await store.append(
      "s",
      Array.from({ length: 300 }, (_unused, index) =>
        text(`${rare.has(index + 1) ? "kestrel" : "filler"} common ${index + 1}`),
      ),
    );
    const seqs = async (query: string, limit: number, offset = 0) =>
      (await store.search("s", { query, mode: "literal", limit, offset })).hits.map((hit) => hit.row.seq);
    expect(await seqs("kestrel", 10)).toEqual([201, 200, 199, 150, 10]);
    expect(await seqs("kestrel", 2, 1)).toEqual([200, 199]);
    const all = await seqs("common", 250);
    expect([all.length, all[0], all[99], all[100], all.at(-1)]).toEqual([250, 300, 201, 200, 51]);
    expect(await store.search("s", { query: "kestrel", mode: "literal", role: "user" })).toMatchObject({
      hits: [{}, {}, {}, {}, {}],
    });
  });

  it("a literal query the trigram index cannot serve tests at most LITERAL_SCAN_LIMIT rows a call, then says where to resume (ADR 0051)", async () => {
    const store = open({ schema: newSchema() });
    const fillers = Array.from({ length: LITERAL_SCAN_LIMIT + 150 }, (_, index) => text(`plain row ${index}`));
    await store.append("s", [text("the ~~ marker"), ...fillers]);
    const newest = LITERAL_SCAN_LIMIT + 151;
    for (const query of ["~~", "zq", "?!"]) {
      const first = await store.search("s", { query, mode: "literal" });
      expect([query, first.hits, first.hasMore, first.resumeBeforeSeq]).toEqual([
        query,
        [],
        true,
        newest - LITERAL_SCAN_LIMIT + 1,
      ]);
      const second = await store.search("s", { query, mode: "literal", beforeSeq: first.resumeBeforeSeq! });
      expect([query, second.hits.map((hit) => hit.row.seq), second.hasMore]).toEqual([
        query,
        query === "~~" ? [1] : [],
        false,
      ]);
    }
    // A filtered search stops at the same place when its rows come from the walk.
    const filtered = await store.search("s", { query: "~~", mode: "literal", role: "user" });
    expect([filtered.hits, filtered.resumeBeforeSeq]).toEqual([[], newest - LITERAL_SCAN_LIMIT + 1]);
  });

  it("ranked search counts a word rare in this session but common in the table exactly (ADR 0036)", async () => {
    const schema = newSchema();
    const store = open({ schema });
    // "ledger" is in most of the table's rows (another session), so its count starts with a
    // bounded walk of this session's newest rows, which hold none of its 10 rows: the word index
    // must count the rest. Counted right (10 + 495 > 500), only "ledger" is kept (ADR 0016): its
    // rows, and the row after the last of them (its context holds the word, ADR 0052).
    for (let start = 0; start < 15_000; start += 5_000) {
      await store.append(
        "other",
        Array.from({ length: 5_000 }, (_unused, index) =>
          text(`ledger line ${start + index}${index % 5 < 2 ? " quill" : ""}`),
        ),
      );
    }
    await store.append(
      "s",
      Array.from({ length: 3_000 }, (_unused, index) =>
        text(
          index < 10 ? `ledger ${index}` : index % 6 === 0 && index <= 2_970 ? `kestrel ${index}` : `filler ${index}`,
        ),
      ),
    );
    await query(`ANALYZE ${schema}.ctxwin_rows`);
    const page = await store.search("s", { query: "ledger kestrel", mode: "ranked", limit: 20 });
    expect(page.hits.map((hit) => hit.row.seq).sort((left, right) => left - right)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
    ]);
  });

  it("ranked search reads the newest rows of a word past the cap by the plan its share calls for, with the same results (ADR 0036)", async () => {
    const schema = newSchema();
    const store = open({ schema });
    const memory = openStore({ backend: "memory" });
    opened.push(memory);
    // "line" is in every row of the table, so its newest rows come from a walk; "ledger" is in
    // most of the table's rows but in a tenth of this session's (itself or in the row before), so
    // a walk bounded by its share finds too few and the word index lists them; "plan", in a fifth
    // of this session's rows and no other, comes from the word index at once. "kestrel" is in no
    // row: each query keeps both words (nothing rarer matches), and the one word that matches has
    // more rows than the cap.
    for (let start = 0; start < 15_000; start += 5_000) {
      await store.append(
        "other",
        Array.from({ length: 5_000 }, (_unused, index) =>
          text(`ledger line ${start + index}${index % 5 < 2 ? " quill" : ""}`),
        ),
      );
    }
    const rows = Array.from({ length: 6_000 }, (_unused, index) =>
      text(
        `line ${index}${index % 10 === 0 ? " plan" : ""}${index % 20 === 5 ? " ledger" : ""}${index % 5 < 2 ? " quill" : ""}`,
      ),
    );
    for (let start = 0; start < rows.length; start += 2_000) {
      await store.append("s", rows.slice(start, start + 2_000));
      await memory.append("s", rows.slice(start, start + 2_000));
    }
    await query(`ANALYZE ${schema}.ctxwin_rows`);
    // The statements each search sends: a range count of "line" walks the newest rows below the
    // session's last one (a search has no upper bound; a walk down from it would find nothing).
    const sent: unknown[][] = [];
    const send = pg.Client.prototype.query;
    vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      if (typeof args[0] === "string" && Array.isArray(args[1])) sent.push([args[0], ...args[1]]);
      return (send as (...given: unknown[]) => unknown).apply(this, args);
    } as typeof send);
    for (const word of ["plan", "line", "ledger", "quill"]) {
      for (const offset of [0, 480]) {
        const search = { query: `kestrel ${word}`, mode: "ranked", limit: 40, offset } as const;
        const [found, expected] = await Promise.all([store.search("s", search), memory.search("s", search)]);
        expect([word, offset, found.hits.map((hit) => hit.row.seq), found.hasMore]).toEqual([
          word,
          offset,
          expected.hits.map((hit) => hit.row.seq),
          expected.hasMore,
        ]);
      }
    }
    vi.restoreAllMocks();
    // That walk reads the newest rows first, so it also says how far back the cap reaches: the
    // estimate of "line"'s rows in the session takes it, with no second walk (one per search of
    // "kestrel line", ADR 0095).
    const walksOfLine = sent.filter(
      ([statement, , low, high, words]) =>
        String(statement).includes("AS oldest") &&
        Number(low) > 0 &&
        Number(high) === 6_001 &&
        String(words) === "line",
    );
    expect(walksOfLine.map(([statement]) => String(statement).includes("min(seq) AS oldest"))).toEqual([true, true]);
    // "quill", in 40% of the rows, is too common to list whole and too rare to walk: its newest
    // rows (the estimate, the candidates) are asked of the word index for the newest span first.
    const newestOfQuill = sent.filter(
      ([statement, , low, , words]) =>
        String(statement).includes("min(seq) AS oldest") && Number(low) > 0 && String(words) === "quill",
    );
    expect(newestOfQuill.length).toBeGreaterThan(0);
  });

  it("openStore refuses a malformed url or schema name", () => {
    for (const options of [
      { url: "mysql://x" },
      { url: database.url, schema: "Bad-Name" },
      { url: database.url, schema: "pg_catalog" },
    ]) {
      expect(() => openStore(options)).toThrow(expect.objectContaining({ name: StoreOptionsError.errorName }));
    }
  });

  describe("a writer blocked by a lock another connection holds", () => {
    /** A store on a new schema whose session "s" holds one row. */
    const storeWithOneRow = async (statementTimeoutMs: number) => {
      const schema = newSchema();
      const store = open({ schema, statementTimeoutMs });
      await store.append("s", [text("first")]);
      return { schema, store };
    };
    /** Runs `during` while another connection holds the lock on session "s" of `schema`; then releases it. */
    const whileSessionLocked = async (schema: string, during: () => Promise<void>) => {
      const holder = new pg.Client({ connectionString: database.url });
      await holder.connect();
      await holder.query("BEGIN");
      await holder.query(`SELECT * FROM ${schema}.ctxwin_sessions WHERE session_id = 's' FOR UPDATE`);
      try {
        await during();
      } finally {
        await holder.query("ROLLBACK");
        await holder.end();
      }
    };
    const waitUntilBlocked = async () => {
      for (;;) {
        const waiting = await query(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        if (waiting.length > 0) return waiting[0] as { pid: number };
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    it("gets a StoreTimeoutError past the statement timeout, and nothing is written", async () => {
      const { schema, store } = await storeWithOneRow(300);
      await whileSessionLocked(schema, async () => {
        const error = await store.append("s", [text("blocked")]).catch((caught: unknown) => caught);
        expect(StoreTimeoutError.isInstance(error)).toBe(true);
      });
      expect(await store.lastSeq("s")).toBe(1);
    });

    it("gets a StoreConnectionLostError when its connection dies mid-append; a retry with the operationId writes once", async () => {
      const { schema, store } = await storeWithOneRow(0);
      await whileSessionLocked(schema, async () => {
        const pending = store
          .append("s", [text("a"), text("b")], { operationId: "op-lost" })
          .catch((caught: unknown) => caught);
        const { pid } = await waitUntilBlocked();
        await query("SELECT pg_terminate_backend($1)", [pid]);
        const error = await pending;
        expect(StoreConnectionLostError.isInstance(error)).toBe(true);
        expect((error as Error).message).toMatch(
          /either committed entirely or not at all; retry it with the same operationId/,
        );
      });
      const retried = await store.append("s", [text("a"), text("b")], { operationId: "op-lost" });
      expect(retried.map((row) => row.seq)).toEqual([2, 3]);
      expect(await store.append("s", [text("a"), text("b")], { operationId: "op-lost" })).toEqual(retried);
      expect(await store.lastSeq("s")).toBe(3);
    });
  });
});
