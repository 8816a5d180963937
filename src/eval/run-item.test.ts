/**
 * Every suite end to end through the real session engine: the scripted eval model (what
 * `--model demo` runs) for the real agent path, and scripted models that answer right or fail
 * for each scoring path.
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "../session/test-support/scripted-model.js";
import type { EvalItem, EvalStrategy } from "./eval-types.js";
import { locomoAnswerF1 } from "./locomo-f1.js";
import { runEval } from "./run-eval.js";
import { runItem } from "./run-item.js";
import { createScriptedEvalModel } from "./scripted/scripted-eval-model.js";
import { continuityItems } from "./suites/continuity.js";
import { readLocomoFile } from "./suites/locomo-file.js";
import { needleItems } from "./suites/needle.js";
import { recallQaItems } from "./suites/recall-qa.js";
import { locomoFixture, writeLocomoFixture } from "./test-support/locomo-fixture.js";
import { scratchFolders } from "../../test/scratch-folders.js";

const scratch = scratchFolders("ctxwin-eval-test-");

const LIMIT = 16_000;

/** A model that acknowledges background and answers each question from `answers` (by question text). */
function answeringModel(answers: (question: string) => string): LanguageModelV4 {
  return scriptedModel({
    script: (call) => {
      const last = [...call.prompt].reverse().find((message) => message.role === "user");
      const text =
        last?.role === "user" ? last.content.map((part) => (part.type === "text" ? part.text : "")).join("") : "";
      return { text: text.startsWith("Question:") ? answers(text) : "Noted." };
    },
  }).model;
}

/**
 * Runs `item` with `strategy` at `LIMIT`; the model is the scripted eval model (what `--model demo`
 * runs) unless given.
 */
function run(item: EvalItem, strategy: EvalStrategy, model: LanguageModelV4 = createScriptedEvalModel()) {
  return runItem({ item, strategy, model, contextLimit: LIMIT });
}

function recallItem(): { item: EvalItem; questions: ReturnType<typeof locomoFixture>["questions"] } {
  const file = writeLocomoFixture(scratch());
  const [item] = recallQaItems({ conversations: readLocomoFile(file), contextLimit: LIMIT, limit: 1, seed: 33 });
  return { item: item!, questions: locomoFixture().questions };
}

describe("needle", () => {
  it("rollover: the scripted agent finds planted facts through session_history after rollovers; off is blocked and scores 0", async () => {
    const [item] = needleItems({ contextLimit: LIMIT, limit: 1, seed: 33 });
    const rollover = await run(item!, "rollover");
    expect(rollover.status).toBe("scored");
    expect(rollover.rollovers).toBeGreaterThanOrEqual(2);
    expect(rollover.historyCalls).toBeGreaterThan(0);
    expect(rollover.score).toBeGreaterThan(0);
    expect(rollover.inputTokens).toBeGreaterThan(LIMIT);
    expect(rollover.answers.map((answer) => answer.score)).toEqual(
      rollover.answers.map((answer) => (answer.answer.toLowerCase().includes(answer.expected.toLowerCase()) ? 1 : 0)),
    );
    const off = await run(item!, "off");
    expect(off).toMatchObject({ status: "blocked", score: 0, rollovers: 0, compactions: 0 });
    expect(off.error).toMatch(/rollovers are off|hard ceiling/);
    expect(off.answers).toHaveLength(item!.asks.length);
  });

  it("compact: the window is summarised instead of rolled over", async () => {
    const [item] = needleItems({ contextLimit: LIMIT, limit: 1, seed: 33 });
    const result = await run(item!, "compact");
    expect(result.status).toBe("scored");
    expect(result.compactions).toBeGreaterThanOrEqual(2);
    expect(result.rollovers).toBe(0);
  });
});

describe("continuity", () => {
  it("the scripted agent finishes a lookup task across mid-turn rollovers with exact answers (score 1); a wrong answer scores 0", async () => {
    const [item] = continuityItems({ contextLimit: LIMIT, limit: 1, seed: 33 });
    const result = await run(item!, "rollover");
    expect(result).toMatchObject({ status: "scored", score: 1 });
    expect(result.rollovers).toBeGreaterThanOrEqual(1);
    expect(result.measures?.["documentReads"]).toBeGreaterThan(0);
    expect(result.answers[0]!.answer).toBe(result.answers[0]!.expected);
    const wrong = await run(
      item!,
      "rollover",
      answeringModel(() => "no idea"),
    );
    expect(wrong.answers[0]!.answer).toBe("Noted.");
    expect(wrong).toMatchObject({ status: "scored", score: 0 });
  });
});

describe("recall-qa", () => {
  it("scores right answers 1 by LoCoMo F1 and a partial answer by its F1; adversarial questions are not asked", async () => {
    const { item, questions } = recallItem();
    expect(item.asks.every((ask) => !ask.text.includes("never say"))).toBe(true);
    const gold = (text: string) => questions.find((question) => text.includes(question.question))!.answer;
    const right = await run(item, "rollover", answeringModel(gold));
    expect(right.status).toBe("scored");
    expect(right.rollovers).toBeGreaterThanOrEqual(1);
    expect(right.score).toBe(1);
    // No history call was needed, so no evidence was reached through it.
    expect(right.evidenceReached).toBe(0);
    const partial = await run(
      item,
      "rollover",
      answeringModel((text) => `maybe ${gold(text)} or golf`),
    );
    expect(partial.score).toBeCloseTo(
      locomoAnswerF1({ prediction: "maybe pottery or golf", goldAnswer: "pottery", category: 4 }),
      10,
    );
  });

  it("the scripted agent's session_history calls reach the evidence turns of earlier windows", async () => {
    const { item } = recallItem();
    const result = await run(item, "rollover");
    expect(result.status).toBe("scored");
    expect(result.historyCalls).toBeGreaterThan(0);
    expect(result.evidenceReached).toBeGreaterThan(0);
    expect(result.answers.every((answer) => answer.evidenceReached !== undefined)).toBe(true);
  });
});

describe("runEval", () => {
  it("runs at most --concurrency items at a time and reports every result once", async () => {
    const items = needleItems({ contextLimit: LIMIT, limit: 3, seed: 33 });
    let running = 0;
    let most = 0;
    let calls = 0;
    // The first call waits for a second one to start: only a run of two at a time gets past it.
    let secondArrived: () => void = () => undefined;
    const second = new Promise<void>((resolve) => (secondArrived = resolve));
    const base = createScriptedEvalModel();
    const model: LanguageModelV4 = {
      ...base,
      doStream: async (options) => {
        calls += 1;
        running += 1;
        most = Math.max(most, running);
        if (calls === 2) secondArrived();
        try {
          if (calls === 1) await second;
          return await base.doStream(options);
        } finally {
          running -= 1;
        }
      },
    };
    const { results } = await runEval({
      runs: items.map((item) => ({ item, strategy: "rollover" as const })),
      model,
      contextLimit: LIMIT,
      concurrency: 2,
    });
    expect(results.map((result) => result.itemId).sort()).toEqual(["needle-1", "needle-2", "needle-3"]);
    expect(results.every((result) => result.status === "scored")).toBe(true);
    expect(most).toBe(2);
  });
});

describe("failures", () => {
  it("a model that fails is a failed result, never an exception; three in a row stop the run", async () => {
    const failing = scriptedModel({
      script: () => ({ error: new Error("tools are not supported by this model\nsecond line") }),
    }).model;
    const items = needleItems({ contextLimit: LIMIT, limit: 5, seed: 33 });
    const recorded: string[] = [];
    const { results, stopped } = await runEval({
      runs: items.map((item) => ({ item, strategy: "rollover" as const })),
      model: failing,
      contextLimit: LIMIT,
      maxRetries: 0,
      onResult: (result) => recorded.push(result.itemId),
    });
    expect(results).toHaveLength(3);
    expect(recorded).toEqual(["needle-1", "needle-2", "needle-3"]);
    expect(results[0]).toMatchObject({
      status: "failed",
      score: 0,
      error: "The call to mock:scripted failed: tools are not supported by this model",
    });
    expect(stopped).toBe(
      "3 items failed in a row, the last with: The call to mock:scripted failed: tools are not supported by this model",
    );
  });
});
