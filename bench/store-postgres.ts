/**
 * The PostgreSQL variant of the store benchmarks (`npm run bench -- store --backend postgres`),
 * against a server with fsync on: a throwaway cluster (test/postgres-cluster.ts) on this machine,
 * or the server named by CTXWIN_BENCH_POSTGRES_URL. The same synthetic transcripts and goals as
 * SQLite, with SQLite measured in the same run as the baseline:
 * - activeWindow + one append on a 1,000,000-row session vs a 1,000-row one (goal ≤ 1.5×;
 *   `--rows n` or CTXWIN_BENCH_SCALE for a smaller long session);
 * - literal and ranked search p95 on a 100,000-row session (goal < 50 ms), SQLite alongside;
 * - append throughput with 1, 4 and 16 writer processes, each on its own session, against SQLite;
 * - what loading node-postgres costs a fresh process (why it is loaded lazily, ADR 0037).
 * Fixtures are written through the store's own append (10,000 rows per multi-row INSERT).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startPostgresCluster } from "../test/postgres-cluster.js";
import { openStore, type OpenStoreOptions } from "../src/store/open-store.js";
import type { HistoryStore } from "../src/store/port.js";
import { createSeededRandom } from "../src/store/test-support/seeded-random.js";
import {
  writeSyntheticTranscript,
  type SyntheticTranscriptSpec,
} from "../src/store/test-support/synthetic-transcript.js";
import type { AppendWriterConfig } from "./append-writer.js";
import { ESSAY_QUERY_WORDS, rowOf } from "./embeddings.bench.js";
import { loadSentences } from "./haystack.js";
import { formatMs, formatRatio, goal, summarize } from "./measure.js";
import { compareWindowTurn } from "./window-turn.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SESSION = "bench";
const ESSAY_SESSION = "s";
const RARE_PHRASES = ["quokka-ledger-7781", "we should have bought the lighthouse"];
/**
 * Stores the fixtures are written through: one append of 10,000 long rows can take more than the
 * default statement timeout (60 s) on a loaded server shared with other work.
 */
const SEEDING = { statementTimeoutMs: 0 } as const;
/** Ranked queries from rare to common words: one, two and three words kept after stop words. */
const RANKED_QUERIES = [
  "lighthouse bought",
  "startup founders",
  "we should have bought",
  "the same people",
  "investors funding startup",
  "programming language design",
];

/** The long session's rows: `--rows n`, else 1,000,000 × CTXWIN_BENCH_SCALE. */
function longSessionRows(): number {
  const flag = process.argv.indexOf("--rows");
  if (flag >= 0) return Number(process.argv[flag + 1]);
  return Math.round(1_000_000 * Number(process.env["CTXWIN_BENCH_SCALE"] ?? 1));
}

async function seed(
  store: HistoryStore,
  spec: SyntheticTranscriptSpec,
  sentences: readonly string[],
  label: string,
): Promise<void> {
  const started = performance.now();
  const textBytes = await writeSyntheticTranscript({
    store,
    sessionId: SESSION,
    spec,
    sentences,
    phrases: RARE_PHRASES,
    plantedPerPhrase: 5,
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `  seeded ${label}: ${spec.rows.toLocaleString("en")} rows, ` +
      `${(textBytes / 1e6).toFixed(0)} MB of text in ${seconds.toFixed(0)} s ` +
      `(${Math.round(spec.rows / seconds).toLocaleString("en")} rows/s)`,
  );
}

// ---------------------------------------------------------------- open + one turn

async function benchTurn(url: string, sentences: readonly string[]): Promise<void> {
  const rows = longSessionRows();
  console.log(
    `\n### activeWindow + append one row: ${rows.toLocaleString("en")}-row session vs 1,000-row session (PostgreSQL)\n`,
  );
  const large = openStore({ url, schema: "bench_long", ...SEEDING });
  const small = openStore({ url, schema: "bench_short", ...SEEDING });
  await seed(large, { rows, meanChars: 160, windowRows: 500, seed: 11 }, sentences, "long session");
  await seed(small, { rows: 1_000, meanChars: 160, windowRows: 500, seed: 12 }, sentences, "short session");
  // A fresh process opens the store: the first call connects and checks the schema.
  const opened = openStore({ url, schema: "bench_long" });
  const started = performance.now();
  await opened.activeWindow(SESSION);
  console.log(
    `first call of a new store on the long session (connect, schema check, activeWindow): ${formatMs(performance.now() - started)}`,
  );
  await opened.close();
  const headline = await compareWindowTurn({
    long: { label: `${rows.toLocaleString("en")} rows`, store: large, sessionId: SESSION },
    short: { label: "1,000 rows (own schema)", store: small, sessionId: SESSION },
    sentences,
    random: createSeededRandom(5),
  });
  goal(
    `PostgreSQL activeWindow + append, ${rows.toLocaleString("en")}-row / 1,000-row session (p50)`,
    headline,
    "<=",
    1.5,
    formatRatio,
  );
  await large.close();
  await small.close();
}

// ---------------------------------------------------------------- search p95

type TimedQuery = [query: string, mode: "literal" | "ranked"];

/** The long rows' queries: the planted phrases and a common word literally, then the ranked ones. */
const LONG_ROW_QUERIES: TimedQuery[] = [
  ...RARE_PHRASES.map((phrase): TimedQuery => [phrase, "literal"]),
  ["startup", "literal"],
  ...RANKED_QUERIES.map((query): TimedQuery => [query, "ranked"]),
];

/**
 * The essays fixture's queries: the embeddings benchmark's ranked queries (two of its words, rare
 * or absent in the essays, and "plan", in 3% of the rows), and a common and a rare word literally.
 */
const ESSAY_QUERIES: TimedQuery[] = [
  ["plan", "literal"],
  ["rollover", "literal"],
  ...ESSAY_QUERY_WORDS.map((word, index): TimedQuery => [
    `${word} ${ESSAY_QUERY_WORDS[((index + 1) * 3) % ESSAY_QUERY_WORDS.length]} plan`,
    "ranked",
  ]),
];

async function searchTimings(
  store: HistoryStore,
  label: string,
  queries: readonly TimedQuery[] = LONG_ROW_QUERIES,
  sessionId = SESSION,
): Promise<number> {
  let worst = 0;
  for (const [query, mode] of queries) {
    const samples: number[] = [];
    let hits = 0;
    for (let round = 0; round < 33; round += 1) {
      const started = performance.now();
      hits = (await store.search(sessionId, { query, mode, limit: 10 })).hits.length;
      if (round >= 3) samples.push(performance.now() - started);
    }
    const timing = summarize(samples);
    worst = Math.max(worst, timing.p95);
    console.log(
      `${label.padEnd(10)} ${mode.padEnd(7)} "${query}": p50 ${formatMs(timing.p50)} p95 ${formatMs(timing.p95)} (${hits} hits)`,
    );
  }
  return worst;
}

async function analyze(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`ANALYZE "${schema}".ctxwin_rows`);
  } finally {
    await client.end();
  }
}

async function benchSearch(url: string, sentences: readonly string[]): Promise<void> {
  const scale = Number(process.env["CTXWIN_BENCH_SCALE"] ?? 1);
  const spec: SyntheticTranscriptSpec = {
    rows: Math.round(100_000 * scale),
    meanChars: 2_048,
    windowRows: 400,
    seed: 23,
  };
  console.log(
    `\n### search p95 on a ${spec.rows.toLocaleString("en")}-row session (~${spec.meanChars} characters a row; limit 10), SQLite alongside\n`,
  );
  const server = openStore({ url, schema: "bench_search", ...SEEDING });
  const scratch = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-"));
  const file = openStore({ path: path.join(scratch, "search.db"), durability: "normal" });
  try {
    await seed(server, spec, sentences, "PostgreSQL");
    // A live server's autovacuum gathers statistics as rows arrive; the benchmark does not wait for it.
    await analyze(url, "bench_search");
    await seed(file, spec, sentences, "SQLite");
    const postgres = await searchTimings(server, "PostgreSQL");
    const sqlite = await searchTimings(file, "SQLite");
    console.log(
      `slowest query's p95: PostgreSQL ${formatMs(postgres)}, SQLite ${formatMs(sqlite)} (PostgreSQL / SQLite ${formatRatio(postgres / sqlite)})`,
    );
    goal(
      `PostgreSQL search p95 (slowest of the queries) on ${spec.rows.toLocaleString("en")} rows`,
      postgres,
      "<=",
      50,
      formatMs,
    );
  } finally {
    await server.close();
    await file.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The same goal on the essays fixture: 100,000 short rows of three essay sentences each (the
 * embeddings benchmark's rows, `rowOf`), where a ranked query's candidates are read from the word
 * index rather than walked.
 */
async function benchEssaySearch(url: string): Promise<void> {
  const rows = Math.round(100_000 * Number(process.env["CTXWIN_BENCH_SCALE"] ?? 1));
  console.log(
    `\n### search p95 on ${rows.toLocaleString("en")} rows of three essay sentences (limit 10), SQLite alongside\n`,
  );
  const server = openStore({ url, schema: "bench_essays", ...SEEDING });
  const scratch = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-"));
  const file = openStore({ path: path.join(scratch, "essays.db"), durability: "normal" });
  try {
    for (const store of [server, file]) {
      const started = performance.now();
      for (let start = 0; start < rows; start += 10_000) {
        const batch = Array.from({ length: Math.min(10_000, rows - start) }, (_unused, offset) =>
          rowOf(start + offset),
        );
        await store.append(ESSAY_SESSION, batch);
      }
      console.log(
        `  seeded ${store === server ? "PostgreSQL" : "SQLite"} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    }
    await analyze(url, "bench_essays");
    const postgres = await searchTimings(server, "PostgreSQL", ESSAY_QUERIES, ESSAY_SESSION);
    const sqlite = await searchTimings(file, "SQLite", ESSAY_QUERIES, ESSAY_SESSION);
    console.log(
      `slowest query's p95: PostgreSQL ${formatMs(postgres)}, SQLite ${formatMs(sqlite)} (PostgreSQL / SQLite ${formatRatio(postgres / sqlite)})`,
    );
    goal(
      `PostgreSQL search p95 (slowest of the queries) on ${rows.toLocaleString("en")} essay rows`,
      postgres,
      "<=",
      50,
      formatMs,
    );
  } finally {
    await server.close();
    await file.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- writer processes

interface Writer {
  ready: Promise<void>;
  done: Promise<void>;
  go(): void;
}

function startWriter(config: AppendWriterConfig): Writer {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(repositoryRoot, "bench", "append-writer.ts"), JSON.stringify(config)],
    { cwd: repositoryRoot, stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const lines = createInterface({ input: child.stdout });
  const seen = (wanted: string) =>
    new Promise<void>((resolve, reject) => {
      lines.on("line", (line) => line === wanted && resolve());
      child.on("close", (code) =>
        reject(new Error(`append writer exited (${String(code)}) before '${wanted}':\n${stderr}`)),
      );
    });
  return { ready: seen("ready"), done: seen("done"), go: () => child.stdin.end("go\n") };
}

/** Rows per second of `writers` processes appending single rows, each to its own session. */
async function measureWriters(
  store: (writers: number) => AppendWriterConfig["store"],
  writers: number,
  totalAppends: number,
): Promise<number> {
  const appends = Math.round(totalAppends / writers);
  const started = Array.from({ length: writers }, (_unused, index) =>
    startWriter({ store: store(writers), sessionId: `writer-${index}`, appends, seed: index + 1 }),
  );
  await Promise.all(started.map((writer) => writer.ready));
  const before = performance.now();
  for (const writer of started) writer.go();
  await Promise.all(started.map((writer) => writer.done));
  return (appends * writers) / ((performance.now() - before) / 1000);
}

async function benchWriters(url: string): Promise<void> {
  const totalAppends = 1_600;
  console.log(
    `\n### append throughput: ${totalAppends.toLocaleString("en")} single-row appends ` +
      `(~500 characters) by 1, 4 and 16 writer processes, each on its own session\n`,
  );
  const scratch = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-writers-"));
  try {
    const table: string[] = [];
    for (const writers of [1, 4, 16]) {
      const sqlite = await measureWriters(
        (count) => ({ path: path.join(scratch, `writers-${count}.db`) }),
        writers,
        totalAppends,
      );
      const postgres = await measureWriters(
        (count) => ({ url, schema: `bench_writers_${count}` }),
        writers,
        totalAppends,
      );
      table.push(
        `${String(writers).padStart(2)} writers: ` +
          `SQLite (durability full) ${Math.round(sqlite).toLocaleString("en").padStart(6)} rows/s | ` +
          `PostgreSQL (fsync on) ${Math.round(postgres).toLocaleString("en").padStart(6)} rows/s | ` +
          `PostgreSQL / SQLite ${formatRatio(postgres / sqlite)}`,
      );
      console.log(table.at(-1));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- loading the driver

function benchDriverLoad(): void {
  console.log("\n### loading node-postgres in a fresh process (plain node)\n");
  const probe =
    "const kb = () => process.memoryUsage().rss / 1024; const before = kb(); " +
    `const started = performance.now(); await import("pg"); ` +
    "console.log(JSON.stringify({ ms: performance.now() - started, kb: kb() - before }));";
  const samples = Array.from({ length: 10 }, () => {
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", probe], {
      cwd: repositoryRoot,
      encoding: "utf8",
    });
    return JSON.parse(result.stdout) as { ms: number; kb: number };
  });
  const time = summarize(samples.map((sample) => sample.ms));
  const memory = summarize(samples.map((sample) => sample.kb));
  console.log(
    `import("pg"): p50 ${formatMs(time.p50)}, +${(memory.p50 / 1024).toFixed(1)} MB RSS — paid only by processes that open a PostgreSQL store`,
  );
}

// ---------------------------------------------------------------- entry point

export async function runPostgresStoreBench(): Promise<void> {
  const sentences = loadSentences();
  const given = process.env["CTXWIN_BENCH_POSTGRES_URL"];
  const cluster = given === undefined || given === "" ? await startPostgresCluster({ durable: true }) : undefined;
  const url = cluster?.url ?? (given as string);
  const probe: OpenStoreOptions = { url, schema: "bench_probe" };
  const store = openStore(probe);
  await store.lastSeq(SESSION);
  await store.close();
  const version = spawnSync("sh", ["-c", "ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1"], {
    encoding: "utf8",
  }).stdout.trim();
  console.log(
    `machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, ` +
      `load average ${os.loadavg()[0]?.toFixed(1)}; node ${process.version}; ` +
      `${cluster === undefined ? "server from CTXWIN_BENCH_POSTGRES_URL" : `PostgreSQL ${version} on this machine (fsync on, shared_buffers 256MB)`}`,
  );
  try {
    benchDriverLoad();
    await benchWriters(url);
    await benchTurn(url, sentences);
    await benchSearch(url, sentences);
    await benchEssaySearch(url);
  } finally {
    cluster?.stop();
  }
}
