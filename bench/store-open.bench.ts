/**
 * Cost of the damage check every store open runs (ADR 0020), `npm run bench -- store-open`.
 * On a 1 GiB ctxwin file (CTXWIN_BENCH_OPEN_MIB to change it) it compares, in the same run:
 * - baseline: `openStore` + `close` of a small store (a few hundred KiB, fully checked);
 * - `openStore` + `close` of the big file (the bounded check: schema, both edges of every
 *   B-tree, search indexes), goal ≤ 2× the baseline: the check's cost does not grow with the file;
 * - a bare better-sqlite3 open that reads the header pragmas, for scale;
 * - SQLite's `quick_check` of every page, which the open runs only on files up to 32 MiB.
 * The file is built with rows written straight into the schema (search indexes filled for a
 * small part), which is enough for the check's cost: it depends on tree depth, not on content.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { openStore } from "../src/store/open-store.js";
import { FULL_CHECK_MAX_BYTES } from "../src/store/sqlite/open-check.js";
import { formatMs, formatRatio, goal, time } from "./measure.js";

const MIB = 1024 * 1024;
const BODY_BYTES = 48 * 1024;

export async function run(): Promise<void> {
  const targetMib = Number(process.env["CTXWIN_BENCH_OPEN_MIB"] ?? 1024);
  const directory = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-open-"));
  try {
    const file = path.join(directory, "ctxwin.db");
    const built = performance.now();
    buildFile(file, targetMib);
    const size = statSync(file).size;
    console.log(`fixture: ${(size / MIB).toFixed(0)} MiB, built in ${formatMs(performance.now() - built)}`);

    const small = path.join(directory, "small.db");
    buildFile(small, 0.25);
    const storeOpenOf = (target: string) => async () => {
      const store = openStore({ path: target });
      await store.close();
    };
    const baseline = await time(storeOpenOf(small), { iterations: 30, warmup: 3 });
    const bare = await time(
      () => {
        const db = new Database(file, { readonly: true });
        db.pragma("application_id", { simple: true });
        db.pragma("user_version", { simple: true });
        db.close();
      },
      { iterations: 30, warmup: 3 },
    );
    const storeOpen = await time(storeOpenOf(file), { iterations: 30, warmup: 3 });
    const quickCheck = await time(
      () => {
        const db = new Database(file, { readonly: true });
        db.pragma("quick_check(1)", { simple: true });
        db.close();
      },
      { iterations: 1, warmup: 0 },
    );
    console.log(`openStore + close, small store (baseline): p50 ${formatMs(baseline.p50)}`);
    console.log(
      `openStore + close, big file (bounded):     p50 ${formatMs(storeOpen.p50)}  ${formatRatio(storeOpen.p50 / baseline.p50)} of baseline`,
    );
    console.log(
      `bare better-sqlite3 open, big file:        p50 ${formatMs(bare.p50)}  ${formatRatio(bare.p50 / baseline.p50)} of baseline`,
    );
    console.log(
      `full quick_check of the big file (not run on open): ${formatMs(quickCheck.p50)}  ${formatRatio(quickCheck.p50 / baseline.p50)} of baseline`,
    );
    goal("checked open, big file vs small store (p50)", storeOpen.p50 / baseline.p50, "<=", 2, formatRatio);
    console.log(`files up to ${FULL_CHECK_MAX_BYTES / MIB} MiB also get the full quick_check on open`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

function buildFile(file: string, targetMib: number): void {
  const store = openStore({ path: file, durability: "normal" });
  void store.close();
  const db = new Database(file);
  db.pragma("synchronous = OFF");
  const rows = Math.ceil((targetMib * MIB) / BODY_BYTES);
  const sessions = 20;
  const insertSession = db.prepare(
    "INSERT INTO ctxwin_sessions (session_id, incarnation, last_seq, created_at, updated_at) VALUES (?, 'bench', ?, 'then', 'then')",
  );
  const insertRow = db.prepare(
    "INSERT INTO ctxwin_rows (session_key, seq, window_seq, visible, body) VALUES (?, ?, 0, 1, ?)",
  );
  const insertWindow = db.prepare(
    "INSERT INTO ctxwin_windows (session_key, window_seq, kind, first_seq, last_seq, row_count, " +
      "visible_count, started_at, ended_at) VALUES (?, 0, 'start', 1, ?, ?, ?, 'then', 'then')",
  );
  const insertWords = db.prepare("INSERT INTO ctxwin_search_words (rowid, text) VALUES (?, ?)");
  const perSession = Math.ceil(rows / sessions);
  const filler = "lorem ipsum dolor sit amet ".repeat(Math.ceil(BODY_BYTES / 27)).slice(0, BODY_BYTES);
  db.transaction(() => {
    for (let session = 1; session <= sessions; session += 1) {
      insertSession.run(`s${session}`, perSession);
      insertWindow.run(session, perSession, perSession, perSession);
    }
    for (let seq = 1; seq <= perSession; seq += 1) {
      for (let session = 1; session <= sessions; session += 1) {
        const body = JSON.stringify({
          v: 1,
          id: `r${session}-${seq}`,
          role: "user",
          parts: [{ type: "text", text: filler }],
          createdAt: "2026-01-01T00:00:00.000Z",
        });
        const key = insertRow.run(session, seq, body).lastInsertRowid;
        if (seq % 50 === 0) insertWords.run(key, `row ${seq} of session ${session}`);
      }
    }
  })();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}
