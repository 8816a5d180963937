/**
 * Smoke test of the continuity benchmark (bench/continuity.bench.ts) on a miniature corpus made up
 * here, so it runs without the test-data folder ($CTXWIN_TEST_DATA): the same engine, agent and accounting, two small tasks
 * under an 8k limit, all four configurations.
 */
import { describe, expect, it } from "vitest";
import { planTasks, runPlan, summarize } from "../bench/continuity.bench.js";
import type { Corpus } from "../bench/continuity/corpus.js";
import { createSeededRandom } from "../src/store/test-support/seeded-random.js";

/** Made-up words of 6–9 letters: each one is rare enough to be a needle. */
function vocabulary(count: number): string[] {
  const random = createSeededRandom(5);
  const syllables = ["bra", "vol", "ten", "mir", "sok", "lun", "dar", "pel", "qui", "zor", "fen", "gal"];
  const words = new Set<string>();
  while (words.size < count)
    words.add(
      Array.from({ length: random.integer(2, 3) }, () => syllables[random.integer(0, syllables.length - 1)]).join(""),
    );
  return [...words].filter((word) => word.length >= 6);
}

function miniatureCorpus(): Corpus {
  const random = createSeededRandom(11);
  const words = vocabulary(400);
  const pick = () => words[random.integer(0, words.length - 1)]!;
  const sentence = () => `The ${pick()} met a ${pick()} near the ${pick()} and ${pick()}.`;
  const essays = Array.from({ length: 6 }, (_, index) => ({
    id: `essays/e${index}.txt`,
    kind: "essay" as const,
    units: Array.from({ length: 120 }, sentence),
  }));
  const dialogues = Array.from({ length: 2 }, (_, index) => {
    const units = Array.from(
      { length: 160 },
      (_, turn) =>
        `[D${Math.floor(turn / 20) + 1}:${(turn % 20) + 1}] ${turn % 2 === 0 ? "Ann" : "Bob"}: I saw the ${pick()} with a ${pick()} today.`,
    );
    const questions = Array.from(
      { length: 30 },
      () => `What did Ann say about the ${units[random.integer(0, units.length - 1)]!.split(" ")[5]}?`,
    );
    return { document: { id: `locomo/c${index}`, kind: "dialogue" as const, units }, questions };
  });
  return { essays, dialogues };
}

describe("continuity benchmark", () => {
  it("answers every task that crossed a mid-turn rollover with the features on, without re-reading a page", async () => {
    const tasks = planTasks(miniatureCorpus(), { limits: [8_000], tasksPerFamily: 1, seed: 3 });
    expect(tasks.map((task) => task.family)).toEqual(["essays", "locomo"]);

    const runs = await runPlan(tasks);

    const of = (name: string) => summarize(runs.filter((run) => run.configuration === name));
    const on = of("on");
    expect(on.crossed).toBe(2);
    expect(on.correctCrossed).toBe(2);
    expect(on.redundantReads).toBe(0);
    // The benchmark tells the configurations apart: without the features, pages are read again.
    expect(of("off").redundantReads).toBeGreaterThan(0);
    expect(of("compact").tasks).toBe(2);
    // Strategy `off` cannot read more than a window holds: it says so, with a reason.
    const off = runs.filter((run) => run.configuration === "strategy-off");
    expect(off.map((run) => run.status)).toEqual(["blocked", "blocked"]);
    expect(off.every((run) => /rollovers are off/.test(run.error ?? ""))).toBe(true);
  });
});
