/**
 * Session engine benchmark (issue 6), run with `npm run bench -- session`: ctxwin's own overhead
 * per turn — everything but the model: reading the active window, the budget decision, request
 * assembly, the SDK stream plumbing and persisting the input and the step — measured with an
 * instant mock model, on a session with 1,000,000 rows of history vs one with 1,000 rows.
 * Goals: ratio of the p50s ≤ 1.5, p50 overhead under 5 ms.
 *
 * The big fixture is built once through the public store API from the essays in
 * $CTXWIN_TEST_DATA/haystack and cached under `.bench-cache/`; every run works on a copy.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import type { RowInput } from "../src/core/row.js";
import { openStore } from "../src/store/open-store.js";
import type { HistoryStore } from "../src/store/port.js";
import type { Durability } from "../src/store/sqlite/open-database.js";
import { createSeededRandom, type SeededRandom } from "../src/store/test-support/seeded-random.js";
import { chop, contentRow, rolloverRows, splitSentences } from "../src/store/test-support/synthetic-transcript.js";
import { createAgentSession, type AgentSession } from "../src/session/create-agent-session.js";
import { formatMs, formatRatio, goal, summarize } from "./measure.js";
import { testDataPath } from "../test/test-data.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cacheDirectory = path.join(repositoryRoot, ".bench-cache");
const haystackDirectory = process.env["CTXWIN_BENCH_HAYSTACK"] ?? testDataPath("haystack");
const scale = Number(process.env["CTXWIN_BENCH_SCALE"] ?? 1);
const LARGE_ROWS = Math.round(1_000_000 * scale);
const SMALL_ROWS = 1_000;
const WINDOW_ROWS = 500;
const SESSION = "bench-session";
const FIXTURE_VERSION = 1;

function sentences(): string[] {
  if (!existsSync(haystackDirectory))
    throw new Error(`Essays not found in ${haystackDirectory}; set CTXWIN_TEST_DATA (or CTXWIN_BENCH_HAYSTACK).`);
  const text = readdirSync(haystackDirectory)
    .filter((file) => file.endsWith(".txt") && file !== "LICENSE.txt")
    .sort()
    .map((file) => readFileSync(path.join(haystackDirectory, file), "utf8"))
    .join(" ");
  return splitSentences(text);
}

/** Writes `rows` rows of history (a rollover every 500 rows) through the public API. */
async function writeHistory(
  store: HistoryStore,
  rows: number,
  source: readonly string[],
  random: SeededRandom,
): Promise<void> {
  let pending: RowInput[] = [];
  let windowSeq = 0;
  for (let seq = 1; seq <= rows; seq += 1) {
    if (seq > 1 && (seq - 1) % WINDOW_ROWS === 0 && seq < rows) {
      pending.push(...rolloverRows(`history-${seq}`, windowSeq));
      windowSeq = seq;
      seq += 1;
    } else {
      pending.push(contentRow(chop(source, random, random.integer(60, 240)), random, seq));
    }
    if (pending.length >= 10_000 || seq >= rows) {
      await store.append(SESSION, pending);
      pending = [];
    }
  }
}

/** The large fixture, built once and cached; returns a fresh working copy. */
async function largeFixtureCopy(source: readonly string[], scratch: string): Promise<string> {
  const cached = path.join(cacheDirectory, `session-history-${LARGE_ROWS}-v${FIXTURE_VERSION}.db`);
  if (!existsSync(cached)) {
    mkdirSync(cacheDirectory, { recursive: true });
    console.log(
      `building ${path.basename(cached)} (${LARGE_ROWS.toLocaleString("en")} rows, once; cached afterwards) ...`,
    );
    const started = performance.now();
    const partial = `${cached}.partial`;
    for (const stale of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(stale, { force: true });
    const store = openStore({ path: partial, durability: "normal" });
    await writeHistory(store, LARGE_ROWS, source, createSeededRandom(31));
    await store.close();
    renameSync(partial, cached);
    writeFileSync(`${cached}.json`, JSON.stringify({ rows: LARGE_ROWS }));
    console.log(`  built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  const copy = path.join(scratch, "large.db");
  copyFileSync(cached, copy);
  return copy;
}

/** A model that answers at once: the benchmark measures everything around it. */
function instantModel(): MockLanguageModelV4 {
  const parts: LanguageModelV4StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "Noted; carrying on with the task." },
    { type: "text-end", id: "t" },
    {
      type: "finish",
      finishReason: { unified: "stop", raw: undefined },
      usage: {
        inputTokens: { total: 2_000, noCache: 2_000, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 9, text: 9, reasoning: 0 },
      },
    },
  ];
  return new MockLanguageModelV4({
    provider: "openai.chat",
    modelId: "gpt-4o",
    doStream: async () => ({ stream: convertArrayToReadableStream(parts) }),
  });
}

interface Target {
  label: string;
  store: HistoryStore;
  session: AgentSession;
  samples: number[];
}

function target(label: string, file: string, durability: Durability): Target {
  const store = openStore({ path: file, durability });
  const session = createAgentSession({
    store,
    sessionId: SESSION,
    model: instantModel(),
    system: "You are a careful coding agent.",
    logWarning: () => undefined,
  });
  return { label, store, session, samples: [] };
}

/** Starts a fresh window (outside the timings) so both sessions send from windows of the same size. */
async function freshWindow(subject: Target): Promise<void> {
  const { boundarySeq } = await subject.store.activeWindow(SESSION);
  await subject.store.append(SESSION, rolloverRows(`bench-${performance.now()}-${Math.random()}`, boundarySeq));
}

async function measure(durability: Durability, largeFile: string, smallFile: string): Promise<void> {
  const targets = [
    target(`${LARGE_ROWS.toLocaleString("en")} rows`, largeFile, durability),
    target(`${SMALL_ROWS.toLocaleString("en")} rows`, smallFile, durability),
  ];
  const iterations = 200;
  const warmup = 20;
  try {
    for (const subject of targets) await freshWindow(subject);
    for (let iteration = 0; iteration < warmup + iterations; iteration += 1) {
      // Interleaved, so that noise from the shared machine hits both alike.
      for (const subject of targets) {
        const started = performance.now();
        const result = await subject.session.send(`Step ${iteration}: check the next file and report.`);
        const elapsed = performance.now() - started;
        if (result.status !== "completed")
          throw new Error(`send ${result.status}: ${result.reason ?? result.error?.message}`);
        if (iteration >= warmup) subject.samples.push(elapsed);
        if (iteration % 40 === 39) await freshWindow(subject);
      }
    }
  } finally {
    for (const subject of targets) await subject.store.close();
  }
  const [large, small] = targets.map((subject) => ({ label: subject.label, timing: summarize(subject.samples) }));
  console.log(`\n### Overhead per turn (instant model), durability ${durability}\n`);
  console.log("| history | p50 | p95 | mean |");
  console.log("|---|---|---|---|");
  for (const row of [large!, small!])
    console.log(
      `| ${row.label} | ${formatMs(row.timing.p50)} | ${formatMs(row.timing.p95)} | ${formatMs(row.timing.mean)} |`,
    );
  console.log("");
  goal(
    `p50 ratio ${large!.label} / ${small!.label} (durability ${durability})`,
    large!.timing.p50 / small!.timing.p50,
    "<=",
    1.5,
    formatRatio,
  );
  goal(`p50 overhead on ${large!.label} (durability ${durability})`, large!.timing.p50, "<=", 5, formatMs);
}

export async function run(): Promise<void> {
  const source = sentences();
  const scratch = mkdtempSync(path.join(os.tmpdir(), "ctxwin-session-bench-"));
  try {
    const largeFile = await largeFixtureCopy(source, scratch);
    const smallFile = path.join(scratch, "small.db");
    const small = openStore({ path: smallFile, durability: "normal" });
    await writeHistory(small, SMALL_ROWS, source, createSeededRandom(47));
    await small.close();
    for (const durability of ["full", "normal"] as const) await measure(durability, largeFile, smallFile);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
