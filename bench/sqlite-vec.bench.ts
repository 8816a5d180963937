/**
 * The SQLite vector path against sqlite-vec's own binary quantization (ADR 0099),
 * `npm run bench -- sqlite-vec`: one session of 100,000 embedded rows (`--rows N`), searched
 * - by the store as it ships: the in-memory sign cache scanned by the WebAssembly popcount
 *   (sign-cache.ts), its 400 candidates rescored by `vec_distance_cosine` on the floats;
 * - by sqlite-vec alone: a `vec0` table of `bit[D]` columns filled with `vec_quantize_binary`,
 *   partitioned by session with `seq` as a metadata column, whose Hamming KNN proposes the same
 *   number of candidates, rescored by the same statement (one query: KNN and rescoring joined).
 * Both are timed through a real hybrid search (`withEmbeddings` over the SQLite store, the offline
 * dense model of embeddings.bench.ts), interleaved in `--rounds N` rounds (default 3) of 120
 * searches each, and their `nearest` call alone over the whole session and over half of it (a seq
 * bound, what a window or `beforeSeq` asks). The figures are ratios sqlite-vec / shipped path within
 * the same round. The top-10 rows of each path's `nearest` (as hybrid search asks it: 30 rows) are
 * compared with an exact cosine scan over every stored vector. Dimensions: 384
 * (`CTXWIN_BENCH_EMBED_DIMS=384,1536` adds 1,536).
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openStore } from "../src/store/open-store.js";
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

async function compare(rows: number, dimensions: number, rounds: number): Promise<void> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-vec-"));
  try {
    const file = path.join(directory, "ctxwin.db");
    const model = denseModel(dimensions);
    await fill(file, rows, model);
    const vec0Bytes = buildBitTable(file, dimensions);

    const shipped = openStore({ path: file, durability: "normal", embeddings: { model, batchSize: 512 } });
    const shippedIndex = createSqliteVectorIndex({ path: file });
    const vec0Index = createVec0Index(file);
    const viaVec0 = withEmbeddings(createSqliteStore({ path: file, durability: "normal" }), {
      model,
      index: vec0Index,
    });
    try {
      console.log(
        `${rows.toLocaleString("en")} rows, ${dimensions} dims; vec0 bit table ${Math.round(vec0Bytes / rows)} B/row on disk`,
      );
      const modelId = `bench:dense-${dimensions}`;
      const first = Float32Array.from(vectorOf("first", dimensions));
      const loadStarted = performance.now();
      shippedIndex.nearest({
        sessionId: "s",
        model: modelId,
        vector: first,
        lowSeq: 0,
        highSeq: Number.MAX_SAFE_INTEGER,
        limit: 30,
      });
      console.log(
        `  first search of the session loads the sign cache in ${formatMs(performance.now() - loadStarted)} ` +
          `(${Math.round((shippedIndex.cacheBytes?.() ?? 0) / rows)} B/row in memory); vec0 reads its chunks per search`,
      );
      overlap(file, dimensions, rows, { shipped: shippedIndex, vec0: vec0Index });
      for (let round = 1; round <= rounds; round += 1) {
        const hybrid = await timeHybrid(shipped, viaVec0);
        // The whole session as hybrid search asks it (no upper bound), then half of it.
        const whole = await timeNearest(
          { shipped: shippedIndex, vec0: vec0Index },
          modelId,
          dimensions,
          Number.MAX_SAFE_INTEGER,
        );
        const half = await timeNearest(
          { shipped: shippedIndex, vec0: vec0Index },
          modelId,
          dimensions,
          Math.floor(rows / 2),
        );
        console.log(
          `  round ${round}: hybrid p95 ${line(hybrid)}; nearest p95 ${line(whole)}; nearest over half (seq bound) p95 ${line(half)}`,
        );
      }
    } finally {
      await shipped.close();
      await viaVec0.close();
      shippedIndex.close();
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const line = ({ shipped, vec0 }: { shipped: Timing; vec0: Timing }) =>
  `shipped ${formatMs(shipped.p95)} (p50 ${formatMs(shipped.p50)}), vec0 ${formatMs(vec0.p95)} ` +
  `(p50 ${formatMs(vec0.p50)}): ${formatRatio(vec0.p95 / shipped.p95)}`;

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

/** sqlite-vec's own layout of the sign bits: `bit[D]` per vector, partitioned by session, seq kept for filtering. */
function buildBitTable(file: string, dimensions: number): number {
  const before = fileBytes(file);
  const db = new Database(file);
  loadVectorExtension(db);
  db.exec(
    `CREATE VIRTUAL TABLE bench_vec_bits USING vec0(session_id text partition key, embedding bit[${dimensions}], seq integer)`,
  );
  db.exec(
    `INSERT INTO bench_vec_bits (rowid, session_id, embedding, seq)
     SELECT vector_id, session_id, vec_quantize_binary(vector), seq FROM ctxwin_embeddings`,
  );
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return fileBytes(file) - before;
}

/** The shipped index with its `nearest` replaced by vec0's Hamming KNN, rescored exactly by the same cosine. */
function createVec0Index(file: string): SyncVectorIndex {
  const base = createSqliteVectorIndex({ path: file });
  const db = new Database(file, { readonly: true });
  loadVectorExtension(db);
  const rescored = (bounded: boolean) =>
    db.prepare(
      `WITH candidates AS (
         SELECT rowid FROM bench_vec_bits
         WHERE embedding MATCH vec_quantize_binary(?) AND k = ? AND session_id = ?${bounded ? " AND seq > ? AND seq < ?" : ""})
       SELECT e.seq, 1 - vec_distance_cosine(e.vector, ?) AS similarity
       FROM candidates JOIN ctxwin_embeddings e ON e.vector_id = candidates.rowid`,
    );
  const whole = rescored(false);
  const bounded = rescored(true);
  return {
    ...base,
    nearest({ sessionId, vector, lowSeq, highSeq, limit }: NearestQuery): NearestRow[] {
      const blob = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
      const k = candidatesFor(limit);
      // As ADR 0063 first did: the metadata filter only when the bounds cut the session.
      const found =
        lowSeq <= 0 && highSeq >= Number.MAX_SAFE_INTEGER
          ? whole.all(blob, k, sessionId, blob)
          : bounded.all(blob, k, sessionId, lowSeq, Math.min(highSeq, Number.MAX_SAFE_INTEGER), blob);
      return bestRows(found as NearestRow[], limit);
    },
    close() {
      db.close();
      base.close();
    },
  };
}

async function timeHybrid(
  shipped: ReturnType<typeof openStore>,
  viaVec0: ReturnType<typeof openStore>,
): Promise<{ shipped: Timing; vec0: Timing }> {
  // Each path searches the same queries in the same order.
  const counters = [0, 0];
  const queryOf = (path: number) => {
    const query = counters[path] ?? 0;
    counters[path] = query + 1;
    return `${WORDS[query % WORDS.length]} ${WORDS[(query * 5 + 3) % WORDS.length]} plan`;
  };
  const [shippedTiming, vec0Timing] = (await timeInterleaved(
    [shipped, viaVec0].map(
      (store, position) => () => store.search("s", { query: queryOf(position), mode: "hybrid", limit: 10 }),
    ),
    { iterations: 120, warmup: 5 },
  )) as [Timing, Timing];
  return { shipped: shippedTiming, vec0: vec0Timing };
}

async function timeNearest(
  indexes: { shipped: SyncVectorIndex; vec0: SyncVectorIndex },
  model: string,
  dimensions: number,
  highSeq: number,
): Promise<{ shipped: Timing; vec0: Timing }> {
  const vectors = Array.from({ length: 16 }, (_, index) =>
    Float32Array.from(vectorOf(`${WORDS[index % WORDS.length]} nearest ${index}`, dimensions)),
  );
  const counters = [0, 0];
  const [shipped, vec0] = (await timeInterleaved(
    [indexes.shipped, indexes.vec0].map((index, position) => () => {
      const query = counters[position] ?? 0;
      counters[position] = query + 1;
      const vector = vectors[query % vectors.length] as Float32Array;
      return index.nearest({
        sessionId: "s",
        model,
        vector,
        lowSeq: 0,
        highSeq,
        limit: 30,
      });
    }),
    { iterations: 120, warmup: 3 },
  )) as [Timing, Timing];
  return { shipped, vec0 };
}

/** Mean top-10 overlap of each path's `nearest` with an exact cosine scan over every stored vector. */
function overlap(
  file: string,
  dimensions: number,
  rows: number,
  indexes: { shipped: SyncVectorIndex; vec0: SyncVectorIndex },
): void {
  const queries = Array.from({ length: 20 }, (_, index) =>
    Float32Array.from(
      vectorOf(`${WORDS[index % WORDS.length]} ${WORDS[(index * 7) % WORDS.length]} recall`, dimensions),
    ),
  );
  const model = `bench:dense-${dimensions}`;
  const topOf = (index: SyncVectorIndex) =>
    queries.map((vector) =>
      index
        .nearest({ sessionId: "s", model, vector, lowSeq: 0, highSeq: Number.MAX_SAFE_INTEGER, limit: 30 })
        .slice(0, 10)
        .map((row) => row.seq),
    );
  const found = { shipped: topOf(indexes.shipped), vec0: topOf(indexes.vec0) };
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
  const share = (paths: number[][]) =>
    `${(
      (paths.reduce((sum, seqs, position) => sum + seqs.filter((seq) => exact[position]?.has(seq)).length, 0) /
        (queries.length * 10)) *
      100
    ).toFixed(0)}%`;
  console.log(
    `  top-10 overlap with an exact scan of all ${rows.toLocaleString("en")} vectors (${queries.length} queries, ` +
      `${candidatesFor(30)} candidates rescored): shipped ${share(found.shipped)}, vec0 ${share(found.vec0)}`,
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
