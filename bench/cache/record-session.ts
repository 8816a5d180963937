/**
 * Runs one continuity task and keeps every request the scripted model received, tagged with what
 * it was (the agent's kind of step, the window it belongs to, whether a notes write came just
 * before it), then replays the requests through each provider's cache rule.
 */
import { lookupModelPrices, type ModelPrices } from "../../src/core/budget/model-prices.js";
import { usageCost } from "../../src/core/budget/cost.js";
import type { HistoryStore } from "../../src/store/port.js";
import type { RequestKind } from "../continuity/agent.js";
import { runTask, type Configuration, type TaskRun } from "../continuity/run-task.js";
import type { LookupTask } from "../../src/eval/continuity/lookup-tasks.js";
import { anthropicCache, openAICache, type SimulatedRequest } from "./provider-rules.js";
import { requestBlocks, type RequestBlocks } from "./request-blocks.js";

/** Where a request stands in its window. */
export type RequestEvent = "first-of-window" | "warning" | "after-notes-write" | "flush" | "other";

export interface RecordedRequest {
  blocks: RequestBlocks;
  kind: RequestKind;
  phase: "filler" | "task";
  window: number;
  event: RequestEvent;
  /** Output tokens the scripted agent reported for its answer. */
  outputTokens: number;
}

export interface SimulatedSession {
  run: TaskRun;
  requests: RecordedRequest[];
  anthropic: SimulatedRequest[];
  openai: SimulatedRequest[];
}

/** The model the cache benchmark runs as (so the session sends Anthropic breakpoints) and prices with. */
export const ANTHROPIC_MODEL = { provider: "anthropic.messages", modelId: "claude-sonnet-4-5" } as const;
export const OPENAI_PRICED_MODEL = "openai:gpt-4.1";

/**
 * @example const session = await recordSession({ task, configuration, store, memoryRoot });
 */
export async function recordSession({
  task,
  configuration,
  store,
  memoryRoot,
  model,
  minimumTokens,
}: {
  task: LookupTask;
  configuration: Configuration;
  store: HistoryStore;
  memoryRoot: string;
  model?: { provider: string; modelId: string };
  minimumTokens: number;
}): Promise<SimulatedSession> {
  const requests: RecordedRequest[] = [];
  let window = 0;
  let windowOfLast = -1;
  let previousKind: RequestKind | undefined;
  const run = await runTask({
    task,
    configuration,
    store,
    memoryRoot,
    hooks: {
      ...(model === undefined ? {} : { model }),
      onSession: (session) => {
        session.on("rollover", () => (window += 1));
        session.on("compaction", () => (window += 1));
      },
      onRequest: (call, { kind, phase, outputTokens }) => {
        const first = window !== windowOfLast;
        const event: RequestEvent = first
          ? "first-of-window"
          : kind === "flush"
            ? "flush"
            : kind === "notes"
              ? "warning"
              : previousKind === "notes" || previousKind === "flush"
                ? "after-notes-write"
                : "other";
        requests.push({
          blocks: requestBlocks({ prompt: call.prompt, tools: call.tools }),
          kind,
          phase,
          window,
          event,
          outputTokens,
        });
        windowOfLast = window;
        previousKind = kind;
      },
    },
  });
  const anthropic = anthropicCache({ minimumTokens });
  const openai = openAICache();
  return {
    run,
    requests,
    anthropic: requests.map((request) => anthropic(request.blocks)),
    openai: requests.map((request) => openai(request.blocks)),
  };
}

export interface CacheFigures {
  requests: number;
  inputTokens: number;
  /** Input tokens after the first request of each window, and those of them read from the cache. */
  laterInputTokens: number;
  laterReadTokens: number;
  readTokens: number;
  writeTokens: number;
  /** USD with the rule's cache, and without any. */
  usd: number;
  uncachedUsd: number;
}

/**
 * Sums a rule's results over the requests of some sessions, priced with `prices`.
 *
 * @example figures(sessions, "anthropic", lookupModelPrices({ model: "anthropic:claude-sonnet-4-5" })!)
 */
export function figures(
  sessions: readonly SimulatedSession[],
  rule: "anthropic" | "openai",
  prices: ModelPrices,
  filter: (request: RecordedRequest) => boolean = () => true,
): CacheFigures {
  const total: CacheFigures = {
    requests: 0,
    inputTokens: 0,
    laterInputTokens: 0,
    laterReadTokens: 0,
    readTokens: 0,
    writeTokens: 0,
    usd: 0,
    uncachedUsd: 0,
  };
  for (const session of sessions) {
    session.requests.forEach((request, index) => {
      if (!filter(request)) return;
      const simulated = session[rule][index]!;
      total.requests += 1;
      total.inputTokens += simulated.inputTokens;
      total.readTokens += simulated.cacheReadTokens;
      total.writeTokens += simulated.cacheWriteTokens;
      if (request.event !== "first-of-window") {
        total.laterInputTokens += simulated.inputTokens;
        total.laterReadTokens += simulated.cacheReadTokens;
      }
      const cost = usageCost({ usage: { ...simulated, outputTokens: request.outputTokens }, prices });
      total.usd += cost.usd;
      total.uncachedUsd += cost.uncachedUsd;
    });
  }
  return total;
}

/** The prices the benchmark uses for each rule. */
export function benchPrices(): { anthropic: ModelPrices; openai: ModelPrices } {
  const anthropic = lookupModelPrices({ model: `anthropic:${ANTHROPIC_MODEL.modelId}` });
  const openai = lookupModelPrices({ model: OPENAI_PRICED_MODEL });
  if (anthropic === undefined || openai === undefined)
    throw new Error("the benchmark's models have no prices in the catalog");
  return { anthropic, openai };
}
