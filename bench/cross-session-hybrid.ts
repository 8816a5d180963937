/**
 * Hybrid search across sessions against one session's (issue 51, ADR 0105), for
 * `embeddings-sessions`: in the same store, a search without a session id (`searchSessions`, as
 * the MCP tool calls it: 13 hits, 3 per session) is timed interleaved with one session's hybrid
 * search (goal: p50 within 3×), and a row's own text, asked across sessions, must bring that row
 * of its one session among all of them in the first call.
 */
import type { HistoryStore } from "../src/store/port.js";
import { rowOf } from "./embeddings.bench.js";
import { formatMs, formatRatio, goal, timeInterleaved } from "./measure.js";

/**
 * @example await crossSessionHybrid({ label: "SQLite", store, sessions: 1_000, rows: 100, sessionId, queryOf });
 */
export async function crossSessionHybrid({
  label,
  store,
  sessions,
  rows,
  sessionId,
  queryOf,
}: {
  label: string;
  store: HistoryStore;
  sessions: number;
  rows: number;
  sessionId: (index: number) => string;
  queryOf: () => string;
}): Promise<void> {
  let found = 0;
  const probes = 5;
  for (let probe = 0; probe < probes; probe += 1) {
    const session = (probe * 397 + 11) % sessions;
    const seq = 38;
    const part = rowOf(session * rows + seq - 1).parts[0];
    const query = part !== undefined && "text" in part ? String(part.text) : "";
    const page = await store.searchSessions({ query, mode: "hybrid", limit: 13, hitsPerSession: 3 });
    if (page.hits.some((hit) => hit.sessionId === sessionId(session) && hit.row.seq === seq)) found += 1;
  }
  let round = 0;
  const [cross, single] = await timeInterleaved(
    [
      () => store.searchSessions({ query: queryOf(), mode: "hybrid", limit: 13, hitsPerSession: 3 }),
      () => store.search(sessionId((round++ * 337) % sessions), { query: queryOf(), mode: "hybrid", limit: 10 }),
    ],
    { iterations: 100, warmup: 5 },
  );
  if (cross === undefined || single === undefined) throw new Error("no timings");
  console.log(
    `${label}: hybrid across ${sessions.toLocaleString("en")} sessions (one query, ADR 0105): ` +
      `p50 ${formatMs(cross.p50)} p95 ${formatMs(cross.p95)}; one session's hybrid search in the same store: ` +
      `p50 ${formatMs(single.p50)} p95 ${formatMs(single.p95)}; a row's own text found in the first call: ` +
      `${found} of ${probes}`,
  );
  goal(
    `${label}: rows found across sessions in the first call`,
    found / probes,
    ">=",
    1,
    (value) => `${(value * 100).toFixed(0)} %`,
  );
  goal(`${label}: hybrid p50 across sessions / one session's`, cross.p50 / single.p50, "<=", 3, formatRatio);
}
