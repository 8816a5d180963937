import { describe, expect, it } from "vitest";
import { scriptedModel } from "./test-support/scripted-model.js";
import { memoryStore } from "./test-support/session-fixture.js";
import { CEILING, LIMIT, THRESHOLD_AT, budgetSession } from "./test-support/rollover-setup.js";

describe("session.usage", () => {
  it("gives the figures of a budget bar, from stored rows, and the usage event after each step", async () => {
    const store = memoryStore();
    const { model } = scriptedModel({ script: [{ text: "answer", inputTokens: 5_000 }] });
    const session = budgetSession({ store, model });
    const events: number[] = [];
    session.on("usage", (event) => events.push(event.contextTokens));

    const empty = await session.usage();
    expect(empty).toMatchObject({
      windowId: "w:0",
      contextLimit: LIMIT,
      threshold: THRESHOLD_AT,
      hardCeiling: CEILING,
    });

    await session.send("question");
    const usage = await session.usage();
    expect(events).toEqual([5_000]);
    expect(usage.contextTokens).toBeGreaterThan(5_000);
    expect(usage.contextTokens).toBeLessThan(5_100);
    expect(usage.percent).toBeCloseTo((usage.contextTokens / LIMIT) * 100, 10);
  });

  it("reports an unknown limit as unknown, never as 0 or infinite, and warns once", async () => {
    const warnings: string[] = [];
    const { model } = scriptedModel({ script: [{ text: "a" }, { text: "b" }], modelId: "unlisted-model" });
    const session = budgetSession({
      store: memoryStore(),
      model,
      settings: { contextLimit: undefined },
      logWarning: (message) => warnings.push(message),
    });
    await session.send("one");
    await session.send("two");
    const usage = await session.usage();
    expect(usage).toMatchObject({
      contextLimit: undefined,
      threshold: undefined,
      hardCeiling: undefined,
      percent: undefined,
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/unlisted-model/);
    // Says once, not twice, that no rollover decision is made (issue 49).
    expect(warnings[0]!.match(/no rollover decision/gi)).toHaveLength(1);
  });
});
