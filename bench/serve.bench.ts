/**
 * Web UI HTTP API benchmark (issue 8: "a 100,000-row session opens as fast as a 100-row one"), run
 * with `npm run bench -- serve`. An in-process `startServer` (view-only, no model) on 127.0.0.1
 * serves one real SQLite store in a temp directory holding a 100-row and a 100,000-row session;
 * every request goes through `fetch` with the token as a Bearer header and reads the whole body.
 *
 * Measured per session, interleaved so that noise from the shared machine hits both alike: what
 * opening a session costs the UI (detail, newest page of rows, windows, usage, and the three the
 * UI sends at once, in parallel), one older page from the middle of the session, and the
 * sessions list with both sessions present. Goal: 100,000-row / 100-row ≤ 1.5× on the open path.
 *
 * Both sessions come from the same generator (essays from $CTXWIN_TEST_DATA/haystack chopped into
 * user, assistant and tool rows of ~800 characters, ~200 tokens; a rollover every 450 rows, so
 * ~90,000 tokens per window, as a 128k-token model at a 0.7 threshold would roll over). With 450
 * rows a window, the big session's active window holds its last 100 rows: the same as the small
 * session's, so the comparison is of session size alone. A third session, one full window of 450
 * rows, shows what the active window's size costs on its own.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startServer, type RunningServer } from "../src/server/start-server.js";
import { openStore } from "../src/store/open-store.js";
import {
  splitSentences,
  writeSyntheticTranscript,
  type SyntheticTranscriptSpec,
} from "../src/store/test-support/synthetic-transcript.js";
import { formatMs, formatRatio, goal, summarize, time, type Timing } from "./measure.js";
import { testDataPath } from "../test/test-data.js";

const haystackDirectory = process.env["CTXWIN_BENCH_HAYSTACK"] ?? testDataPath("haystack");
/** CTXWIN_BENCH_SCALE=0.01 shrinks the big session, to try the benchmark quickly (figures then mean little). */
const scale = Number(process.env["CTXWIN_BENCH_SCALE"] ?? 1);
const ITERATIONS = Number(process.env["CTXWIN_BENCH_ITERATIONS"] ?? 40);
const WARMUP = 5;
/** Goal of issue 8 for the open path: big-session time over small-session time. */
const RATIO_GOAL = 1.5;

const SHAPE = { meanChars: 800, windowRows: 450, seed: 11, stepRows: true };
const BIG: SyntheticTranscriptSpec = { ...SHAPE, rows: Math.round(100_000 * scale) };
const SMALL: SyntheticTranscriptSpec = { ...SHAPE, rows: 100 };
const FULL_WINDOW: SyntheticTranscriptSpec = { ...SHAPE, rows: SHAPE.windowRows };
/**
 * Fresh servers whose first open is timed (the window and title caches start empty). 20, not 6:
 * with 6, the first few servers (JIT still cold, whichever session goes first) decided the p50 and
 * the same code gave anything from 0.7× to 2.9×.
 */
const RESTARTS = Number(process.env["CTXWIN_BENCH_RESTARTS"] ?? 20);

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

interface Target {
  label: string;
  sessionId: string;
  rows: number;
}

/** Writes both sessions into `<directory>/.ctxwin/ctxwin.db`, the store `ctxwin serve` opens there. */
async function writeSessions({
  directory,
  targets,
}: {
  directory: string;
  targets: { target: Target; spec: SyntheticTranscriptSpec }[];
}): Promise<void> {
  const sentences = loadSentences();
  const store = openStore({ directory, durability: "normal" });
  try {
    for (const { target, spec } of targets) {
      await writeSyntheticTranscript({
        store,
        sessionId: target.sessionId,
        spec,
        sentences,
        phrases: [],
        plantedPerPhrase: 0,
      });
      target.rows = await store.lastSeq(target.sessionId);
    }
  } finally {
    await store.close();
  }
}

// ---------------------------------------------------------------- requests

function createClient(server: RunningServer) {
  const headers = { authorization: `Bearer ${server.token}` };
  return async function get(pathAndQuery: string): Promise<number> {
    const response = await fetch(`${server.origin}${pathAndQuery}`, { headers });
    const body = await response.text();
    if (!response.ok) throw new Error(`GET ${pathAndQuery} answered ${response.status}: ${body.slice(0, 200)}`);
    return body.length;
  };
}

type Get = ReturnType<typeof createClient>;

interface RequestKind {
  name: string;
  /** Part of what opening a session costs (judged against the ratio goal). */
  openPath: boolean;
  send: (get: Get, target: Target) => Promise<unknown>;
}

const base = (target: Target) => `/api/sessions/${encodeURIComponent(target.sessionId)}`;

/** What the web UI sends at once when a session is opened (session-view.tsx, use-transcript.ts, context-timeline.tsx). */
function openSession(get: Get, target: Target): Promise<unknown> {
  return Promise.all([
    get(base(target)),
    get(`${base(target)}/windows`),
    get(`${base(target)}/rows?limit=100`),
    get(`${base(target)}/timeline`),
  ]);
}

const REQUEST_KINDS: RequestKind[] = [
  { name: "GET /api/sessions/:id", openPath: true, send: (get, target) => get(base(target)) },
  {
    name: "GET …/rows?limit=100 (newest)",
    openPath: true,
    send: (get, target) => get(`${base(target)}/rows?limit=100`),
  },
  { name: "GET …/windows", openPath: true, send: (get, target) => get(`${base(target)}/windows`) },
  { name: "GET …/usage", openPath: true, send: (get, target) => get(`${base(target)}/usage`) },
  {
    name: "GET …/timeline (context timeline, default range)",
    openPath: true,
    send: (get, target) => get(`${base(target)}/timeline`),
  },
  {
    name: "open: detail + windows + newest rows + timeline, in parallel",
    openPath: true,
    send: (get, target) => openSession(get, target),
  },
  // From the middle of the big session; from the end of the small one (its middle has no full page before it).
  {
    name: "GET …/rows?before=middle&limit=100",
    openPath: false,
    send: (get, target) => get(`${base(target)}/rows?before=${Math.max(Math.ceil(target.rows / 2), 101)}&limit=100`),
  },
];

async function timeOnce(body: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await body();
  return performance.now() - started;
}

/** Big and small alternately (each first every other round), `WARMUP` unmeasured rounds then `ITERATIONS` measured. */
async function measurePair(
  send: (target: Target) => Promise<unknown>,
  big: Target,
  small: Target,
): Promise<{ big: Timing; small: Timing }> {
  const samples = new Map<Target, number[]>([
    [big, []],
    [small, []],
  ]);
  for (let iteration = 0; iteration < WARMUP + ITERATIONS; iteration += 1) {
    for (const target of iteration % 2 === 0 ? [big, small] : [small, big]) {
      const elapsed = await timeOnce(() => send(target));
      if (iteration >= WARMUP) samples.get(target)!.push(elapsed);
    }
  }
  return { big: summarize(samples.get(big)!), small: summarize(samples.get(small)!) };
}

/** The first open on `RESTARTS` fresh servers (empty caches), big first on every other one. */
async function measureFirstOpen(
  directory: string,
  big: Target,
  small: Target,
): Promise<{ big: Timing; small: Timing }> {
  const samples = new Map<Target, number[]>([
    [big, []],
    [small, []],
  ]);
  for (let restart = 0; restart < RESTARTS; restart += 1) {
    const server = await startServer({ directory, log: () => {} });
    try {
      const get = createClient(server);
      await get("/api/info");
      for (const target of restart % 2 === 0 ? [big, small] : [small, big])
        samples.get(target)!.push(await timeOnce(() => openSession(get, target)));
    } finally {
      await server.close();
    }
  }
  return { big: summarize(samples.get(big)!), small: summarize(samples.get(small)!) };
}

interface Row {
  name: string;
  big: Timing;
  small: Timing;
  openPath: boolean;
}

function printRow({ name, big, small }: Row): void {
  const cells = [
    formatMs(big.p50),
    formatMs(big.p95),
    formatMs(small.p50),
    formatMs(small.p95),
    formatRatio(big.p50 / small.p50),
    formatRatio(big.p95 / small.p95),
  ];
  console.log(`| ${name} | ${cells.join(" | ")} |`);
}

export async function run(): Promise<void> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "ctxwin-serve-bench-"));
  let server: RunningServer | undefined;
  try {
    const big: Target = { label: `${BIG.rows.toLocaleString("en")} rows`, sessionId: "bench-big", rows: 0 };
    const small: Target = { label: `${SMALL.rows.toLocaleString("en")} rows`, sessionId: "bench-small", rows: 0 };
    const fullWindow: Target = { label: `${FULL_WINDOW.rows} rows`, sessionId: "bench-full-window", rows: 0 };
    const buildStarted = performance.now();
    await writeSessions({
      directory,
      targets: [
        { target: big, spec: BIG },
        { target: small, spec: SMALL },
        { target: fullWindow, spec: FULL_WINDOW },
      ],
    });
    const buildSeconds = (performance.now() - buildStarted) / 1000;
    console.log(
      `machine: ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}; node ${process.version}. ` +
        `Sessions written in ${buildSeconds.toFixed(0)} s: ${big.rows.toLocaleString("en")} rows in ${Math.ceil(big.rows / SHAPE.windowRows)} windows, ` +
        `${small.rows} rows and ${fullWindow.rows} rows in one window each; ~${SHAPE.meanChars} characters a row. ` +
        `${ITERATIONS} iterations after ${WARMUP} warm-up rounds; first opens on ${RESTARTS} fresh servers.\n`,
    );

    const rows: Row[] = [
      {
        name: "first open after start (fresh server)",
        ...(await measureFirstOpen(directory, big, small)),
        openPath: false,
      },
    ];
    server = await startServer({ directory, log: () => {} });
    const get = createClient(server);
    for (const kind of REQUEST_KINDS)
      rows.push({
        name: kind.name,
        ...(await measurePair((target) => kind.send(get, target), big, small)),
        openPath: kind.openPath,
      });
    const usageByWindow = await measurePair((target) => get(`${base(target)}/usage`), fullWindow, small);
    const list = await time(() => get("/api/sessions"), { iterations: ITERATIONS, warmup: WARMUP });

    console.log(`| request | ${big.label} p50 | p95 | ${small.label} p50 | p95 | p50 ratio | p95 ratio |`);
    console.log("|---|---|---|---|---|---|---|");
    for (const row of rows) printRow(row);
    console.log(
      `\nActive window of ${fullWindow.label} (a one-window session) against ${small.label}; list with all three sessions:\n`,
    );
    console.log(`| request | ${fullWindow.label} p50 | p95 | ${small.label} p50 | p95 | p50 ratio | p95 ratio |`);
    console.log("|---|---|---|---|---|---|---|");
    printRow({ name: "GET …/usage", ...usageByWindow, openPath: false });
    console.log(`| GET /api/sessions | ${formatMs(list.p50)} | ${formatMs(list.p95)} | | | | |`);

    const sizes = { big: await get(`${base(big)}/windows`), small: await get(`${base(small)}/windows`) };
    console.log(
      `\nwindows answer: ${(sizes.big / 1000).toFixed(1)} kB for ${big.label}, ${(sizes.small / 1000).toFixed(1)} kB for ${small.label}.\n`,
    );
    for (const row of rows.filter((candidate) => candidate.openPath)) {
      goal(
        `${row.name} p50 ratio, ${big.label} / ${small.label}`,
        row.big.p50 / row.small.p50,
        "<=",
        RATIO_GOAL,
        formatRatio,
      );
      goal(
        `${row.name} p95 ratio, ${big.label} / ${small.label}`,
        row.big.p95 / row.small.p95,
        "<=",
        RATIO_GOAL,
        formatRatio,
      );
    }
  } finally {
    await server?.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
