/**
 * Runs one item with one strategy through the real session engine (`createAgentSession` over an
 * in-memory store, memory notes on, the `session_history` tool as shipped): the feed first, then
 * each question; measures tokens at the model boundary, rollovers, compactions and history calls.
 * A provider failure is a `failed` result, never an exception: the run goes on.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { Tool } from "ai";
import { createAgentSession } from "../session/create-agent-session.js";
import type { SendResult } from "../session/session-types.js";
import { openStore } from "../store/open-store.js";
import { sessionHistoryTool } from "../tools/session-history/session-history-tool.js";
import { estimateCost, type ModelPrice } from "./cost.js";
import type { AnswerRecord, EvalItem, EvalStrategy, ItemResult } from "./eval-types.js";
import { meterUsage } from "./usage-meter.js";

export interface RunItemOptions {
  item: EvalItem;
  strategy: EvalStrategy;
  model: LanguageModelV4;
  contextLimit: number;
  price?: ModelPrice;
  /** Retries of a failed model call (429s, dropped connections) before the item fails (default 4). */
  maxRetries?: number;
  /** One line for a failed send's error (default: the first line of its message). */
  describeError?: (error: unknown) => string;
  /** Milliseconds since some fixed moment, for the wall time (default `performance.now`). */
  clock?: () => number;
}

/** `session_history` as shipped, with every output recorded. */
function recordingHistoryTool(history: Tool, outputs: string[]): Tool {
  const execute = history.execute;
  if (execute === undefined) return history;
  return {
    ...history,
    execute: async (input: unknown, options: Parameters<typeof execute>[1]) => {
      const output: unknown = await execute(input, options);
      outputs.push(JSON.stringify(output));
      return output;
    },
  } as Tool;
}

/** The first line of an error's message. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split("\n")[0] ?? message).slice(0, 500);
}

/**
 * @example const result = await runItem({ item, strategy: "rollover", model, contextLimit: 16_000 });
 */
export async function runItem({
  item,
  strategy,
  model,
  contextLimit,
  price,
  maxRetries = 4,
  describeError = firstLine,
  clock = () => performance.now(),
}: RunItemOptions): Promise<ItemResult> {
  const started = clock();
  const meter = meterUsage(model);
  const store = openStore({ backend: "memory" });
  const memoryRoot = fs.mkdtempSync(path.join(os.tmpdir(), "ctxwin-eval-"));
  const historyOutputs: string[] = [];
  const itemTools = item.createTools?.();
  const answers: AnswerRecord[] = [];
  let rollovers = 0;
  let compactions = 0;
  let ending: { status: "blocked" | "failed"; error: string } | undefined;
  const whyNot = (result: SendResult) =>
    result.reason ?? (result.error === undefined ? result.status : describeError(result.error));
  const tally = (result: SendResult) => {
    rollovers += result.rollovers.length;
    compactions += result.compactions.length;
    if (result.status === "blocked") ending = { status: "blocked", error: whyNot(result) };
    else if (result.status !== "completed") ending = { status: "failed", error: whyNot(result) };
  };
  try {
    const session = createAgentSession({
      store,
      sessionId: `eval-${item.suite}-${item.id}-${strategy}`,
      model: meter.model,
      system: item.system,
      tools: itemTools?.tools ?? {},
      budget: { contextLimit, strategy },
      memory: { root: memoryRoot },
      historyTool: (options) => recordingHistoryTool(sessionHistoryTool(options), historyOutputs),
      maxSteps: 200,
      maxTurnsPerSend: 50,
      maxRetries,
      logWarning: () => undefined,
    });
    for (const text of item.feed) {
      tally(await session.send(text));
      if (ending !== undefined) break;
    }
    for (const ask of item.asks) {
      if (ending !== undefined) {
        answers.push({
          question: ask.text,
          answer: "",
          expected: ask.score("", { historyOutputs: [] }).expected,
          score: 0,
        });
        continue;
      }
      const firstOutput = historyOutputs.length;
      const result = await session.send(ask.text);
      tally(result);
      const answer = result.status === "completed" ? result.text : "";
      const scored = ask.score(answer, { historyOutputs: historyOutputs.slice(firstOutput) });
      answers.push({ question: ask.text, answer, ...scored, score: result.status === "completed" ? scored.score : 0 });
    }
  } catch (error) {
    ending = { status: "failed", error: describeError(error) };
  } finally {
    await store.close();
    fs.rmSync(memoryRoot, { recursive: true, force: true });
  }
  const failed = ending?.status === "failed";
  const evidence = answers.flatMap((answer) => (answer.evidenceReached === undefined ? [] : [answer.evidenceReached]));
  const costUsd = estimateCost({ inputTokens: meter.inputTokens, outputTokens: meter.outputTokens, price });
  const measures = itemTools?.measures();
  return {
    suite: item.suite,
    itemId: item.id,
    strategy,
    status: ending?.status ?? "scored",
    score: failed || answers.length === 0 ? 0 : answers.reduce((sum, answer) => sum + answer.score, 0) / answers.length,
    answers,
    ...(evidence.length === 0
      ? {}
      : { evidenceReached: evidence.reduce((sum, value) => sum + value, 0) / evidence.length }),
    inputTokens: meter.inputTokens,
    outputTokens: meter.outputTokens,
    ...(costUsd === undefined ? {} : { costUsd }),
    wallMilliseconds: Math.round(clock() - started),
    rollovers,
    compactions,
    historyCalls: historyOutputs.length,
    ...(measures === undefined ? {} : { measures }),
    ...(ending === undefined ? {} : { error: ending.error }),
  };
}
