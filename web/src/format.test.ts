import { describe, expect, it } from "vitest";
import type { UsageView } from "./api/types";
import {
  budgetFigures,
  budgetModelLine,
  dividerLabel,
  formatCount,
  formatPercent,
  formatUsd,
  markedPieces,
  spendLine,
  toolCallSummary,
} from "./format";

const usage = (fields: Partial<UsageView> = {}): UsageView => ({
  windowId: "w:1",
  contextTokens: 5_000,
  contextLimit: 10_000,
  threshold: 7_000,
  hardCeiling: 9_000,
  percent: 50,
  thresholdPercent: 70,
  tokensUntilRollover: 2_000,
  spend: null,
  model: null,
  modelSource: null,
  ...fields,
});

describe("format", () => {
  it("writes counts, shares and dollars as the UI shows them", () => {
    expect([formatCount(12_345.4), formatPercent(70.6), formatUsd(0.0123), formatUsd(1.5), formatUsd(0)]).toEqual([
      "12,345",
      "71%",
      "$0.0123",
      "$1.50",
      "$0.00",
    ]);
  });

  it("labels each kind of window divider", () => {
    expect(dividerLabel({ windowNumber: 3, boundary: { kind: "rollover", percent: 71, reason: "on-send" } })).toBe(
      "Context window 3 — rolled over at 71% · on-send",
    );
    expect(dividerLabel({ windowNumber: 2, boundary: { kind: "compaction" } })).toBe(
      "Context window 2 — compacted into a summary",
    );
    expect(dividerLabel({ windowNumber: 4, boundary: { kind: "reset" } })).toMatch(/cleared by you/);
  });

  it("counts down to the threshold, and says when it is passed, off, or the limit unknown", () => {
    expect(budgetFigures({ usage: usage() })).toMatchObject({
      summary: "5,000 / 10,000 tokens · 50%",
      countdown: "rolls over in ~2,000 tokens",
      state: "calm",
      usedPercent: 50,
      thresholdPercent: 70,
    });
    expect(budgetFigures({ usage: usage({ contextTokens: 6_500, percent: 65, tokensUntilRollover: 500 }) }).state).toBe(
      "near",
    );
    expect(
      budgetFigures({ usage: usage({ contextTokens: 23_278, percent: 232.8, tokensUntilRollover: 0 }) }),
    ).toMatchObject({ usedPercent: 100, countdown: "over the threshold — rolls over on the next send", state: "over" });
    expect(
      budgetFigures({ usage: usage({ threshold: null, thresholdPercent: null, tokensUntilRollover: null }) }).countdown,
    ).toBe("automatic rollover is off");
    expect(budgetFigures({ usage: usage({ contextLimit: null }) })).toMatchObject({
      summary: "5,000 tokens in this window",
      state: "unknown",
    });
  });

  it("sums a window's spend in one line, tokens only without a price", () => {
    const spend = {
      requests: 2,
      inputTokens: 10_000,
      outputTokens: 100,
      cacheReadTokens: 9_100,
      cacheWriteTokens: 0,
      cachedShare: 0.91,
      costUsd: 0.53,
      uncachedCostUsd: 1.8,
    };
    expect(spendLine(spend)).toBe("91% of input from the cache · ~$0.53 (no cache: $1.80)");
    expect(spendLine({ ...spend, costUsd: null })).toBe("91% of input from the cache · 10,000 input tokens");
    expect(spendLine(null)).toBeUndefined();
  });

  it("summarises a tool call's input by its first short argument", () => {
    expect(toolCallSummary('{"path":"src/x.ts","limit":3}')).toBe("src/x.ts");
    expect(toolCallSummary("not json\n at all")).toBe("not json at all");
    expect(toolCallSummary(JSON.stringify({ text: "y".repeat(100) }), 10)).toBe("yyyyyyyyy…");
  });

  it("cuts a text into plain and marked pieces, each character once", () => {
    expect(markedPieces("find the word here", [{ start: 9, length: 4 }])).toEqual([
      { text: "find the ", marked: false },
      { text: "word", marked: true },
      { text: " here", marked: false },
    ]);
    const pieces = markedPieces("abcdef", [
      { start: 3, length: 10 },
      { start: 0, length: 2 },
      { start: 1, length: 3 },
    ]);
    expect(pieces.map((piece) => piece.text).join("")).toBe("abcdef");
    expect(pieces.filter((piece) => piece.marked).map((piece) => piece.text)).toEqual(["ab", "cd", "ef"]);
    expect(markedPieces("", [])).toEqual([{ text: "", marked: false }]);
  });

  it("says which model the budget figures are for, and when the server's model stands in", () => {
    expect(budgetModelLine(usage({ model: "claude-sonnet-4-5", modelSource: "session" }))).toBe(
      "limit of claude-sonnet-4-5, this session's model",
    );
    expect(budgetModelLine(usage({ model: "ollama:qwen3:32b", modelSource: "server" }))).toMatch(
      /^limit of ollama:qwen3:32b — the server's model/,
    );
    expect(budgetModelLine(usage({ model: null, modelSource: null }))).toBeUndefined();
  });
});
