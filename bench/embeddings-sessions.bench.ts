/**
 * Hybrid search of one session in a PostgreSQL store of many sessions (issue 51, ADR 0096),
 * `npm run bench -- embeddings-sessions`: 1,000 sessions × 100 embedded rows share one pgvector
 * table and its HNSW index; each search asks one of them (a different one each time). Its p95 is
 * compared with the same search on a store holding one session of 100 rows, interleaved (goal:
 * within 2×). Also printed: what the HNSW index alone answers for such a session (the plan the
 * planner may pick: forced here with `enable_sort = off`), its time and how many of the wanted
 * chunks it finds; and the store's own hybrid search with the planner pushed so for the whole
 * database, with a check that the semantic top 10 is still the exact one.
 * The model is the benchmark's offline dense one (`denseModel`, 384 dimensions); rows are cut from
 * the essays as in the embeddings benchmark. `CTXWIN_BENCH_EMBED_SESSIONS=200` changes the session
 * count. PostgreSQL: a throwaway durable cluster (test/postgres-cluster.ts, pgvector installed on
 * the server), or `--store <postgres url>`: a database of its own on that server
 * (`ctxwin_bench_embed_sessions`, or `CTXWIN_BENCH_EMBED_DATABASE`), whose seeded schemas later runs reuse. The HNSW index is
 * built after the backfill (dropped after the first write, created again with the same
 * definition): the bulk load a fleet's import is, and minutes faster than inserting into the graph.
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import { openStore } from "../src/store/open-store.js";
import type { HistoryStore } from "../src/store/port.js";
import { startPostgresCluster } from "../test/postgres-cluster.js";
import { denseModel, rowOf, settle, vectorOf } from "./embeddings.bench.js";
import { cosineSimilarity } from "../src/store/embeddings/vector-index.js";
import { formatMs, formatRatio, goal, time, timeInterleaved, type Timing } from "./measure.js";
import { crossSessionHybrid } from "./cross-session-hybrid.js";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const DIMENSIONS = 384;
const ROWS = 100;
const QUERY_WORDS = "deploy login database budget palette latency schema token window search cache agent".split(" ");

function sessionCount(): number {
  const given = Number(process.env["CTXWIN_BENCH_EMBED_SESSIONS"]);
  return Number.isInteger(given) && given > 0 ? given : 1_000;
}

/** `--backend sqlite`: the cross-session figures on a SQLite file (the sign cache) instead of PostgreSQL. */
function backendFlag(): string {
  const flag = process.argv.indexOf("--backend");
  return flag < 0 ? "postgres" : (process.argv[flag + 1] ?? "postgres");
}

function storeFlag(): string | undefined {
  const flag = process.argv.indexOf("--store");
  return flag < 0 ? undefined : process.argv[flag + 1];
}

const sessionId = (index: number) => `session-${index}`;

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** The model's vector table in `schema` (the benchmark embeds with one model). */
async function vectorTable(client: pg.Client, schema: string): Promise<string> {
  const found = await client.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 AND tablename LIKE 'ctxwin\\_embeddings\\_%'",
    [schema],
  );
  const name = found.rows[0]?.name;
  if (name === undefined) throw new Error(`no vector table in ${schema}`);
  return name;
}

/** A database of its own on the server of `--store` (`CTXWIN_BENCH_EMBED_DATABASE` names another), created once. */
async function benchDatabase(serverUrl: string): Promise<string> {
  const name = process.env["CTXWIN_BENCH_EMBED_DATABASE"] ?? "ctxwin_bench_embed_sessions";
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`CTXWIN_BENCH_EMBED_DATABASE: not a plain database name: ${name}`);
  await withClient(serverUrl, async (client) => {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Whether `schema` holds `sessions` sessions embedded through row `ROWS` (a finished seed). */
async function seeded(url: string, schema: string, sessions: number): Promise<boolean> {
  return withClient(url, async (client) => {
    const table = await client.query("SELECT to_regclass($1) AS found", [`"${schema}".ctxwin_embedding_progress`]);
    if (table.rows[0]?.found == null) return false;
    const done = await client.query<{ count: string }>(
      `SELECT count(*) AS count FROM "${schema}".ctxwin_embedding_progress WHERE through_seq >= $1`,
      [ROWS],
    );
    return Number(done.rows[0]?.count) === sessions;
  });
}

/** `sessions` sessions of `ROWS` rows each, embedded, the HNSW index built after the backfill. */
async function seed(url: string, schema: string, sessions: number): Promise<void> {
  if (await seeded(url, schema, sessions)) {
    console.log(`  ${schema}: seeded by an earlier run, reused`);
    return;
  }
  await withClient(url, (client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
  const started = performance.now();
  const writer = openStore({ url, schema });
  for (let session = 0; session < sessions; session += 1)
    await writer.append(
      sessionId(session),
      Array.from({ length: ROWS }, (_, row) => rowOf(session * ROWS + row)),
    );
  await writer.close();
  const appended = performance.now();
  const store = openStore({ url, schema, embeddings: { model: denseModel(DIMENSIONS), batchSize: 512 } });
  // The first session's write creates the table and its index; the index is built again after the rest.
  await store.embeddings?.backfill({ sessionIds: [sessionId(0)] });
  const index = await withClient(url, async (client) => {
    const found = await client.query<{ indexname: string; indexdef: string }>(
      "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND indexdef ILIKE '%USING hnsw%'",
      [schema],
    );
    const definition = found.rows[0];
    if (definition === undefined) throw new Error(`no HNSW index in ${schema}`);
    await client.query(`DROP INDEX "${schema}"."${definition.indexname}"`);
    return definition.indexdef;
  });
  await store.embeddings?.backfill();
  await store.close();
  const embedded = performance.now();
  await withClient(url, async (client) => {
    await client.query("SET maintenance_work_mem = '256MB'");
    await client.query(index);
  });
  await settle(url, schema);
  const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(0);
  console.log(
    `  ${schema}: ${(sessions * ROWS).toLocaleString("en")} rows appended in ${seconds(started, appended)} s, ` +
      `embedded in ${seconds(appended, embedded)} s, indexed and analyzed in ${seconds(embedded, performance.now())} s`,
  );
}

/**
 * What the HNSW index answers for one small session of the shared table when the planner picks
 * it (forced with `enable_sort = off`): the query the index issued before ADR 0096, with its settings.
 */
async function hnswAlone(url: string, schema: string, sessions: number): Promise<{ ms: number[]; found: number[] }> {
  return withClient(url, async (client) => {
    const table = await vectorTable(client, schema);
    const ms: number[] = [];
    const found: number[] = [];
    for (let probe = 0; probe < 5; probe += 1) {
      const vector = `[${vectorOf(`probe ${probe}`, DIMENSIONS).join(",")}]`;
      await client.query("BEGIN");
      await client.query(
        "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', '60', true)",
      );
      await client.query("SET LOCAL enable_sort = off");
      const started = performance.now();
      const rows = await client.query(
        `SELECT seq FROM "${schema}"."${table}" WHERE session_id = $2 AND seq > 0
         ORDER BY embedding <=> $1::vector LIMIT 60`,
        [vector, sessionId(Math.floor((probe * sessions) / 5))],
      );
      ms.push(performance.now() - started);
      found.push(rows.rowCount ?? 0);
      await client.query("COMMIT");
    }
    return { ms, found };
  });
}

/**
 * Searches of the shared table with the planner pushed to the HNSW index for the whole database
 * (`enable_sort = off`, standing for stale statistics), reset afterwards: semantic p50/p95 over 60
 * searches (not hybrid: word search's own plans suffer from the setting too), and for 10 sessions
 * whether the semantic top 10 is the exact one (cosine over the session's stored vectors).
 */
async function plannerPushed(
  url: string,
  schema: string,
  sessions: number,
  queryOf: () => string,
): Promise<{ timing: Timing; checked: number; exact: number }> {
  const database = new URL(url).pathname.slice(1);
  // jit off: the setting's penalty on every sorting plan's cost would otherwise start JIT
  // compilation (~150 ms a query).
  await withClient(url, async (client) => {
    await client.query(`ALTER DATABASE "${database}" SET enable_sort = off`);
    await client.query(`ALTER DATABASE "${database}" SET jit = off`);
  });
  const store = openStore({ url, schema, embeddings: { model: denseModel(DIMENSIONS) } });
  try {
    let probe = 0;
    const timing = await time(
      () => store.search(sessionId((probe++ * 337) % sessions), { query: queryOf(), mode: "semantic", limit: 10 }),
      { iterations: 60, warmup: 3 },
    );
    let exact = 0;
    const checked = 10;
    for (let index = 0; index < checked; index += 1) {
      const id = sessionId(Math.floor((index * sessions) / checked));
      const query = `exact probe ${index}`;
      const page = await store.search(id, { query, mode: "semantic", limit: 10 });
      const expected = await exactTop(url, schema, id, query);
      if (page.hits.map((hit) => hit.row.seq).join() === expected.join()) exact += 1;
    }
    return { timing, checked, exact };
  } finally {
    await store.close();
    await withClient(url, async (client) => {
      await client.query(`ALTER DATABASE "${database}" RESET enable_sort`);
      await client.query(`ALTER DATABASE "${database}" RESET jit`);
    });
  }
}

/** The 10 rows of `id` nearest to `query`, by cosine over every stored vector of the session (in JavaScript). */
async function exactTop(url: string, schema: string, id: string, query: string): Promise<number[]> {
  const queryVector = Float32Array.from(vectorOf(query, DIMENSIONS));
  const rows = await withClient(url, async (client) => {
    const table = await vectorTable(client, schema);
    return (
      await client.query<{ seq: string; embedding: string }>(
        `SELECT seq, embedding::text AS embedding FROM "${schema}"."${table}" WHERE session_id = $1`,
        [id],
      )
    ).rows;
  });
  const best = new Map<number, number>();
  for (const row of rows) {
    const similarity = cosineSimilarity(queryVector, Float32Array.from(JSON.parse(row.embedding) as number[]));
    const seq = Number(row.seq);
    best.set(seq, Math.max(best.get(seq) ?? -2, similarity));
  }
  return [...best.entries()]
    .sort((left, right) => right[1] - left[1])
    .slice(0, 10)
    .map(([seq]) => seq);
}

/**
 * The cross-session figures on SQLite: a file of `sessions` × `ROWS` rows in the system's temporary
 * folder, embedded once and reused by later runs.
 */
async function runSqlite(sessions: number, queryOf: () => string): Promise<void> {
  const folder = path.join(tmpdir(), `ctxwin-bench-embed-sessions-${sessions}x${ROWS}_${DIMENSIONS}`);
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, "ctxwin.db");
  const embeddings = { model: denseModel(DIMENSIONS), batchSize: 512 };
  const store = openStore({ path: file, embeddings });
  try {
    if ((await store.sessions()).length !== sessions) {
      const started = performance.now();
      for (let session = 0; session < sessions; session += 1)
        await store.append(
          sessionId(session),
          Array.from({ length: ROWS }, (_, row) => rowOf(session * ROWS + row)),
        );
      await store.embeddings?.idle();
      await store.embeddings?.backfill();
      console.log(`  ${file}: seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    } else console.log(`  ${file}: seeded by an earlier run, reused`);
    await crossSessionHybrid({ label: "SQLite", store, sessions, rows: ROWS, sessionId, queryOf });
  } finally {
    await store.close();
  }
}

export async function run(): Promise<void> {
  const sessions = sessionCount();
  if (backendFlag() === "sqlite") {
    let sqliteRound = 0;
    return runSqlite(
      sessions,
      () =>
        `${QUERY_WORDS[sqliteRound % QUERY_WORDS.length]} ${QUERY_WORDS[(sqliteRound++ * 5 + 3) % QUERY_WORDS.length]}`,
    );
  }
  const given = storeFlag();
  const cluster = given === undefined ? await startPostgresCluster({ durable: true }) : undefined;
  try {
    const url = cluster?.url ?? (await benchDatabase(given as string));
    const many = `bench_embed_sessions_${sessions}x${ROWS}_${DIMENSIONS}`;
    const one = `bench_embed_sessions_1x${ROWS}_${DIMENSIONS}`;
    await seed(url, one, 1);
    await seed(url, many, sessions);
    const manyStore = openStore({ url, schema: many, embeddings: { model: denseModel(DIMENSIONS) } });
    const oneStore = openStore({ url, schema: one, embeddings: { model: denseModel(DIMENSIONS) } });
    let round = 0;
    const queryOf = () =>
      `${QUERY_WORDS[round % QUERY_WORDS.length]} ${QUERY_WORDS[(round * 5 + 3) % QUERY_WORDS.length]}`;
    const search = (store: HistoryStore, id: string) =>
      store.search(id, { query: queryOf(), mode: "hybrid", limit: 10 });
    const [manyTiming, oneTiming] = await timeInterleaved(
      [() => search(manyStore, sessionId((round++ * 337) % sessions)), () => search(oneStore, sessionId(0))],
      { iterations: 200, warmup: 10 },
    );
    await crossSessionHybrid({
      label: "PostgreSQL",
      store: manyStore,
      sessions,
      rows: ROWS,
      sessionId,
      queryOf: () => {
        round += 1;
        return queryOf();
      },
    });
    await manyStore.close();
    await oneStore.close();
    const alone = await hnswAlone(url, many, sessions);
    const pushed = await plannerPushed(url, many, sessions, queryOf);
    if (manyTiming === undefined || oneTiming === undefined) throw new Error("no timings");
    console.log(
      `hybrid, one session of ${ROWS} rows among ${sessions.toLocaleString("en")} ` +
        `(${(sessions * ROWS).toLocaleString("en")} rows, ${DIMENSIONS} dims): ` +
        `p50 ${formatMs(manyTiming.p50)} p95 ${formatMs(manyTiming.p95)}; ` +
        `one-session store: p50 ${formatMs(oneTiming.p50)} p95 ${formatMs(oneTiming.p95)} ` +
        `(p50 ${formatRatio(manyTiming.p50 / oneTiming.p50)})`,
    );
    console.log(
      "  the planner pushed to the HNSW index (enable_sort = off and jit = off for the database, " +
        `standing for stale statistics): semantic p50 ${formatMs(pushed.timing.p50)} ` +
        `p95 ${formatMs(pushed.timing.p95)}; semantic top 10 of ${pushed.checked} sessions: ${pushed.exact} exact`,
    );
    console.log(
      `  the HNSW index alone for such a session (enable_sort = off, ef_search 60, iterative scan): ` +
        `${alone.ms.map(formatMs).join(", ")}; chunks found of 60 wanted: ${alone.found.join(", ")}`,
    );
    goal(
      `hybrid p95, one session among ${sessions.toLocaleString("en")} / one-session store`,
      manyTiming.p95 / oneTiming.p95,
      "<=",
      2,
      formatRatio,
    );
  } finally {
    cluster?.stop();
  }
}
