import { describe, expect, it } from "vitest";
import { dividerLine, renderBudgetBar, wantsColor } from "./budget-bar.js";

const usage = {
  windowId: "w:1",
  contextTokens: 8_000,
  contextLimit: 16_000,
  threshold: 11_200,
  hardCeiling: 12_000,
  percent: 50,
};

describe("renderBudgetBar", () => {
  it("shows used / limit, the percentage, and the tokens left before the rollover", () => {
    expect(renderBudgetBar({ usage })).toBe(
      "[██████████░░░░│░░░░░] 8,000 / 16,000 tokens · 50% · rolls over at 70% (~3,200 tokens left)",
    );
  });

  it("says when the window is over the threshold", () => {
    expect(renderBudgetBar({ usage: { ...usage, contextTokens: 12_500 } })).toMatch(
      /78% · over the 70% threshold: rolls over on the next send$/,
    );
  });

  it("names what happens at the threshold under each strategy", () => {
    expect(renderBudgetBar({ usage: { ...usage, strategy: "compact" } })).toMatch(
      /· compacts at 70% \(~3,200 tokens left\)$/,
    );
    expect(renderBudgetBar({ usage: { ...usage, strategy: "off", threshold: undefined } })).toMatch(
      /· no automatic rollover \(strategy off\)$/,
    );
  });

  it("works without a known limit", () => {
    expect(renderBudgetBar({ usage: { ...usage, contextLimit: undefined, threshold: undefined } })).toBe(
      "8,000 tokens in this window · context limit unknown",
    );
  });

  it("never prints color codes unless asked", () => {
    expect(renderBudgetBar({ usage })).not.toContain("\u001b[");
    expect(renderBudgetBar({ usage, color: true })).toContain("\u001b[");
  });
});

describe("dividerLine and wantsColor", () => {
  it("pads a label to the width", () => {
    const line = dividerLine({ text: "context window 2", width: 40 });
    expect(line.startsWith("──── context window 2 ")).toBe(true);
    expect(line).toHaveLength(40);
  });

  it("colors only terminals without NO_COLOR", () => {
    expect(wantsColor({ stream: { isTTY: true }, env: {} })).toBe(true);
    expect(wantsColor({ stream: { isTTY: true }, env: { NO_COLOR: "1" } })).toBe(false);
    expect(wantsColor({ stream: { isTTY: false }, env: {} })).toBe(false);
  });
});
