/**
 * Cross-session search at fleet size (`npm run bench -- fleet`, issue 51, ADR 0089): a store of
 * many small sessions, searched across sessions in one call (`store.searchSessions`, the query
 * behind MCP `search` without `session_id`, the web's `?q=` and `ctxwin history search`).
 * `--backend sqlite|postgres` runs one backend (default: both); PostgreSQL runs on a throwaway
 * durable cluster (test/postgres-cluster.ts) or CTXWIN_BENCH_POSTGRES_URL. Goals:
 * - a phrase in one old session among 5,000 (SQLite) or 1,000 (PostgreSQL) sessions of 20 rows is
 *   found in the first call of the MCP tool;
 * - cross-session p50 within 3× a single-session search in the same store (same run, interleaved);
 * - at 10,000 sessions × 100 rows (1,000,000 rows; CTXWIN_BENCH_SCALE scales the session count),
 *   cross-session literal and ranked p95 ≤ 100 ms (SQLite) / ≤ 150 ms (PostgreSQL), with the
 *   single-session figures of the same store printed beside them;
 * - the same for cross-session searches with a role or tool filter or `order: "newest"` (ADR 0093),
 *   which are part of the one query too: one row in twenty calls the `Grep` tool.
 * `--at-scale-only` skips the first goal's smaller stores. SQLite stores are seeded with
 * `durability: "normal"` (no sync per commit; searches do not write),
 * one append of a whole session at a time.
 * CTXWIN_BENCH_REUSE_FLEET=1 with CTXWIN_BENCH_POSTGRES_URL keeps the PostgreSQL fleets between runs:
 * a schema that already holds the fleet is searched as it is (seeding 1,000,000 rows takes ~20 min).
 * A fleet seeded before the `Grep` rows were added has none: drop its schema once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startPostgresCluster } from "../test/postgres-cluster.js";
import { openStore, type OpenStoreOptions } from "../src/store/open-store.js";
import type { HistoryStore } from "../src/store/port.js";
import type { RowInput } from "../src/core/row.js";
import type { CrossSearchOptions } from "../src/store/port.js";
import { createSeededRandom } from "../src/store/test-support/seeded-random.js";
import { createStoreHistory } from "../src/tools/session-catalog/store-history.js";
import type { SearchSessionsResult } from "../src/tools/session-catalog/catalog-results.js";
import { loadSentences } from "./haystack.js";
import { formatMs, formatRatio, goal, timeInterleaved } from "./measure.js";

const PHRASE = "quokka ledger 7781 moved to the lighthouse";
const LITERAL_QUERIES = ["quokka ledger 7781", "lighthouse", "startup founders", "we should have"];
const RANKED_QUERIES = ["quokka ledger", "lighthouse bought", "startup founders", "investors funding startup"];
/** Cross-session searches with a filter or an order (ADR 0093): the query, its mode, and the filter. */
const FILTERED_SEARCHES: { query: string; mode: "literal" | "ranked"; filter: Partial<CrossSearchOptions> }[] = [
  { query: "lighthouse", mode: "literal", filter: { role: "user" } },
  { query: "startup founders", mode: "literal", filter: { toolName: "grep" } },
  { query: "quokka ledger 7781", mode: "literal", filter: { role: "assistant" } },
  { query: "investors funding startup", mode: "ranked", filter: { role: "assistant" } },
  { query: "lighthouse bought", mode: "ranked", filter: { toolName: "grep" } },
  { query: "startup founders", mode: "ranked", filter: { order: "newest" } },
];
/** Every twentieth row (an assistant's) calls this tool besides its text. */
const TOOL_ROW_EVERY = 20;

type Backend = "sqlite" | "postgres";

function backends(): Backend[] {
  const flag = process.argv.indexOf("--backend");
  const chosen = flag >= 0 ? process.argv[flag + 1] : undefined;
  return chosen === "sqlite" || chosen === "postgres" ? [chosen] : ["sqlite", "postgres"];
}

/** Sessions of `rowsPerSession` rows each, oldest first; the phrase in the first (oldest) session's middle row. */
async function seedFleet(
  store: HistoryStore,
  { sessions, rowsPerSession, sentences }: { sessions: number; rowsPerSession: number; sentences: readonly string[] },
): Promise<void> {
  const random = createSeededRandom(51);
  const sentence = () => sentences[random.integer(0, sentences.length - 1)] ?? "";
  const started = performance.now();
  for (let index = 0; index < sessions; index += 1) {
    const rows: RowInput[] = [];
    for (let seq = 1; seq <= rowsPerSession; seq += 1) {
      const text =
        index === 0 && seq === Math.ceil(rowsPerSession / 2)
          ? `${sentence()} ${PHRASE}.`
          : `${sentence()} ${sentence()}`;
      const parts: RowInput["parts"] = [{ type: "text", text }];
      if (seq % TOOL_ROW_EVERY === 0)
        parts.push({
          type: "tool-Grep",
          toolCallId: `grep-${index}-${seq}`,
          state: "output-available",
          input: { pattern: sentence().split(" ").slice(0, 2).join(" ") },
          output: "3 matches",
        });
      rows.push({ role: seq % 2 === 1 ? "user" : "assistant", parts });
    }
    await store.append(`fleet-${String(index).padStart(5, "0")}`, rows);
    if ((index + 1) % 1_000 === 0 && index + 1 < sessions)
      console.log(
        `  … ${(index + 1).toLocaleString("en")} sessions in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`  seeded ${sessions.toLocaleString("en")} sessions × ${rowsPerSession} rows in ${seconds.toFixed(0)} s`);
}

/** PostgreSQL with CTXWIN_BENCH_REUSE_FLEET=1: the schema already holds the fleet of an earlier run (same seed). */
async function reusedFleet(backend: Backend, store: HistoryStore, sessions: number): Promise<boolean> {
  if (backend !== "postgres" || process.env["CTXWIN_BENCH_REUSE_FLEET"] !== "1") return false;
  const found = (await store.sessions()).length;
  if (found === sessions) console.log(`  reused the ${sessions.toLocaleString("en")} sessions of an earlier run`);
  else if (found > 0) throw new Error(`The schema holds ${found} sessions, not ${sessions}: drop it first.`);
  return found === sessions;
}

async function withStore<T>(
  backend: Backend,
  url: string | undefined,
  schema: string,
  work: (store: HistoryStore) => Promise<T>,
): Promise<T> {
  const directory = backend === "sqlite" ? mkdtempSync(path.join(os.tmpdir(), "ctxwin-fleet-")) : undefined;
  const options: OpenStoreOptions =
    directory !== undefined
      ? { path: path.join(directory, "ctxwin.db"), durability: "normal" }
      : { url: url as string, schema };
  const store = openStore(options);
  try {
    return await work(store);
  } finally {
    await store.close();
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  }
}

async function findInFirstCall(backend: Backend, url: string | undefined, sentences: readonly string[]): Promise<void> {
  const sessions = backend === "sqlite" ? 5_000 : 1_000;
  await withStore(backend, url, "fleet_find", async (store) => {
    if (!(await reusedFleet(backend, store, sessions)))
      await seedFleet(store, { sessions, rowsPerSession: 20, sentences });
    const history = createStoreHistory({ store });
    const started = performance.now();
    const result = (await history.execute({ action: "search", query: "quokka ledger 7781" })) as SearchSessionsResult;
    const ms = performance.now() - started;
    const found = result.ok && result.results.some((group) => group.session_id === "fleet-00000");
    console.log(
      `${found ? "PASS" : "MISS"}  ${backend}: ` +
        `phrase in the oldest of ${sessions.toLocaleString("en")} sessions found in the first MCP call: ` +
        `${found} (${formatMs(ms)})`,
    );
    // The phrase is in an assistant row (an even seq): with a role filter, the same one call finds it.
    const filtered = (await history.execute({
      action: "search",
      query: "quokka ledger 7781",
      role: "assistant",
    })) as SearchSessionsResult;
    const foundFiltered = filtered.ok && filtered.results.some((group) => group.session_id === "fleet-00000");
    console.log(
      `${foundFiltered ? "PASS" : "MISS"}  ${backend}: the same with role 'assistant', ` +
        `in the first MCP call: ${foundFiltered}`,
    );
    const single = () => store.search("fleet-00000", { query: "quokka ledger 7781", mode: "literal" });
    const across = () => store.searchSessions({ query: "quokka ledger 7781", mode: "literal" });
    const singleRanked = () => store.search("fleet-00000", { query: "quokka ledger", mode: "ranked" });
    const acrossRanked = () => store.searchSessions({ query: "quokka ledger", mode: "ranked" });
    const [singleTime, acrossTime, singleRankedTime, acrossRankedTime] = await timeInterleaved(
      [single, across, singleRanked, acrossRanked],
      { iterations: 30, warmup: 3 },
    );
    for (const [label, one, all] of [
      ["literal", singleTime, acrossTime],
      ["ranked", singleRankedTime, acrossRankedTime],
    ] as const) {
      console.log(`  ${label}: single-session p50 ${formatMs(one!.p50)}, cross-session p50 ${formatMs(all!.p50)}`);
      goal(
        `${backend} ${label} cross-session p50 / single-session p50 (${sessions.toLocaleString("en")} sessions)`,
        all!.p50 / one!.p50,
        "<=",
        3,
        formatRatio,
      );
    }
  });
}

async function atScale(backend: Backend, url: string | undefined, sentences: readonly string[]): Promise<void> {
  const sessions = Math.round(10_000 * Number(process.env["CTXWIN_BENCH_SCALE"] ?? 1));
  const target = backend === "sqlite" ? 100 : 150;
  await withStore(backend, url, "fleet_scale", async (store) => {
    if (!(await reusedFleet(backend, store, sessions)))
      await seedFleet(store, { sessions, rowsPerSession: 100, sentences });
    const one = `fleet-${String(Math.floor(sessions / 2)).padStart(5, "0")}`;
    for (const [mode, queries] of [
      ["literal", LITERAL_QUERIES],
      ["ranked", RANKED_QUERIES],
    ] as const) {
      let worstAcross = 0;
      for (const query of queries) {
        const [single, across] = await timeInterleaved(
          [() => store.search(one, { query, mode }), () => store.searchSessions({ query, mode })],
          { iterations: 20, warmup: 2 },
        );
        const page = await store.searchSessions({ query, mode });
        console.log(
          `  ${mode} "${query}": single-session p50 ${formatMs(single!.p50)} p95 ${formatMs(single!.p95)}; ` +
            `cross-session p50 ${formatMs(across!.p50)} p95 ${formatMs(across!.p95)} (${page.hits.length} hits${page.partial === true ? ", partial" : ""})`,
        );
        worstAcross = Math.max(worstAcross, across!.p95);
      }
      goal(
        `${backend} cross-session ${mode} slowest p95 at ${sessions.toLocaleString("en")} sessions × 100 rows`,
        worstAcross,
        "<=",
        target,
        formatMs,
      );
    }
    let worstFiltered = 0;
    for (const { query, mode, filter } of FILTERED_SEARCHES) {
      const [single, across] = await timeInterleaved(
        [() => store.search(one, { query, mode, ...filter }), () => store.searchSessions({ query, mode, ...filter })],
        { iterations: 20, warmup: 2 },
      );
      const page = await store.searchSessions({ query, mode, ...filter });
      console.log(
        `  ${mode} "${query}" ${JSON.stringify(filter)}: ` +
          `single-session p50 ${formatMs(single!.p50)} p95 ${formatMs(single!.p95)}; ` +
          `cross-session p50 ${formatMs(across!.p50)} p95 ${formatMs(across!.p95)} ` +
          `(${page.hits.length} hits${page.partial === true ? ", partial" : ""})`,
      );
      worstFiltered = Math.max(worstFiltered, across!.p95);
    }
    goal(
      `${backend} cross-session filtered or ordered slowest p95 ` +
        `at ${sessions.toLocaleString("en")} sessions × 100 rows`,
      worstFiltered,
      "<=",
      target,
      formatMs,
    );
  });
}

export async function run(): Promise<void> {
  const sentences = loadSentences();
  console.log(
    `machine: ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)}; node ${process.version}`,
  );
  for (const backend of backends()) {
    const given = process.env["CTXWIN_BENCH_POSTGRES_URL"];
    const cluster =
      backend === "postgres" && (given === undefined || given === "")
        ? await startPostgresCluster({ durable: true })
        : undefined;
    const url = backend === "postgres" ? (cluster?.url ?? given) : undefined;
    try {
      console.log(`\n### ${backend}`);
      // `--at-scale-only`: the full-size store alone (its seeding takes the most time).
      if (!process.argv.includes("--at-scale-only")) await findInFirstCall(backend, url, sentences);
      await atScale(backend, url, sentences);
    } finally {
      cluster?.stop();
    }
  }
}
