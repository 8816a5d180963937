/**
 * History store benchmarks (issue 2), run with `npm run bench -- store`. Figures are ratios
 * measured in the same run, on the SQLite backend (`--backend postgres`: store-postgres.ts):
 * - activeWindow + one append on a 1,000,000-row session vs a 1,000-row one (goal ≤ 1.5×);
 * - literal search for a rare phrase over ≥ 200 MB of text vs `grep -F -i -c` on a JSONL export
 *   of the same rows (goal ≥ 20× faster per query);
 * - append throughput, single rows and 100-row batches, durability `full` and `normal`;
 * - peak RSS of a fresh process (plain node on the store compiled by tsc) that opens and searches
 *   the 1,000,000-row session (goal ≤ 150 MB).
 *
 * Big fixtures are built once through the public store API (10,000 rows per append) from the
 * essays in $CTXWIN_TEST_DATA/haystack, and cached under `.bench-cache/` keyed by their parameters.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { ROW_FORMAT_VERSION } from "../src/core/row.js";
import { openStore } from "../src/store/open-store.js";
import { STORE_FORMAT_VERSION } from "../src/store/sqlite/schema.js";
import { statementSql } from "../src/store/sqlite/statements.js";
import { createSeededRandom } from "../src/store/test-support/seeded-random.js";
import { chop, contentRow, writeSyntheticTranscript } from "../src/store/test-support/synthetic-transcript.js";
import { formatMs, formatRatio, goal, summarize, time } from "./measure.js";
import { loadSentences } from "./haystack.js";
import { compareWindowTurn } from "./window-turn.js";
import { runPostgresStoreBench } from "./store-postgres.js";

const thisFile = fileURLToPath(import.meta.url);
const repositoryRoot = path.resolve(path.dirname(thisFile), "..");
const cacheDirectory = path.join(repositoryRoot, ".bench-cache");
/** Bump when the way fixtures are generated changes. */
const FIXTURE_VERSION = 1;
const SESSION = "bench";
/** Rare phrases planted in a few rows: an identifier, and common words in a rare order. */
const RARE_PHRASES = ["quokka-ledger-7781", "we should have bought the lighthouse"];
const PLANTED_PER_PHRASE = 5;

interface FixtureSpec {
  name: string;
  rows: number;
  /** Mean characters of text per row (uniform from half to 1.5×). */
  meanChars: number;
  /** A rollover boundary every this many rows. */
  windowRows: number;
  seed: number;
  jsonl: boolean;
}

interface Fixture {
  file: string;
  jsonl: string;
  textBytes: number;
  rows: number;
}

/** CTXWIN_BENCH_SCALE=0.01 shrinks the fixtures, to try the benchmark quickly (figures then mean little). */
const scale = Number(process.env["CTXWIN_BENCH_SCALE"] ?? 1);
const HISTORY: FixtureSpec = {
  name: "history",
  rows: Math.round(1_000_000 * scale),
  meanChars: 160,
  windowRows: 500,
  seed: 11,
  jsonl: false,
};
const SEARCH: FixtureSpec = {
  name: "search",
  rows: Math.round(105_000 * scale),
  meanChars: 2_048,
  windowRows: 400,
  seed: 23,
  jsonl: true,
};

// ---------------------------------------------------------------- fixtures

function fixturePaths(spec: FixtureSpec): { file: string; jsonl: string; stats: string } {
  const key = createHash("sha256")
    .update(
      JSON.stringify({
        spec,
        FIXTURE_VERSION,
        STORE_FORMAT_VERSION,
        ROW_FORMAT_VERSION,
        RARE_PHRASES,
        PLANTED_PER_PHRASE,
      }),
    )
    .digest("hex")
    .slice(0, 12);
  const base = path.join(cacheDirectory, `store-${spec.name}-${spec.rows}-${key}`);
  return { file: `${base}.db`, jsonl: `${base}.jsonl`, stats: `${base}.json` };
}

/** Builds (or finds in the cache) a one-session database; the stats file marks it complete. */
async function ensureFixture(spec: FixtureSpec, sentences: readonly string[]): Promise<Fixture> {
  const paths = fixturePaths(spec);
  if (existsSync(paths.stats))
    return {
      file: paths.file,
      jsonl: paths.jsonl,
      ...(JSON.parse(readFileSync(paths.stats, "utf8")) as { textBytes: number; rows: number }),
    };
  mkdirSync(cacheDirectory, { recursive: true });
  console.log(
    `building ${path.basename(paths.file)} (${spec.rows.toLocaleString("en")} rows, once; cached afterwards) ...`,
  );
  const started = performance.now();
  const partial = `${paths.file}.partial`;
  for (const stale of [partial, `${partial}-wal`, `${partial}-shm`, `${paths.jsonl}.partial`])
    rmSync(stale, { force: true });
  const store = openStore({ path: partial, durability: "normal" });
  const jsonl = spec.jsonl ? openSync(`${paths.jsonl}.partial`, "w") : undefined;
  const textBytes = await writeSyntheticTranscript({
    store,
    sessionId: SESSION,
    spec,
    sentences,
    phrases: RARE_PHRASES,
    plantedPerPhrase: PLANTED_PER_PHRASE,
    onBatch: (stored) => {
      if (jsonl !== undefined) writeSync(jsonl, `${stored.map((row) => JSON.stringify(row)).join("\n")}\n`);
    },
  });
  const rows = await store.lastSeq(SESSION);
  await store.close();
  if (jsonl !== undefined) {
    closeSync(jsonl);
    renameSync(`${paths.jsonl}.partial`, paths.jsonl);
  }
  renameSync(partial, paths.file);
  writeFileSync(paths.stats, JSON.stringify({ textBytes, rows }));
  console.log(
    `  built in ${((performance.now() - started) / 1000).toFixed(0)} s: ${megabytes(statSync(paths.file).size)} on disk, ${megabytes(textBytes)} of text`,
  );
  return { file: paths.file, jsonl: paths.jsonl, textBytes, rows };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(0)} MB`;
}

function printPlan(file: string, label: string, sql: string, parameters: unknown[]): void {
  const db = new Database(file, { readonly: true });
  try {
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[];
    console.log(`  query plan (${label}): ${plan.map((step) => step.detail).join(" | ")}`);
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------- activeWindow + append

async function benchActiveWindow(history: Fixture, sentences: readonly string[]): Promise<void> {
  console.log(
    `\n### activeWindow + append one row: ${history.rows.toLocaleString("en")}-row session vs 1,000-row session (durability full)\n`,
  );
  const random = createSeededRandom(5);
  const scratch = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-"));
  const small = openStore({ path: path.join(scratch, "small.db") });
  for (let written = 0; written < 1_000; written += 100) {
    await small.append(
      SESSION,
      Array.from({ length: 100 }, (_unused, index) =>
        contentRow(chop(sentences, random, 160), random, written + index),
      ),
    );
  }
  const large = openStore({ path: history.file });
  const headline = await compareWindowTurn({
    long: { label: `${history.rows.toLocaleString("en")} rows`, store: large, sessionId: SESSION },
    short: { label: "1,000 rows (own file)", store: small, sessionId: SESSION },
    sentences,
    random,
  });
  goal(
    `activeWindow + append, ${history.rows.toLocaleString("en")}-row / 1,000-row session (p50)`,
    headline,
    "<=",
    1.5,
    formatRatio,
  );
  if (headline > 1.5) {
    printPlan(history.file, "activeWindow rows", statementSql.rowsFrom, [1, 1]);
    printPlan(history.file, "window", statementSql.window, [1, 1]);
  }
  await large.close();
  await small.close();
  rmSync(scratch, { recursive: true, force: true });
}

// ---------------------------------------------------------------- literal search vs grep

function grepCount(file: string, phrase: string): { count: number; milliseconds: number } {
  const started = performance.now();
  const result = spawnSync("grep", ["-F", "-i", "-c", phrase, file], {
    encoding: "utf8",
    env: { ...process.env, LC_ALL: "C" },
  });
  const milliseconds = performance.now() - started;
  if (result.status !== 0 && result.status !== 1) throw new Error(`grep failed: ${result.stderr}`);
  return { count: Number(result.stdout.trim()), milliseconds };
}

async function benchSearch(search: Fixture): Promise<void> {
  console.log(
    `\n### literal search vs grep -F -i -c: ` +
      `${megabytes(search.textBytes)} of text in ${search.rows.toLocaleString("en")} rows; ` +
      `JSONL export ${megabytes(statSync(search.jsonl).size)}\n`,
  );
  const store = openStore({ path: search.file });
  for (const phrase of RARE_PHRASES) {
    // Interleaved rounds (one grep, five searches), so that noise from the shared machine hits
    // both alike; the first round warms the caches and is not counted.
    const ctxwinSamples: number[] = [];
    const grepSamples: number[] = [];
    let hits = 0;
    let grepHits = 0;
    for (let round = 0; round < 7; round += 1) {
      const { count, milliseconds } = grepCount(search.jsonl, phrase);
      grepHits = count;
      if (round > 0) grepSamples.push(milliseconds);
      for (let repeat = 0; repeat < 5; repeat += 1) {
        const started = performance.now();
        hits = (await store.search(SESSION, { query: phrase, mode: "literal", limit: 10 })).hits.length;
        if (round > 0) ctxwinSamples.push(performance.now() - started);
      }
    }
    const ctxwin = summarize(ctxwinSamples);
    const grep = summarize(grepSamples);
    console.log(
      `"${phrase}": ctxwin p50 ${formatMs(ctxwin.p50)} p95 ${formatMs(ctxwin.p95)} (${hits} hits) | grep p50 ${formatMs(grep.p50)} (${grepHits} lines)`,
    );
    if (hits !== PLANTED_PER_PHRASE || grepHits !== PLANTED_PER_PHRASE)
      console.log(`  WARNING: expected ${PLANTED_PER_PHRASE} matches from both`);
    const speedup = grep.p50 / ctxwin.p50;
    goal(`literal search "${phrase}" speed-up over grep (p50)`, speedup, ">=", 20, formatRatio);
    if (speedup < 20)
      printPlan(search.file, "searchLiteral", statementSql.searchLiteral, [
        `"${phrase}"`,
        1,
        0,
        Number.MAX_SAFE_INTEGER,
        null,
        null,
      ]);
  }
  const context: [string, "literal" | "ranked"][] = [
    ["startup", "literal"],
    ["lighthouse bought", "ranked"],
    ["startup founders", "ranked"],
  ];
  for (const [query, mode] of context) {
    const timing = await time(() => store.search(SESSION, { query, mode, limit: 10 }), { iterations: 5, warmup: 1 });
    console.log(`for context, ${mode} "${query}" (limit 10): p50 ${formatMs(timing.p50)}`);
  }
  await store.close();
}

// ---------------------------------------------------------------- append throughput

async function benchAppendThroughput(sentences: readonly string[]): Promise<void> {
  console.log("\n### append throughput (fresh database, ~500-character rows)\n");
  const random = createSeededRandom(9);
  const rowsPerSecond: Record<string, number> = {};
  for (const durability of ["full", "normal"] as const) {
    for (const [label, calls, size] of [
      ["single rows", 1_000, 1],
      ["100-row batches", 100, 100],
    ] as const) {
      const scratch = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-"));
      const store = openStore({ path: path.join(scratch, "throughput.db"), durability });
      const batches = Array.from({ length: calls + 10 }, (_unused, call) =>
        Array.from({ length: size }, (_unused2, index) =>
          contentRow(chop(sentences, random, 500), random, call * size + index),
        ),
      );
      const samples: number[] = [];
      for (const [call, batch] of batches.entries()) {
        const started = performance.now();
        await store.append(SESSION, batch);
        if (call >= 10) samples.push(performance.now() - started);
      }
      await store.close();
      rmSync(scratch, { recursive: true, force: true });
      const timing = summarize(samples);
      const rate = (calls * size) / (samples.reduce((sum, value) => sum + value, 0) / 1000);
      rowsPerSecond[`${durability} ${label}`] = rate;
      console.log(
        `${durability.padEnd(6)} ${label.padEnd(15)} ${Math.round(rate).toLocaleString("en").padStart(8)} rows/s | ` +
          `per append p50 ${formatMs(timing.p50)} p95 ${formatMs(timing.p95)}`,
      );
    }
  }
  const rate = (key: string) => rowsPerSecond[key] ?? Number.NaN;
  console.log(
    `ratios: normal/full single ${formatRatio(rate("normal single rows") / rate("full single rows"))}, ` +
      `batch ${formatRatio(rate("normal 100-row batches") / rate("full 100-row batches"))}; ` +
      `batched/single rows per second, full ${formatRatio(rate("full 100-row batches") / rate("full single rows"))}`,
  );
}

// ---------------------------------------------------------------- peak RSS (fresh process)

/**
 * The store compiled to JavaScript (tsc, no type check), cached by the hash of its sources, so
 * that the RSS probe runs on plain node as a product would, without the tsx loader's memory.
 */
function compiledStore(): string {
  const sources = ["src/core", "src/store"].flatMap((directory) =>
    readdirSync(path.join(repositoryRoot, directory), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
      .sort()
      .map((file) => readFileSync(path.join(repositoryRoot, directory, file))),
  );
  const hash = createHash("sha256");
  for (const source of sources) hash.update(source);
  const output = path.join(cacheDirectory, `compiled-store-${hash.digest("hex").slice(0, 12)}`);
  const entry = path.join(output, "store", "open-store.js");
  if (existsSync(entry)) return entry;
  rmSync(`${output}.partial`, { recursive: true, force: true });
  const typescript = path.join(repositoryRoot, "node_modules", "typescript", "bin", "tsc");
  const compile = spawnSync(
    process.execPath,
    [
      typescript,
      "src/store/open-store.ts",
      "--outDir",
      `${output}.partial`,
      "--rootDir",
      "src",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--target",
      "es2022",
      "--noCheck",
      "--skipLibCheck",
      "--types",
      "node",
    ],
    { cwd: repositoryRoot, encoding: "utf8" },
  );
  if (compile.status !== 0)
    throw new Error(`compiling the store for the RSS probe failed:\n${compile.stdout}${compile.stderr}`);
  renameSync(`${output}.partial`, output);
  return entry;
}

interface RssReport {
  bareKb: number;
  beforeOpenKb: number;
  peakKb: number;
  peakWasReset: boolean;
  hits: number;
}

/** Runs in a fresh `node` (no tsx): open the session, read the active window, search in every mode. */
const rssProbe = `
import { readFileSync, writeFileSync } from "node:fs";
const kb = (field) => Number(new RegExp("^" + field + ":\\\\s+(\\\\d+) kB", "m").exec(readFileSync("/proc/self/status", "utf8"))[1]);
const bareKb = kb("VmRSS");
const [storeModule, file, session, phrases] = process.argv.slice(1);
const { openStore } = await import(storeModule);
const beforeOpenKb = kb("VmRSS");
let peakWasReset = true;
try { writeFileSync("/proc/self/clear_refs", "5"); } catch { peakWasReset = false; } // VmHWM := current RSS
const store = openStore({ path: file });
await store.activeWindow(session);
await store.windows(session, { limit: 50 });
let hits = 0;
for (const phrase of JSON.parse(phrases)) hits += (await store.search(session, { query: phrase, mode: "literal", limit: 10 })).hits.length;
await store.search(session, { query: "startup", mode: "literal", limit: 25 });
await store.search(session, { query: "lighthouse bought", mode: "ranked", limit: 25 });
await store.search(session, { query: "startup founders", mode: "ranked", limit: 25 });
await store.close();
console.log(JSON.stringify({ bareKb, beforeOpenKb, peakKb: kb("VmHWM"), peakWasReset, hits }));
`;

function benchPeakRss(history: Fixture): void {
  console.log(
    `\n### peak RSS: fresh process opens and searches the ${history.rows.toLocaleString("en")}-row session\n`,
  );
  const storeModule = pathToFileURL(compiledStore()).href;
  const result = spawnSync(
    process.execPath,
    ["--input-type=module", "-e", rssProbe, storeModule, history.file, SESSION, JSON.stringify(RARE_PHRASES)],
    {
      cwd: repositoryRoot,
      encoding: "utf8",
    },
  );
  if (result.status !== 0) throw new Error(`RSS probe failed: ${result.stderr}`);
  const report = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as RssReport;
  const inMb = (kilobytes: number) => `${(kilobytes / 1024).toFixed(0)} MB`;
  console.log(
    `plain node on the compiled store: bare ${inMb(report.bareKb)}, ` +
      `modules loaded ${inMb(report.beforeOpenKb)}, peak while opening + searching ${inMb(report.peakKb)}` +
      `${report.peakWasReset ? "" : " [VmHWM could not be reset: the peak includes start-up]"}; ${report.hits} rare-phrase hits`,
  );
  console.log(`store's own share (peak − RSS before opening): ${inMb(report.peakKb - report.beforeOpenKb)}`);
  goal(
    `peak RSS opening + searching the ${history.rows.toLocaleString("en")}-row session`,
    report.peakKb / 1024,
    "<=",
    150,
    (value) => `${value.toFixed(0)} MB`,
  );
}

// ---------------------------------------------------------------- entry points

export async function run(): Promise<void> {
  const backend = process.argv[process.argv.indexOf("--backend") + 1];
  if (process.argv.includes("--backend") && backend !== "sqlite") {
    if (backend !== "postgres") throw new Error(`--backend must be sqlite or postgres; got ${String(backend)}`);
    await runPostgresStoreBench();
    return;
  }
  const sentences = loadSentences();
  const history = await ensureFixture(HISTORY, sentences);
  const search = await ensureFixture(SEARCH, sentences);
  console.log(
    `machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, load average ${os.loadavg()[0]?.toFixed(1)}; node ${process.version}`,
  );
  await benchActiveWindow(history, sentences);
  await benchSearch(search);
  await benchAppendThroughput(sentences);
  benchPeakRss(history);
}
