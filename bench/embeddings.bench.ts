/**
 * Hybrid search on embedded rows (ADR 0063), `npm run bench -- embeddings`:
 * - hybrid and semantic p95 on one session of 1,000 and 100,000 embedded rows, and their ratio
 *   (goal: hybrid p95 ≤ 50 ms at 100,000 rows), on SQLite with the sqlite-vec bit index;
 * - vector storage per row against the raw float bytes, and the whole file against the text;
 * - provider calls per 1,000 appended rows (appends of 10 rows, the background embedder batching);
 * - backfill throughput (rows embedded per second through `embeddings.backfill`).
 * Rows are cut from the essays the store benchmarks use (plain repeated words without them).
 * The model is offline: dense pseudo-random vectors seeded by each text's hash (the provider's
 * own latency is not measured; the query's embedding call is part of each search's time).
 * Dimensions: 384 by default; `CTXWIN_BENCH_EMBED_DIMS=384,1536` adds 1,536 (several minutes
 * more); `CTXWIN_BENCH_EMBED_ROWS=1000,20000` changes the sizes.
 * `--backend postgres` measures PostgreSQL with pgvector instead, on a throwaway cluster
 * (test/postgres-cluster.ts; the server needs the pgvector extension installed) configured as the
 * store benchmark's is (`durable`: fsync on, `shared_buffers=256MB`, not the tests' 32 MB); storage
 * is then the schema's tables with their indexes (`pg_total_relation_size`).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createDenseEmbeddingModel, denseVector } from "../src/store/test-support/dense-embedding-model.js";
import { openStore } from "../src/store/open-store.js";
import type { RowInput } from "../src/core/row.js";
import type { HistoryStore } from "../src/store/port.js";
import { loadSentences } from "./haystack.js";
import Database from "better-sqlite3";
import { createRequire } from "node:module";
import { createSqliteVectorIndex } from "../src/store/embeddings/sqlite-vector-index.js";
import { cosineSimilarity } from "../src/store/embeddings/vector-index.js";
import { formatMs, formatRatio, goal, timeInterleaved, type Timing } from "./measure.js";
import pg from "pg";
import { startPostgresCluster } from "../test/postgres-cluster.js";

/** The words of the ranked queries ("<word> <word> plan"); also the rows' text without the essays. */
export const ESSAY_QUERY_WORDS =
  "deploy login oauth database migration budget palette latency release schema token window rollover search vector index cache provider session agent".split(
    " ",
  );

/** The deterministic dense model (`dense-embedding-model.ts`) under the provider name the figures use. */
export const denseModel = (dimensions: number) => createDenseEmbeddingModel({ dimensions, provider: "bench" });
export const vectorOf = denseVector;

let sentences: string[] | undefined;

/** Row `index`: three sentences of the essays (as the store benchmarks cut them), or plain words without them. */
export function rowOf(index: number): RowInput {
  if (sentences === undefined) {
    try {
      sentences = loadSentences();
    } catch {
      sentences = [];
    }
  }
  const text =
    sentences.length > 0
      ? [0, 1, 2].map((offset) => sentences?.[(index * 3 + offset) % (sentences?.length ?? 1)] ?? "").join(" ")
      : Array.from(
          { length: 40 },
          (_, position) => ESSAY_QUERY_WORDS[(index * 7 + position * 13) % ESSAY_QUERY_WORDS.length],
        ).join(" ");
  return { role: index % 2 === 0 ? "user" : "assistant", parts: [{ type: "text", text: `${text} (${index})` }] };
}

/** The UTF-8 bytes of a row's text, what the storage ratios are measured against. */
const textBytesOf = (row: RowInput): number =>
  Buffer.byteLength(row.parts.map((part) => ("text" in part ? String(part.text) : "")).join(""));

const listOf = (variable: string, fallback: number[]): number[] => {
  const values = (process.env[variable] ?? "")
    .split(",")
    .map(Number)
    .filter((value) => Number.isInteger(value) && value > 0);
  return values.length > 0 ? values : fallback;
};

/** `--backend <name>`: `postgres` measures PostgreSQL with pgvector. */
function backendFlag(): string {
  const flag = process.argv.indexOf("--backend");
  return flag < 0 ? "sqlite" : (process.argv[flag + 1] ?? "sqlite");
}

export async function run(): Promise<void> {
  const dimensionsList = listOf("CTXWIN_BENCH_EMBED_DIMS", [384]);
  const sizes = listOf("CTXWIN_BENCH_EMBED_ROWS", [1_000, 100_000]);
  const cluster = backendFlag() === "postgres" ? await startPostgresCluster({ durable: true }) : undefined;
  try {
    if (cluster === undefined) await providerCalls();
    for (const dimensions of dimensionsList) {
      const p95s: number[] = [];
      for (const rows of sizes)
        p95s.push(
          cluster === undefined
            ? await measure(rows, dimensions)
            : await measurePostgres(cluster.url, rows, dimensions),
        );
      report(sizes, p95s, dimensions);
    }
  } finally {
    cluster?.stop();
  }
}

/** Searches timed per mode: interleaved, so the shared machine's noise hits the three alike; 120 each, so one stall is not the p95. */
async function timeModes(store: HistoryStore): Promise<{ hybrid: Timing; semantic: Timing; ranked: Timing }> {
  let query = 0;
  const queries = () =>
    `${ESSAY_QUERY_WORDS[query++ % ESSAY_QUERY_WORDS.length]} ${ESSAY_QUERY_WORDS[(query * 3) % ESSAY_QUERY_WORDS.length]} plan`;
  const [hybrid, semantic, ranked] = (await timeInterleaved(
    (["hybrid", "semantic", "ranked"] as const).map(
      (mode) => () => store.search("s", { query: queries(), mode, limit: 10 }),
    ),
    { iterations: 120, warmup: 5 },
  )) as [Timing, Timing, Timing];
  return { hybrid, semantic, ranked };
}

function report(sizes: number[], p95s: number[], dimensions: number): void {
  const [small, large] = [p95s[0] ?? Number.NaN, p95s.at(-1) ?? Number.NaN];
  console.log(
    `hybrid p95 ratio ${sizes.at(-1)?.toLocaleString("en")} / ${sizes[0]?.toLocaleString("en")} rows at ${dimensions} dims: ${formatRatio(large / small)}`,
  );
  if (sizes.at(-1) === 100_000) goal(`hybrid p95 at 100,000 rows, ${dimensions} dims`, large, "<=", 50, formatMs);
}

async function measurePostgres(url: string, rows: number, dimensions: number): Promise<number> {
  const schema = `bench_embed_${rows}_${dimensions}`;
  const writer = openStore({ url, schema });
  let textBytes = 0;
  for (let start = 0; start < rows; start += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, rows - start) }, (_, offset) => rowOf(start + offset));
    textBytes += batch.reduce((sum, row) => sum + textBytesOf(row), 0);
    await writer.append("s", batch);
  }
  await writer.close();
  const store = openStore({ url, schema, embeddings: { model: denseModel(dimensions), batchSize: 512 } });
  const started = performance.now();
  const progress = await store.embeddings?.backfill();
  const seconds = (performance.now() - started) / 1000;
  const sizes = await settle(url, schema);
  const { hybrid, semantic, ranked } = await timeModes(store);
  await store.close();
  console.log(
    `${rows.toLocaleString("en")} rows, ${dimensions} dims (postgres, pgvector HNSW): hybrid p50 ${formatMs(hybrid.p50)} p95 ${formatMs(hybrid.p95)}; ` +
      `semantic p95 ${formatMs(semantic.p95)}; ranked alone p95 ${formatMs(ranked.p95)}`,
  );
  console.log(
    `  backfill ${progress?.embeddedRows.toLocaleString("en")} rows in ${seconds.toFixed(1)} s ` +
      `(${Math.round((progress?.embeddedRows ?? 0) / seconds).toLocaleString("en")} rows/s); ` +
      `vector storage ${Math.round(sizes.vectorBytes / rows).toLocaleString("en")} B/row ` +
      `(table and HNSW index; raw floats ${(dimensions * 4).toLocaleString("en")} B); ` +
      `whole schema ${(sizes.totalBytes / (textBytes + rows * dimensions * 4)).toFixed(2)}× (text + raw vectors)`,
  );
  return hybrid.p95;
}

/**
 * Vacuums and analyzes the schema's tables after the bulk load and backfill, as autovacuum would
 * have done by the time a server's session is searched; else it runs (on the HNSW index too)
 * during the measurement, and the planner searches with the statistics of empty tables.
 */
export async function settle(url: string, schema: string): Promise<{ vectorBytes: number; totalBytes: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = $1", [
      schema,
    ]);
    for (const { tablename } of tables.rows) await client.query(`VACUUM ANALYZE "${schema}"."${tablename}"`);
    // Every table of the schema with its indexes and TOAST; the vectors are the model's table.
    const sizes = await client.query<{ vector_bytes: string; total_bytes: string }>(
      `SELECT coalesce(sum(pg_total_relation_size(format('%I.%I', schemaname, tablename)))
                FILTER (WHERE tablename LIKE 'ctxwin\\_embeddings\\_%'), 0) AS vector_bytes,
              coalesce(sum(pg_total_relation_size(format('%I.%I', schemaname, tablename))), 0) AS total_bytes
       FROM pg_tables WHERE schemaname = $1`,
      [schema],
    );
    return {
      vectorBytes: Number(sizes.rows[0]?.vector_bytes ?? 0),
      totalBytes: Number(sizes.rows[0]?.total_bytes ?? 0),
    };
  } finally {
    await client.end();
  }
}

async function providerCalls(): Promise<void> {
  const model = denseModel(384);
  const store = openStore({ backend: "memory", embeddings: { model } });
  for (let append = 0; append < 100; append += 1) {
    await store.append(
      "s",
      Array.from({ length: 10 }, (_, row) => rowOf(append * 10 + row)),
    );
  }
  await store.embeddings?.idle();
  console.log(`provider calls per 1,000 appended rows (100 appends of 10 rows, default batch 64): ${model.calls}`);
  await store.close();
}

async function measure(rows: number, dimensions: number): Promise<number> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-embed-"));
  try {
    const file = path.join(directory, "ctxwin.db");
    const writer = openStore({ path: file, durability: "normal" });
    const textBytes = { total: 0 };
    for (let start = 0; start < rows; start += 1_000) {
      const batch = Array.from({ length: Math.min(1_000, rows - start) }, (_, offset) => rowOf(start + offset));
      for (const row of batch) textBytes.total += textBytesOf(row);
      await writer.append("s", batch);
    }
    await writer.close();
    const before = fileBytes(file);

    const model = denseModel(dimensions);
    const store = openStore({ path: file, durability: "normal", embeddings: { model, batchSize: 512 } });
    const started = performance.now();
    const progress = await store.embeddings?.backfill();
    const seconds = (performance.now() - started) / 1000;
    const vectorBytes = fileBytes(file) - before;
    const index = store.diagnostics().embeddings?.index;

    const { hybrid, semantic, ranked } = await timeModes(store);
    await store.close();
    const total = fileBytes(file);
    const recall = rows >= 10_000 ? candidateRecall(file, dimensions) : undefined;
    console.log(
      `${rows.toLocaleString("en")} rows, ${dimensions} dims (${index}): hybrid p50 ${formatMs(hybrid.p50)} p95 ${formatMs(hybrid.p95)}; ` +
        `semantic p95 ${formatMs(semantic.p95)}; ranked alone p95 ${formatMs(ranked.p95)}`,
    );
    console.log(
      `  backfill ${progress?.embeddedRows.toLocaleString("en")} rows in ${seconds.toFixed(1)} s ` +
        `(${Math.round((progress?.embeddedRows ?? 0) / seconds).toLocaleString("en")} rows/s); ` +
        `vector storage ${Math.round(vectorBytes / rows).toLocaleString("en")} B/row (raw floats ${(dimensions * 4).toLocaleString("en")} B); ` +
        `whole file ${(total / (textBytes.total + rows * dimensions * 4)).toFixed(2)}× (text + raw vectors)`,
    );
    if (recall !== undefined) {
      console.log(
        "  candidate stage: top-10 overlap with exact cosine over all rows " +
          `${recall.fast} (sign cache), ${recall.vec0 ?? "n/a"} (previous vec0 bit KNN), ` +
          `${recall.queries} queries; ` +
          `sign cache ${(recall.cacheBytes / 1024 / 1024).toFixed(1)} MiB ` +
          `(${Math.round(recall.cacheBytes / rows)} B/row), first search loads it in ${formatMs(recall.loadMs)}`,
      );
    }
    return hybrid.p95;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * Recall of the candidate stage: for a few query vectors, the top 10 rows of `nearest` (sign-bit
 * candidates rescored exactly, as a hybrid search of 10 rows asks) against the exact top 10 by cosine over every stored vector, as the
 * mean overlap; the same for the previous vec0 `bit[D]` KNN of 120 candidates (4 × its pool of 30), when sqlite-vec loads.
 */
function candidateRecall(
  file: string,
  dimensions: number,
): { fast: string; vec0: string | undefined; queries: number; cacheBytes: number; loadMs: number } {
  const queries = Array.from({ length: 10 }, (_, index) =>
    Float32Array.from(
      vectorOf(
        `${ESSAY_QUERY_WORDS[index]} ${ESSAY_QUERY_WORDS[(index * 7) % ESSAY_QUERY_WORDS.length]} recall`,
        dimensions,
      ),
    ),
  );
  const model = `bench:dense-${dimensions}`;
  const index = createSqliteVectorIndex({ path: file });
  // A hybrid search of 10 rows asks the vectors for 30 (its fusion pool): the candidates they get.
  const bounds = { sessionId: "s", model, lowSeq: 0, highSeq: Number.MAX_SAFE_INTEGER, limit: 30 };
  const started = performance.now();
  index.nearest({ ...bounds, vector: queries[0] as Float32Array });
  const loadMs = performance.now() - started;
  const fast = queries.map((vector) =>
    index
      .nearest({ ...bounds, vector })
      .slice(0, 10)
      .map((row) => row.seq),
  );
  const cacheBytes = index.cacheBytes?.() ?? 0;
  index.close();

  const db = new Database(file, { readonly: true });
  const best = queries.map(() => [] as { seq: number; similarity: number }[]);
  for (const [seq, blob] of db.prepare("SELECT seq, vector FROM ctxwin_embeddings").raw().iterate() as IterableIterator<
    [number, Buffer]
  >) {
    const vector = new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + dimensions * 4));
    queries.forEach((query, position) => {
      const top = best[position] as { seq: number; similarity: number }[];
      const similarity = cosineSimilarity(query, vector);
      if (top.length < 10 || similarity > (top[9]?.similarity ?? -2)) {
        top.push({ seq, similarity });
        top.sort((left, right) => right.similarity - left.similarity);
        top.length = Math.min(10, top.length);
      }
    });
  }
  const exact = best.map((top) => new Set(top.map((row) => row.seq)));
  const overlap = (found: number[][]) => {
    const shared = found.reduce(
      (sum, seqs, position) => sum + seqs.filter((seq) => exact[position]?.has(seq)).length,
      0,
    );
    return `${((shared / (queries.length * 10)) * 100).toFixed(0)}%`;
  };
  let vec0: string | undefined;
  db.close();
  try {
    const scratch = new Database(file);
    (createRequire(import.meta.url)("sqlite-vec") as { load: (db: Database.Database) => void }).load(scratch);
    scratch.exec(`CREATE VIRTUAL TABLE temp.recall_bits USING vec0(embedding bit[${dimensions}])`);
    scratch.exec(
      "INSERT INTO temp.recall_bits(rowid, embedding) SELECT vector_id, vec_quantize_binary(vector) FROM ctxwin_embeddings",
    );
    const knn = scratch.prepare(
      "SELECT rowid AS id FROM temp.recall_bits WHERE embedding MATCH vec_quantize_binary(?) AND k = 120",
    );
    const rescore = scratch.prepare(
      "SELECT seq FROM ctxwin_embeddings WHERE vector_id IN (SELECT value FROM json_each(?)) ORDER BY vec_distance_cosine(vector, ?) LIMIT 10",
    );
    vec0 = overlap(
      queries.map((vector) => {
        const blob = Buffer.from(vector.buffer);
        const ids = (knn.all(blob) as { id: number }[]).map((row) => row.id);
        return (rescore.all(JSON.stringify(ids), blob) as { seq: number }[]).map((row) => row.seq);
      }),
    );
    scratch.close();
  } catch {
    vec0 = undefined;
  }
  return { fast: overlap(fast), vec0, queries: queries.length, cacheBytes, loadMs };
}

function fileBytes(file: string): number {
  let total = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      total += statSync(`${file}${suffix}`).size;
    } catch {
      // No WAL file after a clean close.
    }
  }
  return total;
}
