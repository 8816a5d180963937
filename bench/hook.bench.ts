/**
 * `npm run bench -- hook` (issue 31): how long `ctxwin hook session-start` takes to answer —
 * the whole command as a coding CLI runs it (a new node process, the hook's JSON on stdin) — on
 * a store with 1,000 sessions and 1,000,000 rows, when the session's transcript (a Claude Code
 * compaction, src/import/fixtures/claude-code-session.jsonl) is imported for the first time and
 * when nothing is new. Baselines, same run: `node -e 0`, `ctxwin --version` (the full CLI
 * starting; the hook loads only its own command), and the same hook on a store holding only
 * that session.
 * Goal: p50 of the hook on the large store under 1 s.
 *
 * The large store is built once through the public store API from the essays in
 * $CTXWIN_TEST_DATA/haystack and cached under `.bench-cache/`; every run works on a copy.
 * `CTXWIN_BENCH_SCALE=0.1` (or `--rows n`) builds a smaller one. Needs `dist/` (`npm run build`).
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { RowInput } from "../src/core/row.js";
import { openStore } from "../src/store/open-store.js";
import { createSeededRandom } from "../src/store/test-support/seeded-random.js";
import { chop, contentRow } from "../src/store/test-support/synthetic-transcript.js";
import { loadSentences } from "./haystack.js";
import { formatMs, formatRatio, goal, summarize } from "./measure.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cacheDirectory = path.join(repositoryRoot, ".bench-cache");
const binary = path.join(repositoryRoot, "dist", "cli", "main.js");
const fixture = path.join(repositoryRoot, "src", "import", "fixtures", "claude-code-session.jsonl");
const SESSION = "5f0c2a9e-7d3b-4c1e-9a44-2b8e6f1d0c37";
const rowsFlag = process.argv.indexOf("--rows");
const ROWS =
  rowsFlag === -1
    ? Math.round(1_000_000 * Number(process.env["CTXWIN_BENCH_SCALE"] ?? 1))
    : Number(process.argv[rowsFlag + 1]);
const SESSIONS = Math.max(1, Math.min(1_000, Math.floor(ROWS / 100)));
const RUNS = 9;
const FIXTURE_VERSION = 1;

/** The large store: `SESSIONS` imported-looking sessions, `ROWS` rows in all; built once. */
async function largeStore(scratch: string): Promise<string> {
  const cached = path.join(cacheDirectory, `hook-store-${ROWS}-${SESSIONS}-v${FIXTURE_VERSION}.db`);
  if (!existsSync(cached)) {
    mkdirSync(cacheDirectory, { recursive: true });
    console.log(
      `building ${path.basename(cached)} (${SESSIONS.toLocaleString("en")} sessions, ${ROWS.toLocaleString("en")} rows, once; cached afterwards) ...`,
    );
    const started = performance.now();
    const partial = `${cached}.partial`;
    for (const stale of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(stale, { force: true });
    const store = openStore({ path: partial, durability: "normal" });
    const sentences = loadSentences();
    const random = createSeededRandom(31);
    const perSession = Math.floor(ROWS / SESSIONS);
    for (let session = 0; session < SESSIONS; session += 1) {
      const rows: RowInput[] = [];
      const count = session === SESSIONS - 1 ? ROWS - perSession * (SESSIONS - 1) : perSession;
      for (let seq = 1; seq <= count; seq += 1)
        rows.push(contentRow(chop(sentences, random, random.integer(60, 240)), random, seq));
      await store.append(`claude-code:00000000-0000-4000-8000-${String(session).padStart(12, "0")}`, rows);
    }
    await store.close();
    renameSync(partial, cached);
    console.log(`  built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  const copy = path.join(scratch, "large.db");
  copyFileSync(cached, copy);
  return copy;
}

function runCommand(
  args: readonly string[],
  stdin: string,
  program: readonly string[] = [binary],
): Promise<{ ms: number; status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...program, ...args], { env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (status) => resolve({ ms: performance.now() - started, status, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** The hook on `database`: first run imports the transcript, the others find nothing new. */
async function hookRuns(database: string, transcript: string): Promise<{ first: number; repeats: number[] }> {
  const input = JSON.stringify({
    session_id: SESSION,
    transcript_path: transcript,
    cwd: "/home/dev/shop-api",
    hook_event_name: "SessionStart",
    source: "compact",
  });
  const args = ["hook", "session-start", "--client", "claude-code", "--store", database];
  const runs: number[] = [];
  for (let run = 0; run <= RUNS; run += 1) {
    const result = await runCommand(args, input);
    if (result.status !== 0 || !result.stdout.includes("additionalContext") || result.stderr !== "") {
      throw new Error(`the hook did not answer as expected: status ${result.status}, stderr ${result.stderr.trim()}`);
    }
    runs.push(result.ms);
  }
  return { first: runs[0] ?? Number.NaN, repeats: runs.slice(1) };
}

export async function run(): Promise<void> {
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run 'npm run build' first.`);
  const scratch = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-hook-"));
  try {
    const large = await largeStore(scratch);
    const transcript = path.join(scratch, `${SESSION}.jsonl`);
    copyFileSync(fixture, transcript);

    const nodeStart: number[] = [];
    const startup: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      nodeStart.push((await runCommand(["0"], "", ["-e"])).ms);
      startup.push((await runCommand(["--version"], "")).ms);
    }
    const small = await hookRuns(path.join(scratch, "small.db"), transcript);
    const big = await hookRuns(large, transcript);

    const nodeP50 = summarize(nodeStart).p50;
    const startupP50 = summarize(startup).p50;
    const smallP50 = summarize(small.repeats).p50;
    const bigP50 = summarize(big.repeats).p50;
    console.log(
      `store: ${SESSIONS.toLocaleString("en")} sessions, ${ROWS.toLocaleString("en")} rows; ${RUNS} runs each`,
    );
    console.log(
      `baselines: node -e 0 p50 ${formatMs(nodeP50)}; ctxwin --version (the full CLI starting) p50 ${formatMs(startupP50)}`,
    );
    console.log(
      `hook, store holding only the session: first (imports) ${formatMs(small.first)}, then p50 ${formatMs(smallP50)}`,
    );
    console.log(
      `hook, large store: first (imports) ${formatMs(big.first)}, then p50 ${formatMs(bigP50)}, p95 ${formatMs(summarize(big.repeats).p95)}`,
    );
    console.log(
      `large store / small store (p50): ${formatRatio(bigP50 / smallP50)}; hook minus node's start on the large store: ${formatMs(bigP50 - nodeP50)}`,
    );
    goal("hook p50 on the large store", bigP50, "<=", 1_000, formatMs);
    goal("hook first run (import) on the large store", big.first, "<=", 1_000, formatMs);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
