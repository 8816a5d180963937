/**
 * Prompt caching (issue 28), run with `npm run bench -- cache` (`--large` for more tasks per limit,
 * `--seed=N` for other draws): the continuity benchmark's lookup tasks at 16k, 64k and 128k limits,
 * run through the real session engine as a Claude model (so every request carries the breakpoints
 * ctxwin places), every request body kept, then replayed through each provider's cache rule
 * (bench/cache/provider-rules.ts). Reported per limit:
 * - the share of input tokens after the first request of each window that Anthropic's rule reads
 *   from the cache (breakpoints as sent) and that OpenAI's rule finds in an earlier request's
 *   prefix (goal ≥ 85% each);
 * - the cost per task with the cache, beside the same tokens without one (Claude Sonnet 4.5 and
 *   GPT-4.1 prices from the catalog);
 * - what a notes write, a warning, the flush step and a rollover do to the reusable prefix: the
 *   share read by the requests at each of those moments, and the tokens the request right after a
 *   notes write pays in full.
 */
import path from "node:path";
import { formatUsd } from "../src/core/chart/format-usd.js";
import { openStore } from "../src/store/open-store.js";
import { loadCorpus } from "./continuity/corpus.js";
import { scratchDirectory } from "./continuity/run-task.js";
import { CONFIGURATIONS, planTasks } from "./continuity.bench.js";
import { goal } from "./measure.js";
import {
  ANTHROPIC_MODEL,
  benchPrices,
  figures,
  recordSession,
  type RecordedRequest,
  type RequestEvent,
  type SimulatedSession,
} from "./cache/record-session.js";
import { testDataPath } from "../test/test-data.js";

const haystackDirectory = process.env["CTXWIN_BENCH_HAYSTACK"] ?? testDataPath("haystack");
const locomoFile = process.env["CTXWIN_BENCH_LOCOMO"] ?? testDataPath("locomo-dev/locomo-dev.json");

const LIMITS = [16_000, 64_000, 128_000] as const;
const EVENTS: readonly RequestEvent[] = ["first-of-window", "warning", "after-notes-write", "flush", "other"];
const EVENT_LABELS: Record<RequestEvent, string> = {
  "first-of-window": "first request of a window (after a rollover)",
  warning: "the warning turn's request",
  "after-notes-write": "the request after a notes write",
  flush: "the notes-flush request",
  other: "every other request",
};

const share = (part: number, whole: number) => (whole === 0 ? "–" : `${((part / whole) * 100).toFixed(1)}%`);

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
  const seed = Number(flagValue("seed") ?? process.env["CTXWIN_BENCH_SEED"] ?? 14);
  const tasks = planTasks(corpus, { limits: LIMITS, tasksPerFamily: process.argv.includes("--large") ? 3 : 1, seed });
  const configuration = CONFIGURATIONS[0]!;
  const prices = benchPrices();
  const started = performance.now();
  const sessions: SimulatedSession[] = [];
  const scratch = scratchDirectory("ctxwin-cache-");
  const store = openStore({ path: path.join(scratch.directory, "ctxwin.db"), durability: "normal" });
  try {
    for (const task of tasks) {
      sessions.push(
        await recordSession({
          task,
          configuration,
          store,
          memoryRoot: path.join(scratch.directory, "memory"),
          model: ANTHROPIC_MODEL,
          minimumTokens: prices.anthropic.minimumCacheableTokens ?? 1024,
        }),
      );
    }
  } finally {
    await store.close();
    scratch.remove();
  }
  const requestCount = sessions.reduce((sum, session) => sum + session.requests.length, 0);
  console.log(
    `${tasks.length} tasks (seed ${seed}; ${tasks.length / LIMITS.length} per limit; ` +
      `configuration "${configuration.name}"), ${requestCount.toLocaleString("en-US")} requests in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s; correct ${sessions.filter((session) => session.run.correct).length}/${sessions.length}. ` +
      `Prices: Anthropic rule at ${prices.anthropic.key}, OpenAI rule at ${prices.openai.key} (${prices.anthropic.asOf} / ${prices.openai.asOf}).\n`,
  );
  console.log(
    "| limit | requests | windows | Anthropic: read after each window's first request " +
      "| OpenAI: shared prefix after each window's first request " +
      "| cost / task, Anthropic rule (no cache) | cost / task, OpenAI rule (no cache) |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  const perLimit = new Map<number, { anthropic: number; openai: number }>();
  for (const limit of LIMITS) {
    const of = sessions.filter((session) => session.run.task.limit === limit);
    const anthropic = figures(of, "anthropic", prices.anthropic);
    const openai = figures(of, "openai", prices.openai);
    const windows = of.reduce(
      (sum, session) => sum + new Set(session.requests.map((request) => request.window)).size,
      0,
    );
    perLimit.set(limit, {
      anthropic: anthropic.laterReadTokens / Math.max(1, anthropic.laterInputTokens),
      openai: openai.laterReadTokens / Math.max(1, openai.laterInputTokens),
    });
    console.log(
      `| ${limit / 1000}k | ${anthropic.requests} | ${windows} | ` +
        `${share(anthropic.laterReadTokens, anthropic.laterInputTokens)} | ` +
        `${share(openai.laterReadTokens, openai.laterInputTokens)} | ` +
        `${formatUsd(anthropic.usd / of.length)} (${formatUsd(anthropic.uncachedUsd / of.length)}) ` +
        `| ${formatUsd(openai.usd / of.length)} (${formatUsd(openai.uncachedUsd / of.length)}) |`,
    );
  }
  console.log("\nWhat each moment of a window does to the reusable prefix (all limits):\n");
  console.log(
    "| request | count | input tokens / request | Anthropic: read | Anthropic: written | OpenAI: shared prefix |",
  );
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const event of EVENTS) {
    const filter = (request: RecordedRequest) => request.event === event;
    const anthropic = figures(sessions, "anthropic", prices.anthropic, filter);
    const openai = figures(sessions, "openai", prices.openai, filter);
    if (anthropic.requests === 0) continue;
    console.log(
      `| ${EVENT_LABELS[event]} | ${anthropic.requests} | ` +
        `${Math.round(anthropic.inputTokens / anthropic.requests).toLocaleString("en-US")} | ` +
        `${share(anthropic.readTokens, anthropic.inputTokens)} | ` +
        `${share(anthropic.writeTokens, anthropic.inputTokens)} | ${share(openai.readTokens, openai.inputTokens)} |`,
    );
  }
  const afterNotes = figures(
    sessions,
    "anthropic",
    prices.anthropic,
    (request) => request.event === "after-notes-write",
  );
  if (afterNotes.requests > 0) {
    console.log(
      `\nA notes write costs the next request ` +
        `${Math.round((afterNotes.inputTokens - afterNotes.readTokens) / afterNotes.requests).toLocaleString("en-US")} ` +
        `tokens not read from the cache (of ${Math.round(afterNotes.inputTokens / afterNotes.requests).toLocaleString("en-US")}).`,
    );
  }
  console.log("");
  for (const limit of LIMITS) {
    const shares = perLimit.get(limit)!;
    goal(
      `${limit / 1000}k: Anthropic rule, input read from the cache after each window's first request`,
      shares.anthropic,
      ">=",
      0.85,
      (value) => `${(value * 100).toFixed(1)}%`,
    );
    goal(
      `${limit / 1000}k: OpenAI rule, input sharing a cached prefix after each window's first request`,
      shares.openai,
      ">=",
      0.85,
      (value) => `${(value * 100).toFixed(1)}%`,
    );
  }
}
