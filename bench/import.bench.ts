/**
 * `npm run bench -- import`: 5,000 Claude Code session files (20 lines each: prompt, reasoning,
 * tool call and result, answer) imported into a fresh store, then imported again (nothing new).
 * Baseline, same run: the same rows appended straight to a store, one append per session.
 * Goal: the first import within 3× the baseline and under 120 s; the repeat under half of it (it re-reads every file: no byte offsets are kept yet).
 *
 * Sub-agents (issue 50): one session that ran `Agent` calls, with that many sub-agent files
 * (`<session>/subagents/agent-*.jsonl`, the same 20 lines each), against as many plain sessions,
 * at two sizes (half, then all of `CTXWIN_BENCH_IMPORT_SUBAGENTS`, default 2,000). Goal: within
 * 1.5× the plain sessions, and linear (the full size under 2.5× the half).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { claudeCodeFormat } from "../src/import/claude-code-format.js";
import { importFiles } from "../src/import/import-files.js";
import { openStore } from "../src/store/open-store.js";

const SESSIONS = Number(process.env["CTXWIN_BENCH_IMPORT_SESSIONS"] ?? 5000);
const SUBAGENTS = Number(process.env["CTXWIN_BENCH_IMPORT_SUBAGENTS"] ?? 2000);
const EXCHANGES = 5;

function sessionIdOf(index: number): string {
  return `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`;
}

/** A session's lines; `agentOf`: the lines are a sub-agent's (`agent-<id>.jsonl`) of that session. */
function sessionLines(index: number, agentOf?: string): string {
  const sessionId = agentOf ?? sessionIdOf(index);
  const lines: string[] = [];
  let parent: string | null = null;
  const line = (type: string, body: Record<string, unknown>) => {
    const uuid = `${sessionIdOf(index)}-${lines.length}`;
    const sidechain = agentOf !== undefined;
    const time = new Date(Date.UTC(2026, 10, 1, 0, 0, index + lines.length)).toISOString();
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: sidechain,
        cwd: `/home/dev/project-${index % 40}`,
        sessionId,
        type,
        uuid,
        timestamp: time,
        ...body,
      }),
    );
    parent = uuid;
  };
  for (let exchange = 0; exchange < EXCHANGES; exchange += 1) {
    const call = `toolu_${index}_${exchange}`;
    line("user", {
      message: {
        role: "user",
        content: `Question ${exchange} of session ${index}: where is setting ${index * 7 + exchange} read?`,
      },
    });
    line("assistant", {
      message: {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Search the config loader first." },
          { type: "tool_use", id: call, name: "Grep", input: { pattern: `setting_${index}` } },
        ],
      },
    });
    line("user", {
      message: {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: call,
            content: `src/config.ts:${exchange + 10}: read setting_${index}_${exchange}\n`.repeat(8),
          },
        ],
      },
    });
    line("assistant", {
      message: {
        role: "assistant",
        content: [{ type: "text", text: `It is read in src/config.ts line ${exchange + 10}.` }],
      },
    });
  }
  return `${lines.join("\n")}\n`;
}

/** A session whose `Agent` calls started `count` sub-agents, each result naming its agent. */
function parentLines(sessionId: string, count: number): string {
  const lines: string[] = [];
  let parent: string | null = null;
  const line = (type: string, body: Record<string, unknown>) => {
    const uuid = `${sessionId.slice(0, 24)}p${String(lines.length).padStart(11, "0")}`;
    const time = new Date(Date.UTC(2026, 10, 1, 0, 0, lines.length)).toISOString();
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        cwd: "/home/dev/project",
        sessionId,
        type,
        uuid,
        timestamp: time,
        ...body,
      }),
    );
    parent = uuid;
  };
  line("user", { message: { role: "user", content: `Run ${count} sub-agents.` } });
  for (let index = 0; index < count; index += 1) {
    const call = `toolu_agent_${index}`;
    line("assistant", {
      message: {
        role: "assistant",
        content: [{ type: "tool_use", id: call, name: "Agent", input: { prompt: `task ${index}` } }],
      },
    });
    line("user", {
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: call, content: `done ${index}` }] },
      toolUseResult: { agentId: `a${index}` },
    });
  }
  return `${lines.join("\n")}\n`;
}

/** Imports `count` plain sessions, then one session with `count` sub-agents, into fresh stores: the times in ms. */
async function subagentCase(
  root: string,
  count: number,
): Promise<{ plainMs: number; subagentMs: number; children: number }> {
  const plain = path.join(root, `plain-${count}`, "bench");
  const parentId = "11111111-0000-4000-8000-000000000000";
  const agents = path.join(root, `agents-${count}`, "bench");
  mkdirSync(plain, { recursive: true });
  mkdirSync(path.join(agents, parentId, "subagents"), { recursive: true });
  writeFileSync(path.join(agents, `${parentId}.jsonl`), parentLines(parentId, count));
  for (let index = 0; index < count; index += 1) {
    writeFileSync(path.join(plain, `${index}.jsonl`), sessionLines(index));
    writeFileSync(path.join(agents, parentId, "subagents", `agent-a${index}.jsonl`), sessionLines(index, parentId));
  }
  const timed = async (folder: string, name: string) => {
    const store = openStore({ directory: path.join(root, name) });
    const started = performance.now();
    await importFiles({ store, format: "claude-code", paths: [folder] });
    const ms = performance.now() - started;
    const sessions = (await store.sessions()).length;
    await store.close();
    return { ms, sessions };
  };
  const plainRun = await timed(path.dirname(plain), `plain-store-${count}`);
  const agentRun = await timed(path.dirname(agents), `agents-store-${count}`);
  return { plainMs: plainRun.ms, subagentMs: agentRun.ms, children: agentRun.sessions - 1 };
}

async function runSubagents(root: string): Promise<void> {
  const half = await subagentCase(root, Math.floor(SUBAGENTS / 2));
  const full = await subagentCase(root, SUBAGENTS);
  for (const [count, result] of [
    [Math.floor(SUBAGENTS / 2), half],
    [SUBAGENTS, full],
  ] as const) {
    const ratio = result.subagentMs / result.plainMs;
    console.log(
      `${count} sub-agent files: ${(result.subagentMs / 1000).toFixed(1)} s ` +
        `(${result.children} child sessions), ${count} plain sessions: ` +
        `${(result.plainMs / 1000).toFixed(1)} s (${ratio.toFixed(2)}×)`,
    );
  }
  const growth = full.subagentMs / half.subagentMs;
  const met = full.subagentMs <= 1.5 * full.plainMs && growth <= 2.5;
  console.log(
    `sub-agents: ${SUBAGENTS} files take ${growth.toFixed(2)}× the time of ` +
      `${Math.floor(SUBAGENTS / 2)}; goal ≤ 1.5× plain sessions and ≤ 2.5× the half: ${met ? "met" : "NOT met"}`,
  );
}

export async function run(): Promise<void> {
  if (process.env["CTXWIN_BENCH_IMPORT_ONLY"] === "subagents") {
    const root = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-import-"));
    try {
      await runSubagents(root);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    return;
  }
  const root = mkdtempSync(path.join(os.tmpdir(), "ctxwin-bench-import-"));
  try {
    const sources = path.join(root, "projects", "bench");
    mkdirSync(sources, { recursive: true });
    for (let index = 0; index < SESSIONS; index += 1)
      writeFileSync(path.join(sources, `${index}.jsonl`), sessionLines(index));

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
    console.log(
      `first import: ${(firstMs / 1000).toFixed(1)} s ` +
        `(${(firstMs / baselineMs).toFixed(2)}× baseline), ${first.rowsAdded} rows added, ` +
        `${first.sessionsUpdated} sessions`,
    );
    console.log(
      `repeat import: ${(againMs / 1000).toFixed(1)} s (${(againMs / firstMs).toFixed(2)}× first), ${again.rowsAdded} rows added`,
    );
    console.log(
      "goal: first ≤ 3× baseline and < 120 s; repeat ≤ 0.5× first; " +
        `${firstMs <= 3 * baselineMs && firstMs < 120_000 && againMs <= 0.5 * firstMs ? "met" : "NOT met"}`,
    );
    await runSubagents(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
