/**
 * A small finished `ctxwin eval` run for tests of what reads results (the table, `/api/eval`, the
 * HTML page, the Eval view): two suites, the three strategies, known figures, one failed item and
 * text a page must not run (`HOSTILE_TEXT`).
 */
import fs from "node:fs";
import type { EvalStrategy, ItemResult, SuiteName } from "../eval-types.js";
import type { RunHeader } from "../results-file.js";

export const HOSTILE_TEXT = `<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes"`;

export const FIXTURE_HEADER: RunHeader = {
  type: "run",
  version: 1,
  model: "demo (ctxwin's scripted eval model)",
  contextLimit: 16_000,
  seed: 33,
  startedAt: "2026-12-05T12:00:00.000Z",
};

function result(suite: SuiteName, itemId: string, strategy: EvalStrategy, figures: Partial<ItemResult>): ItemResult {
  return {
    suite,
    itemId,
    strategy,
    status: "scored",
    score: 1,
    answers: [{ question: "Which port?", answer: "8080", expected: "8080", score: 1 }],
    inputTokens: 10_000,
    outputTokens: 500,
    costUsd: 0.01,
    wallMilliseconds: 2_000,
    rollovers: 1,
    compactions: 0,
    historyCalls: 2,
    ...figures,
  };
}

/** The items: needle scores 1 / 0.5 / 0 by strategy; one continuity item failed with compact. */
export const FIXTURE_RESULTS: readonly ItemResult[] = [
  result("continuity", "continuity-1", "rollover", {
    score: 0.75,
    inputTokens: 20_000,
    outputTokens: 1_000,
    costUsd: 0.02,
  }),
  result("continuity", "continuity-1", "compact", {
    status: "failed",
    score: 0,
    answers: [],
    inputTokens: 4_000,
    outputTokens: 100,
    costUsd: 0.004,
    rollovers: 0,
    compactions: 1,
    historyCalls: 0,
    error: HOSTILE_TEXT,
  }),
  result("continuity", "continuity-1", "off", {
    status: "blocked",
    score: 0.25,
    inputTokens: 15_000,
    outputTokens: 300,
    costUsd: 0.015,
    rollovers: 0,
    historyCalls: 0,
    error: "the window is full",
  }),
  result("needle", "needle-1", "rollover", { score: 1 }),
  result("needle", "needle-2", "rollover", {
    score: 1,
    answers: [{ question: HOSTILE_TEXT, answer: HOSTILE_TEXT, expected: "8080", score: 1 }],
  }),
  result("needle", "needle-1", "compact", { score: 0.5, rollovers: 0, compactions: 2, inputTokens: 12_000 }),
  result("needle", "needle-2", "compact", { score: 0.5, rollovers: 0, compactions: 2, inputTokens: 12_000 }),
  result("needle", "needle-1", "off", { score: 0, rollovers: 0, historyCalls: 0, inputTokens: 16_000 }),
  result("needle", "needle-2", "off", { score: 0, rollovers: 0, historyCalls: 0, inputTokens: 16_000 }),
];

/**
 * Writes the fixture run as `ctxwin eval --out` would.
 *
 * @example writeResultsFixture(path.join(folder, "results.jsonl"));
 */
export function writeResultsFixture(file: string, results: readonly ItemResult[] = FIXTURE_RESULTS): void {
  const lines = [FIXTURE_HEADER, ...results.map((item) => ({ type: "item", result: item }))].map((line) =>
    JSON.stringify(line),
  );
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
}
