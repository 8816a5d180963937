/**
 * Streaming overhead of `createContextAgent` (issue 29), run with `npm run bench -- agent-stream`:
 * the same requests through a bare `ToolLoopAgent` and through `createContextAgent` (SQLite store,
 * default durability), both read as `useChat`'s route reads them (`createAgentUIStream`), on the
 * same `MockLanguageModelV4`. Two figures, each as a ratio ctxwin / bare in this run:
 * - time to the first UI chunk with content (the first `text-delta`) of a one-step answer;
 * - per-step time of a turn of 5 steps (4 tool calls, then the answer).
 * The model answers either at once (the ratio then is ctxwin's fixed cost against nearly nothing:
 * read it as milliseconds) or after a fixed time to first token per step, like a fast provider.
 * Goal: ratios ≤ 1.2× with the provider-like model. `CTXWIN_BENCH_DURABILITY=normal` runs ctxwin's
 * store with `durability: "normal"` (no fsync per commit) instead of the default `full`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import { ToolLoopAgent, createAgentUIStream, stepCountIs, tool, type Agent, type UIMessage } from "ai";
import { z } from "zod";
import { createContextAgent } from "../src/session/context-agent/create-context-agent.js";
import { openStore } from "../src/store/open-store.js";
import type { HistoryStore } from "../src/store/port.js";
import { formatMs, formatRatio, goal, summarize, type Timing } from "./measure.js";

const ITERATIONS = Number(process.env["CTXWIN_BENCH_ITERATIONS"] ?? 40);
const DURABILITY = process.env["CTXWIN_BENCH_DURABILITY"] === "normal" ? "normal" : "full";
const WARMUP = 5;
const TOOL_STEPS = 4;
/** Time to first token of the provider-like model, per step. */
const PROVIDER_LATENCY_MS = 100;
const usage = {
  inputTokens: { total: 2_000, noCache: 2_000, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

/** A model whose step `n` of a turn calls `lookup` while `n < toolSteps`, then answers in 20 chunks. */
function mockModel({ toolSteps, latencyMs }: { toolSteps: number; latencyMs: number }): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: "openai.chat",
    modelId: "gpt-4o",
    doStream: async (options) => {
      if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      const step = options.prompt.filter((message) => message.role === "tool").length;
      const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if (step < toolSteps) {
        parts.push({
          type: "tool-call",
          toolCallId: `call-${step}-${Math.random().toString(36).slice(2)}`,
          toolName: "lookup",
          input: JSON.stringify({ key: `k${step}` }),
        });
        parts.push({ type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage });
      } else {
        parts.push({ type: "text-start", id: "t" });
        for (let index = 0; index < 20; index += 1) parts.push({ type: "text-delta", id: "t", delta: `word${index} ` });
        parts.push(
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
        );
      }
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}

const tools = {
  lookup: tool({
    description: "Looks a key up.",
    inputSchema: z.object({ key: z.string() }),
    execute: async ({ key }) => `value of ${key}`,
  }),
};
const instructions = "You are a helpful agent.";

/** One request read to its end as a route reads it: milliseconds to the first text chunk, and in all. */
async function request(agent: Agent<never, typeof tools, never>): Promise<{ firstText: number; total: number }> {
  const started = performance.now();
  let firstText = Number.NaN;
  const uiMessages: UIMessage[] = [
    { id: "u", role: "user", parts: [{ type: "text", text: "Look the keys up and tell me." }] },
  ];
  for await (const chunk of await createAgentUIStream({ agent, uiMessages })) {
    if (chunk.type === "text-delta" && Number.isNaN(firstText)) firstText = performance.now() - started;
  }
  return { firstText, total: performance.now() - started };
}

interface Scenario {
  label: string;
  latencyMs: number;
}

async function measure({ label, latencyMs }: Scenario, store: HistoryStore): Promise<void> {
  let sessions = 0;
  const bare = (toolSteps: number) =>
    new ToolLoopAgent({ model: mockModel({ toolSteps, latencyMs }), instructions, tools, stopWhen: stepCountIs(20) });
  const ctxwin = (toolSteps: number) => {
    sessions += 1;
    // A fresh session per request: both agents send the same request (ctxwin's window holds just the new message).
    return createContextAgent({
      store,
      sessionId: `bench-${label}-${sessions}`,
      model: mockModel({ toolSteps, latencyMs }),
      instructions,
      tools,
      stopWhen: stepCountIs(20),
      budget: { contextLimit: 128_000 },
      logWarning: () => {},
    });
  };
  const samples = {
    bareFirst: [] as number[],
    ctxwinFirst: [] as number[],
    bareStep: [] as number[],
    ctxwinStep: [] as number[],
  };
  for (let index = 0; index < WARMUP + ITERATIONS; index += 1) {
    const measured = index >= WARMUP;
    // Interleaved, so that load on the shared machine hits both alike.
    const [bareOne, ctxwinOne] = [await request(bare(0) as never), await request(ctxwin(0) as never)];
    const [bareTurn, ctxwinTurn] = [
      await request(bare(TOOL_STEPS) as never),
      await request(ctxwin(TOOL_STEPS) as never),
    ];
    if (!measured) continue;
    samples.bareFirst.push(bareOne.firstText);
    samples.ctxwinFirst.push(ctxwinOne.firstText);
    samples.bareStep.push(bareTurn.total / (TOOL_STEPS + 1));
    samples.ctxwinStep.push(ctxwinTurn.total / (TOOL_STEPS + 1));
  }
  const row = (name: string, bareTiming: Timing, ctxwinTiming: Timing) =>
    console.log(
      `| ${label} | ${name} | ${formatMs(bareTiming.p50)} | ${formatMs(ctxwinTiming.p50)} | ` +
        `${formatMs(ctxwinTiming.p50 - bareTiming.p50)} | ` +
        `${formatRatio(ctxwinTiming.p50 / bareTiming.p50)} | ` +
        `${formatMs(bareTiming.p95)} / ${formatMs(ctxwinTiming.p95)} |`,
    );
  const timings = {
    bareFirst: summarize(samples.bareFirst),
    ctxwinFirst: summarize(samples.ctxwinFirst),
    bareStep: summarize(samples.bareStep),
    ctxwinStep: summarize(samples.ctxwinStep),
  };
  row("first text chunk", timings.bareFirst, timings.ctxwinFirst);
  row(`per step (${TOOL_STEPS + 1}-step turn)`, timings.bareStep, timings.ctxwinStep);
  if (latencyMs > 0) {
    goal(
      `${label}: time to first text chunk, ctxwin / bare (p50)`,
      timings.ctxwinFirst.p50 / timings.bareFirst.p50,
      "<=",
      1.2,
      formatRatio,
    );
    goal(
      `${label}: per-step time, ctxwin / bare (p50)`,
      timings.ctxwinStep.p50 / timings.bareStep.p50,
      "<=",
      1.2,
      formatRatio,
    );
  }
}

export async function run(): Promise<void> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "ctxwin-agent-stream-bench-"));
  const store = openStore({ path: path.join(scratch, "bench.db"), durability: DURABILITY });
  try {
    console.log(
      `${ITERATIONS} measured requests per figure after ${WARMUP} warm-up, interleaved; SQLite store, durability ${DURABILITY}.\n`,
    );
    console.log(
      "| model | figure | bare ToolLoopAgent p50 | createContextAgent p50 | difference | ratio | p95 bare / ctxwin |",
    );
    console.log("|---|---|---|---|---|---|---|");
    const scenarios: Scenario[] = [
      { label: "instant", latencyMs: 0 },
      { label: `${PROVIDER_LATENCY_MS} ms to first token`, latencyMs: PROVIDER_LATENCY_MS },
    ];
    for (const scenario of scenarios) await measure(scenario, store);
  } finally {
    await store.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
