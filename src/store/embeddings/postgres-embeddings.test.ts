import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../open-store.js";
import { describeEmbeddingConformance } from "../test-support/conformance-embeddings.js";
import { describeManySessionEmbeddingCase } from "../test-support/conformance-embeddings-sessions.js";
import { reply, text } from "../test-support/conformance-rows.js";
import {
  createTestDatabase,
  extensionUnavailable,
  withTestDatabase,
  type TestDatabase,
} from "../test-support/postgres-database.js";
import { createSeededRandom } from "../test-support/seeded-random.js";
import { createSynonymEmbeddingModel } from "../test-support/synonym-embedding-model.js";
import { describeEmbeddingStatus } from "./embedding-status.js";
import { postgresEmbeddingStatus } from "./postgres-embedding-status.js";
import { createPostgresVectorIndex } from "./postgres-vector-index.js";
import { cosineSimilarity } from "./vector-index.js";

/** Why these tests cannot run here: no server, or a server without pgvector (a failure under CI=true). */
const pgvectorMissing = await extensionUnavailable("vector");
const quiet = { retryDelaysMs: [0], onWarning: () => undefined };

describe.skipIf(pgvectorMissing !== "")(
  `embeddings on PostgreSQL with pgvector${pgvectorMissing === "" ? "" : ` (skipped: ${pgvectorMissing})`}`,
  () => {
    let database: TestDatabase;
    let schemas = 0;
    withTestDatabase((created) => (database = created));
    const nextSchema = () => `embed_${(schemas += 1)}`;

    describeEmbeddingConformance("postgres", (embeddings) =>
      openStore({ url: database.url, schema: nextSchema(), embeddings }),
    );

    it("keeps vectors in an HNSW-indexed table, across a reopen and a read-only open", async () => {
      const schema = nextSchema();
      const model = createSynonymEmbeddingModel();
      const first = openStore({ url: database.url, schema, embeddings: { model, ...quiet } });
      await first.append("s", [text("We'll keep OAuth with PKCE for sign-in."), reply("noted")]);
      await first.embeddings?.idle();
      expect(first.diagnostics().embeddings).toMatchObject({ index: "pgvector", dimensions: 64, embeddedRows: 2 });
      await first.close();

      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const indexes = await client.query<{ indexdef: string }>(
        "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE '%hnsw%'",
        [schema],
      );
      await client.end();
      expect(indexes.rows.map((row) => row.indexdef).join("\n")).toMatch(
        /USING hnsw \(embedding .*vector_cosine_ops\)/,
      );

      const reader = openStore({ url: database.url, schema, readOnly: true, embeddings: { model, ...quiet } });
      const page = await reader.search("s", { query: "login approach", mode: "semantic", limit: 1 });
      expect(page.hits[0]?.row.seq).toBe(1);
      expect(page.embeddings).toMatchObject({ status: "used", pendingRows: 0, dimensions: 64 });
      await expect(reader.embeddings?.backfill()).rejects.toThrow(/read-only/);
      await reader.close();

      const resized = openStore({
        url: database.url,
        schema,
        embeddings: { model: createSynonymEmbeddingModel({ dimensions: 32 }), ...quiet },
      });
      // A query vector of another dimension falls back to word search, saying why (issue 46).
      const fallback = await resized.search("s", { query: "login", mode: "hybrid" });
      expect(fallback.embeddings).toMatchObject({ status: "unavailable", dimensions: 64 });
      expect(fallback.embeddings?.message).toMatch(/query's vector has 32 dimensions/);
      await resized.close();
    });

    it("stores a model's last failure for other processes (doctor's status), and clears it once the model embeds again", async () => {
      const schema = nextSchema();
      const failing = createSynonymEmbeddingModel({
        fault: () => {
          throw new Error("401 Incorrect API key provided");
        },
      });
      const broken = openStore({ url: database.url, schema, embeddings: { model: failing, ...quiet } });
      await broken.append("s", [text("OAuth sign-in"), reply("noted")]);
      await broken.embeddings?.idle();
      await broken.close();
      const index = createPostgresVectorIndex({
        url: database.url,
        schema,
        connectTimeoutMs: 10_000,
        statementTimeoutMs: 60_000,
        queryTimeoutMs: 65_000,
      });
      try {
        expect(await index.lastFailure?.("test:synonyms-64")).toMatchObject({
          message: expect.stringMatching(/401 Incorrect API key provided/),
          consecutive: 2,
        });
        const failed = await postgresEmbeddingStatus({ url: database.url, schema });
        expect(failed).toMatchObject({
          vectors: false,
          models: [{ model: "test:synonyms-64", embeddedRows: 0, pendingRows: 2, lastFailure: { consecutive: 2 } }],
        });
        expect(describeEmbeddingStatus(failed).join("\n")).toMatch(
          /test:synonyms-64 \(no vectors yet\): 0 row\(s\) embedded.*2 row\(s\) pending\.\n.*401 Incorrect API key/s,
        );
        const fixed = openStore({
          url: database.url,
          schema,
          embeddings: { model: createSynonymEmbeddingModel(), ...quiet },
        });
        await fixed.append("s", [text("again")]);
        await fixed.embeddings?.idle();
        expect(await fixed.embeddings?.pendingRows("s")).toBe(0);
        await fixed.close();
        expect(await index.lastFailure?.("test:synonyms-64")).toBeUndefined();
        const healthy = await postgresEmbeddingStatus({ url: database.url, schema });
        expect(healthy).toMatchObject({
          vectors: true,
          index: "pgvector",
          extensionVersion: expect.stringMatching(/^\d+\.\d+/),
        });
        expect(healthy.models).toEqual([
          { model: "test:synonyms-64", dimensions: 64, embeddedRows: 3, vectors: 3, pendingRows: 0, search: "hnsw" },
        ]);
        expect(describeEmbeddingStatus(healthy)).toEqual([
          expect.stringMatching(/^Embeddings: the database has the pgvector extension \d/),
          "  test:synonyms-64 (64 dimensions, HNSW index): 3 row(s) embedded in 3 vector(s), 0 row(s) pending.",
        ]);
      } finally {
        await index.close();
      }
    });

    it("says clearly when pgvector cannot be installed, and answers with word search", async () => {
      const role = `ctxwin_plain_${process.pid}`;
      const name = `${database.url.split("/").pop()}_plain`;
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query(`CREATE ROLE ${role} LOGIN`);
      // A database of its own, owned by the plain role, where nobody installed pgvector.
      await admin.query(`CREATE DATABASE ${name} OWNER ${role}`);
      await admin.end();
      const url = new URL(database.url);
      url.username = role;
      url.pathname = `/${name}`;
      const warnings: string[] = [];
      const store = openStore({
        url: url.toString(),
        embeddings: {
          model: createSynonymEmbeddingModel(),
          retryDelaysMs: [],
          onWarning: (message) => warnings.push(message),
        },
      });
      try {
        expect((await store.append("s", [text("A deep teal palette.")])).map((row) => row.seq)).toEqual([1]);
        await store.embeddings?.idle();
        expect(warnings.join("\n")).toMatch(/need the pgvector extension/);
        const page = await store.search("s", { query: "teal", mode: "hybrid" });
        expect(page.hits.map((hit) => hit.row.seq)).toEqual([1]);
        expect(page.embeddings).toMatchObject({ status: "unavailable" });
        expect(page.embeddings?.message).toMatch(/pgvector.*ranked word-search results/s);
        const status = await postgresEmbeddingStatus({ url: url.toString(), schema: "ctxwin" });
        expect(status).toMatchObject({
          vectors: false,
          index: "pgvector-not-created",
          models: [{ embeddedRows: 0, pendingRows: 1, lastFailure: { message: expect.stringMatching(/pgvector/) } }],
        });
      } finally {
        await store.close();
        const cleanup = new pg.Client({ connectionString: database.url });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.query(`DROP ROLE IF EXISTS ${role}`);
        await cleanup.end();
      }
    });

    describe("many sessions in one vector table, the HNSW index preferred by the planner (ADR 0096)", () => {
      let crowded: TestDatabase;
      let admin: pg.Client;
      const opened: ReturnType<typeof openStore>[] = [];
      beforeAll(async () => {
        crowded = await createTestDatabase();
        admin = new pg.Client({ connectionString: crowded.url });
        await admin.connect();
        const name = crowded.url.split("/").pop() as string;
        // What stale statistics can make the planner do: prefer the HNSW index, which needs no sort.
        await admin.query(`ALTER DATABASE ${name} SET enable_sort = off`);
        // The scan stops after its first pass (the default bound, 20,000, is as far below millions of chunks).
        await admin.query(`ALTER DATABASE ${name} SET hnsw.max_scan_tuples = 1`);
      });
      afterAll(async () => {
        for (const store of opened.splice(0)) await store.close();
        await admin.end();
        await crowded.drop();
      });
      describeManySessionEmbeddingCase(
        (embeddings) => {
          const store = openStore({ url: crowded.url, schema: "crowded", embeddings });
          opened.push(store);
          return store;
        },
        {
          sessions: 20,
          rowsPerSession: 40,
          // A graph of two links per chunk: its first pass reaches a few hundred of the table's 800 chunks, as
          // the default graph's reaches ~2,800 of a table of millions.
          afterEmbedding: async () => {
            const table = (
              await admin.query<{ name: string }>(
                "SELECT tablename AS name FROM pg_tables " +
                  "WHERE schemaname = 'crowded' AND tablename LIKE 'ctxwin\\_embeddings\\_%'",
              )
            ).rows[0]?.name;
            await admin.query(`DROP INDEX crowded.${table}_hnsw`);
            await admin.query(
              `CREATE INDEX ${table}_hnsw ON crowded.${table}
               USING hnsw (embedding vector_cosine_ops) WITH (m = 2, ef_construction = 4)`,
            );
          },
          label: " (PostgreSQL, the planner pushed to a small HNSW graph)",
        },
      );

      it("scores exactly a session of a few thousand rows that is a tenth of the table", async () => {
        const index = createPostgresVectorIndex({
          url: crowded.url,
          schema: "shared",
          connectTimeoutMs: 10_000,
          statementTimeoutMs: 60_000,
          queryTimeoutMs: 65_000,
        });
        try {
          const random = createSeededRandom(51);
          const dimensions = 8;
          const vectorOf = () => Float32Array.from({ length: dimensions }, () => random.next() * 2 - 1);
          const rows = 2_500;
          const entry = { incarnation: "i", model: "test:random-8", dimensions, throughSeq: rows };
          const written = async (sessionId: string) => {
            const vectors = Array.from({ length: rows }, (_, row) => ({ seq: row + 1, chunk: 0, vector: vectorOf() }));
            await index.write({ ...entry, sessionId, vectors });
            return vectors;
          };
          // The first write creates the table and its index; the graph is built once the rows are in (faster).
          await index.write({ ...entry, sessionId: "other-0", throughSeq: 0, vectors: [] });
          await admin.query("DROP INDEX shared.ctxwin_embeddings_1_hnsw");
          const target = await written("target");
          for (let other = 0; other < 9; other += 1) await written(`other-${other}`);
          await admin.query(
            "CREATE INDEX ctxwin_embeddings_1_hnsw ON shared.ctxwin_embeddings_1 " +
              "USING hnsw (embedding vector_cosine_ops)",
          );
          // The table's size as autovacuum would have recorded it: 25,000 chunks, the target a tenth.
          await admin.query("ANALYZE shared.ctxwin_embeddings_1");
          const query = vectorOf();
          const expected = target
            .map(({ seq, vector }) => ({ seq, similarity: cosineSimilarity(query, vector) }))
            .sort((left, right) => right.similarity - left.similarity)
            .slice(0, 10)
            .map((row) => row.seq);
          const found = await index.nearest({
            sessionId: "target",
            model: "test:random-8",
            vector: query,
            lowSeq: 0,
            highSeq: Number.MAX_SAFE_INTEGER,
            limit: 10,
          });
          expect(found.map((row) => row.seq)).toEqual(expected);
        } finally {
          await index.close();
        }
      });
    });
  },
);
