import { describe, expect, it } from "vitest";
import { formatSummaryTable, summarize } from "./summary-table.js";
import { FIXTURE_RESULTS } from "./test-support/results-fixture.js";

describe("summarize", () => {
  const rows = summarize(FIXTURE_RESULTS);
  const row = (suite: string, strategy: string) =>
    rows.find((candidate) => candidate.suite === suite && candidate.strategy === strategy);

  it("gives one row per suite and strategy with results, suites and strategies in the command's order", () => {
    expect(rows.map((candidate) => `${candidate.suite}/${candidate.strategy}`)).toEqual([
      "continuity/rollover",
      "continuity/compact",
      "continuity/off",
      "needle/rollover",
      "needle/compact",
      "needle/off",
    ]);
  });

  it("averages the score over scored and blocked items; sums tokens, cost, time and events", () => {
    expect(row("needle", "compact")).toEqual({
      suite: "needle",
      strategy: "compact",
      items: 2,
      failed: 0,
      blocked: 0,
      score: 0.5,
      evidenceReached: undefined,
      inputTokens: 24_000,
      outputTokens: 1_000,
      costUsd: 0.02,
      wallSeconds: 4,
      rollovers: 0,
      compactions: 4,
      historyCalls: 4,
    });
    expect(row("continuity", "off")).toMatchObject({ items: 1, blocked: 1, failed: 0, score: 0.25 });
  });

  it("counts a failed item apart and leaves it out of the score, but not out of what it spent", () => {
    expect(row("continuity", "compact")).toMatchObject({
      items: 0,
      failed: 1,
      score: undefined,
      inputTokens: 4_000,
      costUsd: 0.004,
      compactions: 1,
    });
  });

  it("has no cost when one item's price was unknown", () => {
    const [first, second] = FIXTURE_RESULTS.filter(
      (result) => result.suite === "needle" && result.strategy === "rollover",
    );
    const { costUsd: _dropped, ...unpriced } = second!;
    expect(summarize([first!, unpriced])[0]).toMatchObject({ items: 2, costUsd: undefined, inputTokens: 20_000 });
  });

  it("prints the rows as the aligned table, with a dash for what is unknown", () => {
    const lines = formatSummaryTable(rows).split("\n");
    expect(lines).toHaveLength(2 + rows.length);
    expect(lines[3]).toMatch(/^continuity\s+compact\s+0\s+–\s+–\s+1\s+0\s+4,000\s+100\s+\$0\.0040\s+2\.0\s+0\s+1\s+0$/);
  });
});
