/**
 * Rollover continuity (issue 14), run with `npm run bench -- continuity` (`--large` for more
 * limits and tasks, `--seed=N` for other draws): lookup tasks over $CTXWIN_TEST_DATA/haystack (essays)
 * and $CTXWIN_TEST_DATA/locomo-dev (LoCoMo dev conversations, CC BY-NC 4.0, never shipped) that read
 * more than one window holds, run through the real session engine by a scripted agent that sees
 * only its requests (bench/continuity/agent.ts, docs/adr/0026). Each task starts after a random
 * amount of earlier conversation, so its rollovers fall at random points in the middle of its turn.
 *
 * The same tasks run in four configurations in one run: today's continuity features on (carried
 * task and ledger, notes-flush step), the features off (the baseline), strategy `compact`, and
 * strategy `off` (only the hard ceiling: a task that reads more than a window holds must end
 * `blocked` with a reason, never stop silently).
 * Reported per configuration and per context limit: tasks answered correctly after a mid-turn
 * rollover (goal 100%), redundant document re-reads per rollover (goal 0), tokens spent on
 * continuity per rollover (carry + flush, or the compaction summary), and all tokens of the tasks
 * against the baseline.
 */
import path from "node:path";
import { openStore } from "../src/store/open-store.js";
import { createSeededRandom } from "../src/store/test-support/seeded-random.js";
import { loadCorpus, type Corpus } from "./continuity/corpus.js";
import { formatUsd } from "../src/core/chart/format-usd.js";
import { taskCostMeter } from "./cache/task-cost.js";
import { runTask, scratchDirectory, type Configuration, type TaskRun } from "./continuity/run-task.js";
import { makeTask, type LookupTask } from "../src/eval/continuity/lookup-tasks.js";
import { formatRatio, goal } from "./measure.js";
import { testDataPath } from "../test/test-data.js";

const haystackDirectory = process.env["CTXWIN_BENCH_HAYSTACK"] ?? testDataPath("haystack");
const locomoFile = process.env["CTXWIN_BENCH_LOCOMO"] ?? testDataPath("locomo-dev/locomo-dev.json");

export const CONFIGURATIONS: readonly Configuration[] = [
  { name: "on", strategy: "rollover", continuity: { carry: true, notesFlush: true } },
  { name: "off", strategy: "rollover", continuity: { carry: false, notesFlush: false } },
  { name: "compact", strategy: "compact", continuity: { carry: false, notesFlush: false } },
  { name: "strategy-off", strategy: "off", continuity: {} },
];

const LABELS: Record<string, string> = {
  on: "carry + notes flush (default)",
  off: "baseline: features off",
  compact: 'strategy "compact"',
  "strategy-off": 'strategy "off"',
};

export interface RunPlan {
  limits: readonly number[];
  /** Tasks per family (essays, LoCoMo) and limit. */
  tasksPerFamily: number;
  seed: number;
}

/** The tasks of a plan, drawn from one seed: the same tasks run in every configuration. */
export function planTasks(corpus: Corpus, plan: RunPlan): LookupTask[] {
  const random = createSeededRandom(plan.seed);
  const tasks: LookupTask[] = [];
  for (const limit of plan.limits) {
    for (let index = 1; index <= plan.tasksPerFamily; index += 1) {
      for (const family of ["essays", "locomo"] as const) {
        tasks.push(
          makeTask({
            corpus,
            family,
            limit,
            id: `${family === "essays" ? "E" : "L"}${limit / 1000}k-${index}`,
            random,
          }),
        );
      }
    }
  }
  return tasks;
}

/** A task's run with what its requests cost, with a prompt cache and without. */
export interface PricedTaskRun extends TaskRun {
  usd: number;
  uncachedUsd: number;
}

/** Runs every task in every configuration, each configuration on its own SQLite file. */
export async function runPlan(
  tasks: readonly LookupTask[],
  configurations: readonly Configuration[] = CONFIGURATIONS,
): Promise<PricedTaskRun[]> {
  const runs: PricedTaskRun[] = [];
  for (const configuration of configurations) {
    const scratch = scratchDirectory(`ctxwin-continuity-${configuration.name}-`);
    const store = openStore({ path: path.join(scratch.directory, "ctxwin.db"), durability: "normal" });
    try {
      for (const task of tasks) {
        const meter = taskCostMeter();
        const run = await runTask({
          task,
          configuration,
          store,
          memoryRoot: path.join(scratch.directory, "memory"),
          hooks: { onRequest: meter.record },
        });
        runs.push({ ...run, ...meter.cost() });
      }
    } finally {
      await store.close();
      scratch.remove();
    }
  }
  return runs;
}

export interface Summary {
  tasks: number;
  correct: number;
  /** Tasks whose turn had at least one rollover (or compaction, or a failed compaction) in the middle. */
  crossed: number;
  correctCrossed: number;
  midTurn: number;
  notesFlushes: number;
  redundantReads: number;
  historyCalls: number;
  /** Tasks stopped at the request cap, failed or blocked. */
  unfinished: number;
  /** Of those: ended `blocked` with a reason, ended `failed`, stopped by the benchmark's request cap. */
  blocked: number;
  failed: number;
  stopped: number;
  carryTokens: number;
  /** Notes-flush requests, or compaction summary requests and rows. */
  stepTokens: number;
  totalTokens: number;
  /** USD of all tasks with a prompt cache, and without. */
  usd: number;
  uncachedUsd: number;
}

export function summarize(runs: readonly PricedTaskRun[]): Summary {
  const crossed = runs.filter((run) => run.crossed);
  const sum = (pick: (run: PricedTaskRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  return {
    tasks: runs.length,
    correct: runs.filter((run) => run.correct).length,
    crossed: crossed.length,
    correctCrossed: crossed.filter((run) => run.correct).length,
    midTurn: sum((run) => run.midTurn),
    notesFlushes: sum((run) => run.notesFlushes),
    redundantReads: sum((run) => run.redundantReads),
    historyCalls: sum((run) => run.historyCalls),
    unfinished: runs.filter((run) => run.stopped || run.status !== "completed").length,
    blocked: runs.filter((run) => run.status === "blocked" && run.error !== undefined && run.error !== "").length,
    failed: runs.filter(
      (run) => run.status !== "completed" && !(run.status === "blocked" && run.error !== undefined && run.error !== ""),
    ).length,
    stopped: runs.filter((run) => run.stopped).length,
    carryTokens: sum((run) => run.carryTokens),
    stepTokens: sum((run) => run.flushTokens + run.summaryTokens),
    totalTokens: sum((run) => run.totalTokens),
    usd: sum((run) => run.usd),
    uncachedUsd: sum((run) => run.uncachedUsd),
  };
}

const percent = (part: number, whole: number) => (whole === 0 ? "–" : `${((part / whole) * 100).toFixed(0)}%`);
const perRollover = (value: number, rollovers: number) => (rollovers === 0 ? "–" : (value / rollovers).toFixed(2));
const perRolloverTokens = (value: number, rollovers: number) =>
  rollovers === 0 ? "–" : Math.round(value / rollovers).toLocaleString("en-US");

/** `0`, or `3 (2 blocked, 1 stopped)`. */
function unfinishedCell(summary: Summary): string {
  const kinds = [
    summary.blocked > 0 ? `${summary.blocked} blocked` : "",
    summary.failed > 0 ? `${summary.failed} failed` : "",
    summary.stopped > 0 ? `${summary.stopped} stopped` : "",
  ].filter((text) => text !== "");
  return kinds.length === 0 ? String(summary.unfinished) : `${summary.unfinished} (${kinds.join(", ")})`;
}

function row(label: string, summary: Summary, baseline: Summary): string {
  return [
    label,
    `${summary.correctCrossed}/${summary.crossed} (${percent(summary.correctCrossed, summary.crossed)})`,
    `${summary.correct}/${summary.tasks}`,
    unfinishedCell(summary),
    String(summary.midTurn),
    String(summary.notesFlushes),
    perRollover(summary.redundantReads, summary.midTurn),
    perRollover(summary.historyCalls, summary.midTurn),
    perRolloverTokens(summary.carryTokens, summary.midTurn),
    perRolloverTokens(summary.stepTokens, summary.midTurn),
    `${Math.round(summary.totalTokens / Math.max(1, summary.tasks)).toLocaleString("en-US")} ` +
      `(${formatRatio(summary.totalTokens / Math.max(1, baseline.totalTokens))})`,
    `${formatUsd(summary.usd / Math.max(1, summary.tasks))} (${formatUsd(summary.uncachedUsd / Math.max(1, summary.tasks))})`,
  ].join(" | ");
}

const HEADER = [
  "| configuration | correct after a mid-turn rollover | correct, all tasks | unfinished | mid-turn rollovers " +
    "| notes flushes | redundant re-reads / rollover | history calls / rollover | carry tokens / rollover " +
    "| flush or summary tokens / rollover | tokens / task (vs baseline) | cost / task, cache-aware (no cache) |",
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
].join("\n");

/** Prints the tables and the goal lines. */
export function report(runs: readonly PricedTaskRun[], limits: readonly number[]): void {
  const of = (name: string, limit?: number) =>
    runs.filter((run) => run.configuration === name && (limit === undefined || run.task.limit === limit));
  const baseline = summarize(of("off"));
  console.log(HEADER);
  for (const configuration of CONFIGURATIONS)
    console.log(
      `| ${row(LABELS[configuration.name] ?? configuration.name, summarize(of(configuration.name)), baseline)} |`,
    );
  console.log("\nPer context limit:\n");
  console.log(HEADER.replace("| configuration |", "| limit, configuration |"));
  for (const limit of limits) {
    const limitBaseline = summarize(of("off", limit));
    for (const configuration of CONFIGURATIONS)
      console.log(
        `| ${row(`${limit / 1000}k, ${configuration.name}`, summarize(of(configuration.name, limit)), limitBaseline)} |`,
      );
  }
  const on = summarize(of("on"));
  console.log("");
  goal(
    "features on: correct after a mid-turn rollover",
    on.crossed === 0 ? 0 : on.correctCrossed / on.crossed,
    ">=",
    1,
    (value) => `${(value * 100).toFixed(0)}%`,
  );
  goal(
    "features on: redundant re-reads per rollover",
    on.midTurn === 0 ? 0 : on.redundantReads / on.midTurn,
    "<=",
    0,
    (value) => value.toFixed(2),
  );
  const compact = summarize(of("compact"));
  goal(
    'strategy "compact": tasks answered correctly',
    compact.tasks === 0 ? 0 : compact.correct / compact.tasks,
    ">=",
    1,
    (value) => `${(value * 100).toFixed(0)}%`,
  );
  // Strategy `off` cannot finish a task that reads more than a window holds: it must say so.
  const off = summarize(of("strategy-off"));
  goal('strategy "off": tasks unfinished without a blocked reason', off.unfinished - off.blocked, "<=", 0);
  const difference = (on.redundantReads - baseline.redundantReads) / Math.max(1, baseline.redundantReads);
  console.log(
    `redundant re-reads vs baseline: ${on.redundantReads} vs ${baseline.redundantReads} (${(difference * 100).toFixed(0)}%)`,
  );
}

function flagValue(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((argument) => argument.startsWith(prefix))?.slice(prefix.length);
}

export async function run(): Promise<void> {
  const corpus = loadCorpus({ haystackDirectory, locomoFile });
  if ("missing" in corpus) {
    console.log(`skipped: ${corpus.missing} is missing (set CTXWIN_BENCH_HAYSTACK / CTXWIN_BENCH_LOCOMO).`);
    return;
  }
  const large = process.argv.includes("--large");
  const plan: RunPlan = {
    limits: large
      ? [8_000, 12_000, 16_000, 24_000, 32_000, 48_000, 64_000, 128_000]
      : [8_000, 16_000, 32_000, 64_000, 128_000],
    tasksPerFamily: large ? 4 : 1,
    seed: Number(flagValue("seed") ?? process.env["CTXWIN_BENCH_SEED"] ?? 14),
  };
  const tasks = planTasks(corpus, plan);
  const started = performance.now();
  const runs = await runPlan(tasks);
  const reads = tasks.reduce((sum, task) => sum + task.readTokens, 0);
  console.log(
    `${tasks.length} tasks (seed ${plan.seed}; ` +
      `limits ${plan.limits.map((limit) => `${limit / 1000}k`).join(", ")}; ` +
      `${plan.tasksPerFamily} per family and limit), ` +
      `${CONFIGURATIONS.length} configurations, ` +
      `${runs.reduce((sum, run) => sum + run.requests, 0).toLocaleString("en-US")} requests in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s; ` +
      `the pages a task must read average ${(reads / tasks.reduce((sum, task) => sum + task.limit, 0)).toFixed(2)}× its limit.\n`,
  );
  if (process.argv.includes("--verbose")) {
    for (const run of runs) {
      const { task } = run;
      console.log(
        `${task.id} ${run.configuration}: ${run.status}${run.correct ? "" : " (wrong)"}, ` +
          `filler ${task.fillerTokens}, reads ${task.readTokens} tokens in ` +
          `${task.documents.length} documents; ` +
          `mid-turn ${run.midTurn}, flushes ${run.notesFlushes}, ` +
          `reads ${run.documentReads} (${run.redundantReads} redundant), history ${run.historyCalls}, ` +
          `requests ${run.requests}${run.stopped ? " (stopped)" : ""}${run.error === undefined ? "" : `; ${run.error}`}`,
      );
    }
    console.log("");
  }
  report(runs, plan.limits);
}
