/**
 * The SQLite vector path against sqlite-vec's own binary quantization (ADR 0099),
 * `npm run bench -- sqlite-vec`: one session of 100,000 embedded rows (`--rows N`), searched
 * - by the store as it ships: the in-memory sign cache scanned by the WebAssembly popcount
 *   (sign-cache.ts), its 400 candidates rescored by `vec_distance_cosine` on the floats;
 * - by sqlite-vec's KNN: a `vec0` table of `bit[D]` columns filled with `vec_quantize_binary`,
 *   partitioned by session with `seq` as a metadata column, asked for the same 400 candidates;
 * - by sqlite-vec's scalar function: a plain table of the same bits ordered by
 *   `vec_distance_hamming` (`LIMIT 400`);
 * the candidates of both sqlite-vec paths rescored exactly as the shipped path does, in the same
 * statement. Each is timed through a real hybrid search (`withEmbeddings` over the SQLite store,
 * the offline dense model of embeddings.bench.ts) and by its `nearest` call alone, over the whole
 * session and over half of it (a seq bound, what a window or `beforeSeq` asks), interleaved, in
 * `--rounds N` rounds (default 3); the figures are p95 ratios to the shipped path within the same
 * round. The top-10 rows of each path's `nearest` (30 rows, as hybrid search asks) are compared
 * with an exact cosine scan over every stored vector. Dimensions: 384
 * (`CTXWIN_BENCH_EMBED_DIMS=384,1536` adds 1,536).
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openStore } from "../src/store/open-store.js";
import type { HistoryStore } from "../src/store/port.js";
import { createSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { withEmbeddings } from "../src/store/embeddings/with-embeddings.js";
import { createSqliteVectorIndex, loadVectorExtension } from "../src/store/embeddings/sqlite-vector-index.js";
import {
  bestRows,
  cosineSimilarity,
  type NearestQuery,
  type NearestRow,
  type SyncVectorIndex,
} from "../src/store/embeddings/vector-index.js";
import { denseModel, rowOf, vectorOf } from "./embeddings.bench.js";
import { formatMs, formatRatio, timeInterleaved, type Timing } from "./measure.js";

const WORDS = "deploy login oauth database migration budget palette latency release schema token window".split(" ");
/** What the shipped index asks for: 4 candidates per wanted row, at least 400. */
const candidatesFor = (limit: number) => Math.max(400, limit * 4);

const flagValue = (name: string, fallback: number): number => {
  const flag = process.argv.indexOf(name);
  const value = flag < 0 ? Number.NaN : Number(process.argv[flag + 1]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

const dimensionsList = (): number[] => {
  const values = (process.env["CTXWIN_BENCH_EMBED_DIMS"] ?? "")
    .split(",")
    .map(Number)
    .filter((value) => Number.isInteger(value) && value > 0);
  return values.length > 0 ? values : [384];
};

export async function run(): Promise<void> {
  const probe = new Database(":memory:");
  const loads = loadVectorExtension(probe);
  probe.close();
  if (!loads) {
    console.log("sqlite-vec does not load on this machine: nothing to compare.");
    return;
  }
  const rows = flagValue("--rows", 100_000);
  const rounds = flagValue("--rounds", 3);
  for (const dimensions of dimensionsList()) await compare(rows, dimensions, rounds);
}

/** A way of answering `nearest`, and a hybrid-searching store over it. */
interface VectorPath {
  name: string;
  index: SyncVectorIndex;
  store: HistoryStore;
}

async function compare(rows: number, dimensions: number, rounds: number): Promise<void> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-vec-"));
  try {
    const file = path.join(directory, "ctxwin.db");
    const model = denseModel(dimensions);
    await fill(file, rows, model);
    const bitBytes = buildBitTables(file, dimensions);
    const over = (index: SyncVectorIndex) =>
      withEmbeddings(createSqliteStore({ path: file, durability: "normal" }), { model, index });
    const shippedIndex = createSqliteVectorIndex({ path: file });
    const knnIndex = createSqliteVecIndex(file, "knn");
    const scanIndex = createSqliteVecIndex(file, "scan");
    const paths: VectorPath[] = [
      {
        name: "shipped",
        index: shippedIndex,
        store: openStore({ path: file, durability: "normal", embeddings: { model, batchSize: 512 } }),
      },
      { name: "vec0 KNN", index: knnIndex, store: over(knnIndex) },
      { name: "vec_distance_hamming", index: scanIndex, store: over(scanIndex) },
    ];
    try {
      console.log(
        `${rows.toLocaleString("en")} rows, ${dimensions} dims; on disk: vec0 bit table ${Math.round(bitBytes.vec0 / rows)} B/row, ` +
          `plain bit table ${Math.round(bitBytes.plain / rows)} B/row`,
      );
      const modelId = `bench:dense-${dimensions}`;
      const first = Float32Array.from(vectorOf("first", dimensions));
      const loadStarted = performance.now();
      const whole = { lowSeq: 0, highSeq: Number.MAX_SAFE_INTEGER, limit: 30 };
      shippedIndex.nearest({ sessionId: "s", model: modelId, vector: first, ...whole });
      console.log(
        `  first search of the session loads the sign cache in ${formatMs(performance.now() - loadStarted)} ` +
          `(${Math.round((shippedIndex.cacheBytes?.() ?? 0) / rows)} B/row in memory); sqlite-vec reads its tables per search`,
      );
      overlap(file, dimensions, rows, paths);
      for (let round = 1; round <= rounds; round += 1) {
        console.log(`  round ${round}:`);
        report("hybrid search", paths, await timeHybrid(paths));
        // The whole session as hybrid search asks it (no upper bound), then half of it (a window, `beforeSeq`).
        report("nearest", paths, await timeNearest(paths, modelId, dimensions, Number.MAX_SAFE_INTEGER));
        report(
          "nearest over half (seq bound)",
          paths,
          await timeNearest(paths, modelId, dimensions, Math.floor(rows / 2)),
        );
      }
    } finally {
      for (const { store, index } of paths) {
        await store.close();
        index.close();
      }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** One line per measurement: each path's p95 (p50), and its p95 as a ratio to the shipped path's. */
function report(label: string, paths: VectorPath[], timings: Timing[]): void {
  const baseline = timings[0] as Timing;
  const parts = timings.map(
    (timing, position) =>
      `${paths[position]?.name} ${formatMs(timing.p95)} (p50 ${formatMs(timing.p50)})` +
      (position === 0 ? "" : ` ${formatRatio(timing.p95 / baseline.p95)}`),
  );
  console.log(`    ${label} p95: ${parts.join("; ")}`);
}

/** The rows, then their vectors through the store's own backfill (what a real store holds). */
async function fill(file: string, rows: number, model: ReturnType<typeof denseModel>): Promise<void> {
  const writer = openStore({ path: file, durability: "normal" });
  for (let start = 0; start < rows; start += 1_000)
    await writer.append(
      "s",
      Array.from({ length: Math.min(1_000, rows - start) }, (_, offset) => rowOf(start + offset)),
    );
  await writer.close();
  const embedder = openStore({ path: file, durability: "normal", embeddings: { model, batchSize: 512 } });
  await embedder.embeddings?.backfill();
  await embedder.close();
}

/**
 * sqlite-vec's layouts of the sign bits (`vec_quantize_binary`): a `vec0` table of `bit[D]`
 * partitioned by session with `seq` as a metadata column, and a plain table of the same bits
 * (a BLOB per vector, keyed by session and seq) for the `vec_distance_hamming` scan.
 */
function buildBitTables(file: string, dimensions: number): { vec0: number; plain: number } {
  const db = new Database(file);
  loadVectorExtension(db);
  const grown = (statement: string) => {
    const before = fileBytes(file);
    db.exec(statement);
    db.pragma("wal_checkpoint(TRUNCATE)");
    return fileBytes(file) - before;
  };
  const vec0 = grown(
    `CREATE VIRTUAL TABLE bench_vec_bits USING vec0(session_id text partition key, embedding bit[${dimensions}], seq integer);
     INSERT INTO bench_vec_bits (rowid, session_id, embedding, seq)
     SELECT vector_id, session_id, vec_quantize_binary(vector), seq FROM ctxwin_embeddings;`,
  );
  const plain = grown(
    `CREATE TABLE bench_plain_bits (session_id TEXT NOT NULL, seq INTEGER NOT NULL, vector_id INTEGER NOT NULL,
       bits BLOB NOT NULL, PRIMARY KEY (session_id, seq, vector_id)) WITHOUT ROWID;
     INSERT INTO bench_plain_bits SELECT session_id, seq, vector_id, vec_quantize_binary(vector) FROM ctxwin_embeddings;`,
  );
  db.close();
  return { vec0, plain };
}

/**
 * The shipped index with its `nearest` replaced by sqlite-vec: `knn` asks the vec0 table for the
 * k nearest by Hamming distance, `scan` orders the plain table by `vec_distance_hamming`; both
 * rescore those candidates exactly by the shipped path's cosine, in the same statement.
 */
function createSqliteVecIndex(file: string, way: "knn" | "scan"): SyncVectorIndex {
  const base = createSqliteVectorIndex({ path: file });
  const db = new Database(file, { readonly: true });
  loadVectorExtension(db);
  const candidates = (bounded: boolean) =>
    way === "knn"
      ? `SELECT rowid AS vector_id FROM bench_vec_bits
         WHERE embedding MATCH vec_quantize_binary(:query) AND k = :k AND session_id = :session
         ${bounded ? "AND seq > :low AND seq < :high" : ""}`
      : `SELECT vector_id FROM bench_plain_bits
         WHERE session_id = :session ${bounded ? "AND seq > :low AND seq < :high" : ""}
         ORDER BY vec_distance_hamming(vec_bit(bits), vec_quantize_binary(:query)) LIMIT :k`;
  const rescored = (bounded: boolean) =>
    db.prepare(
      `WITH candidates AS (${candidates(bounded)})
       SELECT e.seq, 1 - vec_distance_cosine(e.vector, :query) AS similarity
       FROM candidates JOIN ctxwin_embeddings e ON e.vector_id = candidates.vector_id`,
    );
  const whole = rescored(false);
  const bounded = rescored(true);
  return {
    ...base,
    nearest({ sessionId, vector, lowSeq, highSeq, limit }: NearestQuery): NearestRow[] {
      const query = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
      const parameters = { query, k: candidatesFor(limit), session: sessionId };
      // As ADR 0063 first did: the seq filter only when the bounds cut the session.
      const found =
        lowSeq <= 0 && highSeq >= Number.MAX_SAFE_INTEGER
          ? whole.all(parameters)
          : bounded.all({ ...parameters, low: lowSeq, high: highSeq });
      return bestRows(found as NearestRow[], limit);
    },
    close() {
      db.close();
      base.close();
    },
  };
}

/** Hybrid searches of 10 rows, interleaved: every path searches the same queries in the same order. */
async function timeHybrid(paths: VectorPath[]): Promise<Timing[]> {
  const counters = paths.map(() => 0);
  return timeInterleaved(
    paths.map(({ store }, position) => () => {
      const query = counters[position] ?? 0;
      counters[position] = query + 1;
      const text = `${WORDS[query % WORDS.length]} ${WORDS[(query * 5 + 3) % WORDS.length]} plan`;
      return store.search("s", { query: text, mode: "hybrid", limit: 10 });
    }),
    { iterations: 120, warmup: 5 },
  );
}

/** `nearest` alone (30 rows, as hybrid search asks), interleaved, on the same 16 query vectors. */
async function timeNearest(paths: VectorPath[], model: string, dimensions: number, highSeq: number): Promise<Timing[]> {
  const vectors = Array.from({ length: 16 }, (_, index) =>
    Float32Array.from(vectorOf(`${WORDS[index % WORDS.length]} nearest ${index}`, dimensions)),
  );
  const counters = paths.map(() => 0);
  return timeInterleaved(
    paths.map(({ index }, position) => () => {
      const query = counters[position] ?? 0;
      counters[position] = query + 1;
      const vector = vectors[query % vectors.length] as Float32Array;
      return index.nearest({ sessionId: "s", model, vector, lowSeq: 0, highSeq, limit: 30 });
    }),
    { iterations: 40, warmup: 3 },
  );
}

/** Mean top-10 overlap of each path's `nearest` with an exact cosine scan over every stored vector. */
function overlap(file: string, dimensions: number, rows: number, paths: VectorPath[]): void {
  const queries = Array.from({ length: 20 }, (_, index) =>
    Float32Array.from(
      vectorOf(`${WORDS[index % WORDS.length]} ${WORDS[(index * 7) % WORDS.length]} recall`, dimensions),
    ),
  );
  const model = `bench:dense-${dimensions}`;
  const found = paths.map(({ index }) =>
    queries.map((vector) =>
      index
        .nearest({ sessionId: "s", model, vector, lowSeq: 0, highSeq: Number.MAX_SAFE_INTEGER, limit: 30 })
        .slice(0, 10)
        .map((row) => row.seq),
    ),
  );
  const db = new Database(file, { readonly: true });
  const best = queries.map(() => [] as NearestRow[]);
  const scan = db.prepare("SELECT seq, vector FROM ctxwin_embeddings").raw().iterate() as IterableIterator<
    [number, Buffer]
  >;
  for (const [seq, blob] of scan) {
    const vector = new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + dimensions * 4));
    queries.forEach((query, position) => {
      const top = best[position] as NearestRow[];
      const similarity = cosineSimilarity(query, vector);
      if (top.length < 10 || similarity > (top[9]?.similarity ?? -2)) {
        top.push({ seq, similarity });
        top.sort((left, right) => right.similarity - left.similarity);
        top.length = Math.min(10, top.length);
      }
    });
  }
  db.close();
  const exact = best.map((top) => new Set(top.map((row) => row.seq)));
  const share = (seqsByQuery: number[][]) =>
    `${(
      (seqsByQuery.reduce((sum, seqs, position) => sum + seqs.filter((seq) => exact[position]?.has(seq)).length, 0) /
        (queries.length * 10)) *
      100
    ).toFixed(0)}%`;
  console.log(
    `  top-10 overlap with an exact scan of all ${rows.toLocaleString("en")} vectors (${queries.length} queries, ` +
      `${candidatesFor(30)} candidates rescored): ${paths.map(({ name }, position) => `${name} ${share(found[position] ?? [])}`).join(", ")}`,
  );
}

function fileBytes(file: string): number {
  let total = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      total += statSync(`${file}${suffix}`).size;
    } catch {
      // No WAL file after a checkpoint.
    }
  }
  return total;
}
