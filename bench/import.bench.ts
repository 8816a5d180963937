/**
 * `npm run bench -- import`: 5,000 Claude Code session files (20 lines each: prompt, reasoning,
 * tool call and result, answer) imported into a fresh store, then imported again (nothing new).
 * Baseline, same run: the same rows appended straight to a store, one append per session.
 * Goal: the first import within 3× the baseline and under 120 s; the repeat under half of it (it re-reads every file: no byte offsets are kept yet).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { claudeCodeFormat } from "../src/import/claude-code-format.js";
import { importFiles } from "../src/import/import-files.js";
import { openStore } from "../src/store/open-store.js";

const SESSIONS = Number(process.env["CTXWIN_BENCH_IMPORT_SESSIONS"] ?? 5000);
const EXCHANGES = 5;

function sessionLines(index: number): string {
  const sessionId = `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`;
  const lines: string[] = [];
  let parent: string | null = null;
  const line = (type: string, body: Record<string, unknown>) => {
    const uuid = `${sessionId}-${lines.length}`;
    lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, cwd: `/home/dev/project-${index % 40}`, sessionId, type, uuid, timestamp: new Date(Date.UTC(2026, 10, 1, 0, 0, index + lines.length)).toISOString(), ...body }));
    parent = uuid;
  };
  for (let exchange = 0; exchange < EXCHANGES; exchange += 1) {
    const call = `toolu_${index}_${exchange}`;
    line("user", { message: { role: "user", content: `Question ${exchange} of session ${index}: where is setting ${index * 7 + exchange} read?` } });
    line("assistant", { message: { role: "assistant", content: [{ type: "thinking", thinking: "Search the config loader first." }, { type: "tool_use", id: call, name: "Grep", input: { pattern: `setting_${index}` } }] } });
    line("user", { message: { role: "user", content: [{ type: "tool_result", tool_use_id: call, content: `src/config.ts:${exchange + 10}: read setting_${index}_${exchange}\n`.repeat(8) }] } });
    line("assistant", { message: { role: "assistant", content: [{ type: "text", text: `It is read in src/config.ts line ${exchange + 10}.` }] } });
  }
  return `${lines.join("\n")}\n`;
}

export async function run(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-import-"));
  try {
    const sources = path.join(root, "projects", "bench");
    mkdirSync(sources, { recursive: true });
    for (let index = 0; index < SESSIONS; index += 1) writeFileSync(path.join(sources, `${index}.jsonl`), sessionLines(index));

    // Baseline: the importer's rows, parsed beforehand, appended directly.
    const parsed: { sessionId: string; rows: unknown[] }[] = [];
    for (let index = 0; index < SESSIONS; index += 1) {
      const lines = [];
      let sessionId = "";
      for await (const entry of claudeCodeFormat.lines(path.join(sources, `${index}.jsonl`))) {
        if (entry.kind === "line") {
          lines.push(entry.line);
          sessionId = entry.sessionId;
        }
      }
      const rows = claudeCodeFormat.rows({ sessionId, lines, settled: true }).rows.map((built) => built.row);
      parsed.push({ sessionId, rows });
    }
    const baselineStore = openStore({ directory: path.join(root, "baseline") });
    let started = performance.now();
    for (const session of parsed) await baselineStore.append(session.sessionId, session.rows as never);
    const baselineMs = performance.now() - started;
    await baselineStore.close();

    const store = openStore({ directory: path.join(root, "import") });
    started = performance.now();
    const first = await importFiles({ store, format: "claude-code", paths: [path.join(root, "projects")] });
    const firstMs = performance.now() - started;
    started = performance.now();
    const again = await importFiles({ store, format: "claude-code", paths: [path.join(root, "projects")] });
    const againMs = performance.now() - started;
    await store.close();

    const rows = parsed.reduce((sum, session) => sum + session.rows.length, 0);
    console.log(`${SESSIONS} sessions, ${rows} rows (${rows / SESSIONS} per session)`);
    console.log(`baseline (append only, rows parsed beforehand): ${(baselineMs / 1000).toFixed(1)} s`);
    console.log(`first import: ${(firstMs / 1000).toFixed(1)} s (${(firstMs / baselineMs).toFixed(2)}× baseline), ${first.rowsAdded} rows added, ${first.sessionsUpdated} sessions`);
    console.log(`repeat import: ${(againMs / 1000).toFixed(1)} s (${(againMs / firstMs).toFixed(2)}× first), ${again.rowsAdded} rows added`);
    console.log(`goal: first ≤ 3× baseline and < 120 s; repeat ≤ 0.5× first; ${firstMs <= 3 * baselineMs && firstMs < 120_000 && againMs <= 0.5 * firstMs ? "met" : "NOT met"}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
