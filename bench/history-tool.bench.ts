/**
 * session_history benchmark (issue 3), run with `npm run bench -- history-tool`: p50 and p95 of
 * `search` (literal and ranked) and `read_item` called through the tool's `execute`, on a
 * 100,000-row SQLite session with ≥ 200 MB of text, against the same calls on a 1,000-row session.
 * Goals: p95 < 50 ms on the big session, and big p95 within 3× of small p95.
 *
 * The big database is built once through the public store API from the essays in
 * $CTXWIN_TEST_DATA/haystack (user, assistant and tool rows, a rollover every 400 rows, a few rare
 * phrases planted) and cached under `.bench-cache/` keyed by its parameters. The small one is
 * built fresh in a temp directory by the same generator.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { ROW_FORMAT_VERSION } from "../src/core/row.js";
import { openStore } from "../src/store/open-store.js";
import type { HistoryStore } from "../src/store/port.js";
import { STORE_FORMAT_VERSION } from "../src/store/sqlite/schema.js";
import { createSeededRandom, type SeededRandom } from "../src/store/test-support/seeded-random.js";
import { splitSentences, writeSyntheticTranscript } from "../src/store/test-support/synthetic-transcript.js";
import { sessionHistoryTool } from "../src/tools/session-history/session-history-tool.js";
import type { SessionHistoryResult } from "../src/tools/session-history/results.js";
import { formatMs, formatRatio, goal, summarize } from "./measure.js";
import { testDataPath } from "../test/test-data.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cacheDirectory = path.join(repositoryRoot, ".bench-cache");
const haystackDirectory = process.env["CTXWIN_BENCH_HAYSTACK"] ?? testDataPath("haystack");
/** Bump when the way the fixture is generated changes. */
const FIXTURE_VERSION = 1;
const SESSION = "bench";
/** Identifiers planted in a few rows each: what an agent searches for after a rollover. */
const RARE_PHRASES = [
  "kestrel-invoice-4417",
  "migration plan for the ledger",
  "quokka-cache-9902",
  "lighthouse budget review",
];
const PLANTED_PER_PHRASE = 5;
/** CTXWIN_BENCH_SCALE=0.01 shrinks the big fixture, to try the benchmark quickly (figures then mean little). */
const scale = Number(process.env["CTXWIN_BENCH_SCALE"] ?? 1);

interface FixtureSpec {
  rows: number;
  /** Mean characters per content row (uniform from half to 1.5×). */
  meanChars: number;
  windowRows: number;
  seed: number;
}

const BIG: FixtureSpec = { rows: Math.round(100_000 * scale), meanChars: 2_300, windowRows: 400, seed: 31 };
const SMALL: FixtureSpec = { rows: 1_000, meanChars: 2_300, windowRows: 400, seed: 31 };

function loadSentences(): string[] {
  if (!existsSync(haystackDirectory))
    throw new Error(`Essays not found in ${haystackDirectory}; set CTXWIN_TEST_DATA (or CTXWIN_BENCH_HAYSTACK).`);
  const text = readdirSync(haystackDirectory)
    .filter((file) => file.endsWith(".txt") && file !== "LICENSE.txt")
    .sort()
    .map((file) => readFileSync(path.join(haystackDirectory, file), "utf8"))
    .join(" ");
  return splitSentences(text);
}

/** Writes the fixture's rows into `store`, 10,000 per append; returns the bytes of text. */
async function writeFixture(store: HistoryStore, spec: FixtureSpec, sentences: readonly string[]): Promise<number> {
  return writeSyntheticTranscript({
    store,
    sessionId: SESSION,
    spec,
    sentences,
    phrases: RARE_PHRASES,
    plantedPerPhrase: PLANTED_PER_PHRASE,
  });
}

interface Fixture {
  file: string;
  rows: number;
  textBytes: number;
}

async function ensureBigFixture(sentences: readonly string[]): Promise<Fixture> {
  const key = createHash("sha256")
    .update(
      JSON.stringify({
        BIG,
        FIXTURE_VERSION,
        STORE_FORMAT_VERSION,
        ROW_FORMAT_VERSION,
        RARE_PHRASES,
        PLANTED_PER_PHRASE,
      }),
    )
    .digest("hex")
    .slice(0, 12);
  const file = path.join(cacheDirectory, `history-tool-${BIG.rows}-${key}.db`);
  const stats = `${file}.json`;
  if (existsSync(stats))
    return { file, ...(JSON.parse(readFileSync(stats, "utf8")) as { rows: number; textBytes: number }) };
  mkdirSync(cacheDirectory, { recursive: true });
  console.log(`building ${path.basename(file)} (${BIG.rows.toLocaleString("en")} rows, once; cached afterwards) ...`);
  const started = performance.now();
  const partial = `${file}.partial`;
  for (const stale of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(stale, { force: true });
  const store = openStore({ path: partial, durability: "normal" });
  const textBytes = await writeFixture(store, BIG, sentences);
  const rows = await store.lastSeq(SESSION);
  await store.close();
  renameSync(partial, file);
  writeFileSync(stats, JSON.stringify({ rows, textBytes }));
  console.log(
    `  built in ${((performance.now() - started) / 1000).toFixed(0)} s: ` +
      `${(statSync(file).size / 1e6).toFixed(0)} MB on disk, ${(textBytes / 1e6).toFixed(0)} MB of text`,
  );
  return { file, rows, textBytes };
}

// ---------------------------------------------------------------- measuring

type HistoryTool = ReturnType<typeof sessionHistoryTool>;

interface Target {
  label: string;
  tool: HistoryTool;
  /** Readable item ids to pick read_item targets from. */
  itemIds: string[];
}

async function execute(
  tool: HistoryTool,
  input: Record<string, unknown>,
): Promise<Extract<SessionHistoryResult, { ok: true }>> {
  const result = (await tool.execute!(input, {
    toolCallId: "bench",
    messages: [],
    context: {},
  })) as SessionHistoryResult;
  if (!result.ok) throw new Error(`benchmark call failed: ${result.error.message}`);
  return result;
}

/** Readable item ids of a session, gathered through the tool itself (list_items paging). */
async function sampleItemIds(tool: HistoryTool, rows: number, random: SeededRandom): Promise<string[]> {
  const ids: string[] = [];
  for (let sample = 0; sample < 60; sample += 1) {
    const result = await execute(tool, {
      action: "list_items",
      after_item: String(random.integer(0, Math.max(0, rows - 10))),
      limit: 5,
    });
    if (result.action === "list_items") ids.push(...result.items.map((item) => item.item_id));
  }
  return ids;
}

interface CallKind {
  name: string;
  input: (target: Target, iteration: number, random: SeededRandom) => Record<string, unknown>;
  /** Measured calls (default 200, after 20 warm-up calls; a tenth of them when fewer are given). */
  iterations?: number;
}

/** Queries an agent might send after a rollover: planted identifiers and phrases, and common essay words. */
const LITERAL_RARE = RARE_PHRASES;
const LITERAL_COMMON = ["the best startups", "investors", "hacker news", "programming language"];
const RANKED_RARE = ["kestrel invoice", "quokka cache", "lighthouse budget review", "ledger migration"];
const RANKED_COMMON = ["startup investors funding", "programming language design", "investors", "founders"];

/** Bad queries (ADR 0051): punctuation without a trigram, and stop words whose trigrams every row holds. */
const LITERAL_PUNCTUATION = ["~~", "?!", "}{", "#@"];
const LITERAL_STOP_WORDS = ["the the the", "and the of to", "to be or not to be", "it is what it is"];

const cycle = (queries: readonly string[]) => (iteration: number) => queries[iteration % queries.length]!;

const CALL_KINDS: CallKind[] = [
  {
    name: "search literal, rare phrase",
    input: (_target, iteration) => ({ action: "search", query: cycle(LITERAL_RARE)(iteration), mode: "literal" }),
  },
  {
    name: "search literal, common words",
    input: (_target, iteration) => ({ action: "search", query: cycle(LITERAL_COMMON)(iteration), mode: "literal" }),
  },
  {
    name: "search ranked, rare words",
    input: (_target, iteration) => ({ action: "search", query: cycle(RANKED_RARE)(iteration), mode: "ranked" }),
  },
  {
    name: "search ranked, common words",
    input: (_target, iteration) => ({ action: "search", query: cycle(RANKED_COMMON)(iteration), mode: "ranked" }),
  },
  // Filters (ADR 0033): a filtered search reads the rows it filters, at most the 500 scored rows when ranked.
  {
    name: "search ranked, common words, newest first",
    input: (_target, iteration) => ({
      action: "search",
      query: cycle(RANKED_COMMON)(iteration),
      mode: "ranked",
      order: "newest",
    }),
  },
  {
    name: "search ranked, common words, role user",
    input: (_target, iteration) => ({
      action: "search",
      query: cycle(RANKED_COMMON)(iteration),
      mode: "ranked",
      role: "user",
    }),
  },
  {
    name: "search ranked, common words, absent tool",
    input: (_target, iteration) => ({
      action: "search",
      query: cycle(RANKED_COMMON)(iteration),
      mode: "ranked",
      tool_name: "grep",
    }),
  },
  {
    name: "search literal, common words, tool read_file",
    input: (_target, iteration) => ({
      action: "search",
      query: cycle(LITERAL_COMMON)(iteration),
      mode: "literal",
      tool_name: "read_file",
    }),
  },
  {
    name: "search literal, common words, role user",
    input: (_target, iteration) => ({
      action: "search",
      query: cycle(LITERAL_COMMON)(iteration),
      mode: "literal",
      role: "user",
    }),
  },
  {
    name: "search literal, common words, absent tool",
    input: (_target, iteration) => ({
      action: "search",
      query: cycle(LITERAL_COMMON)(iteration),
      mode: "literal",
      tool_name: "grep",
    }),
  },
  {
    name: "search literal, rare phrase, absent tool",
    input: (_target, iteration) => ({
      action: "search",
      query: cycle(LITERAL_RARE)(iteration),
      mode: "literal",
      tool_name: "grep",
    }),
  },
  {
    name: "read_item",
    input: (target, _iteration, random) => ({
      action: "read_item",
      item_id: target.itemIds[random.integer(0, target.itemIds.length - 1)],
    }),
  },
  // Bad queries (ADR 0051): before the literal scan bound each read every row of the session.
  {
    name: "search literal, punctuation only",
    input: (_target, iteration) => ({
      action: "search",
      query: cycle(LITERAL_PUNCTUATION)(iteration),
      mode: "literal",
    }),
    iterations: 40,
  },
  {
    name: "search literal, stop words only",
    input: (_target, iteration) => ({ action: "search", query: cycle(LITERAL_STOP_WORDS)(iteration), mode: "literal" }),
    iterations: 40,
  },
];

async function benchCalls(big: Target, small: Target): Promise<void> {
  const random = createSeededRandom(7);
  console.log(`| call | ${big.label} p50 | p95 | ${small.label} p50 | p95 | p95 ratio |`);
  console.log("|---|---|---|---|---|---|");
  const figures: { name: string; p95: number; ratio: number }[] = [];
  for (const kind of CALL_KINDS) {
    const iterations = kind.iterations ?? 200;
    const warmup = Math.ceil(iterations / 10);
    const samples = new Map<Target, number[]>([
      [big, []],
      [small, []],
    ]);
    for (let iteration = 0; iteration < warmup + iterations; iteration += 1) {
      // Interleaved, so that noise from the shared machine hits both sessions alike.
      for (const target of [big, small]) {
        const input = kind.input(target, iteration, random);
        const started = performance.now();
        await execute(target.tool, input);
        if (iteration >= warmup) samples.get(target)!.push(performance.now() - started);
      }
    }
    const bigTiming = summarize(samples.get(big)!);
    const smallTiming = summarize(samples.get(small)!);
    const ratio = bigTiming.p95 / smallTiming.p95;
    console.log(
      `| ${kind.name} | ${formatMs(bigTiming.p50)} | ${formatMs(bigTiming.p95)} | ` +
        `${formatMs(smallTiming.p50)} | ${formatMs(smallTiming.p95)} | ${formatRatio(ratio)} |`,
    );
    figures.push({ name: kind.name, p95: bigTiming.p95, ratio });
  }
  console.log("");
  for (const { name, p95, ratio } of figures) {
    goal(`${name} p95, ${big.label}`, p95, "<=", 50, formatMs);
    goal(`${name} p95 ratio, ${big.label} / ${small.label}`, ratio, "<=", 3, formatRatio);
  }
}

export async function run(): Promise<void> {
  const sentences = loadSentences();
  const bigFixture = await ensureBigFixture(sentences);
  const scratch = mkdtempSync(path.join(os.tmpdir(), "ctxwin-history-tool-bench-"));
  try {
    const smallStore = openStore({ path: path.join(scratch, "small.db"), durability: "normal" });
    const smallText = await writeFixture(smallStore, SMALL, sentences);
    const bigStore = openStore({ path: bigFixture.file });
    console.log(
      `machine: ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}; node ${process.version}. ` +
        `Big session: ${bigFixture.rows.toLocaleString("en")} rows, ` +
        `${(bigFixture.textBytes / 1e6).toFixed(0)} MB of text; ` +
        `small: ${(await smallStore.lastSeq(SESSION)).toLocaleString("en")} rows, ` +
        `${(smallText / 1e6).toFixed(1)} MB.\n`,
    );
    const random = createSeededRandom(3);
    const bigTool = sessionHistoryTool({ store: bigStore, sessionId: SESSION });
    const smallTool = sessionHistoryTool({ store: smallStore, sessionId: SESSION });
    const big: Target = {
      label: `${bigFixture.rows.toLocaleString("en")} rows`,
      tool: bigTool,
      itemIds: await sampleItemIds(bigTool, bigFixture.rows, random),
    };
    const small: Target = {
      label: "1,000 rows",
      tool: smallTool,
      itemIds: await sampleItemIds(smallTool, SMALL.rows, random),
    };
    await benchCalls(big, small);
    await bigStore.close();
    await smallStore.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
