import { describe, expect, it } from "vitest";
import { isProviderEligible } from "../core/visibility.js";
import { modelKey } from "./budget-policy.js";
import { scriptedModel } from "./test-support/scripted-model.js";
import { memoryStore, rowText } from "./test-support/session-fixture.js";
import { CEILING, THRESHOLD_AT, budgetSession, systemOfTokens } from "./test-support/rollover-setup.js";

/**
 * Two sends over a session with `options` whose requests report past the on-send threshold: both are answered in the
 * first window, with no warning and no rollover.
 */
async function twoSendsPastThreshold(options: Partial<Parameters<typeof budgetSession>[0]>) {
  const store = memoryStore();
  const { model, calls } = scriptedModel({
    script: [
      { text: "a", inputTokens: THRESHOLD_AT + 500 },
      { text: "b", inputTokens: THRESHOLD_AT + 600 },
    ],
  });
  const session = budgetSession({ store, model, ...options });
  await session.send("one");
  expect(await session.send("two")).toMatchObject({ status: "completed", rollovers: [], warnings: [] });
  return { store, calls, session };
}

type ScriptedModel = ReturnType<typeof scriptedModel>;

/** A budget session on `primary` that falls back to `fallback`, whose window is `fallbackLimit` tokens. */
function withFallback(primary: ScriptedModel, fallback: ScriptedModel, fallbackLimit: number) {
  return budgetSession({
    store: memoryStore(),
    model: primary.model,
    fallbackModels: [fallback.model],
    settings: { models: { [modelKey(fallback.model)]: { contextLimit: fallbackLimit } } },
  });
}

describe("preflight", () => {
  it("blocks a message that cannot fit even a fresh window: no provider call, the input kept visible as rejected-input", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({ script: [{ text: "never" }] });
    const session = budgetSession({ store, model });
    const blocked: string[] = [];
    session.on("blocked", (event) => blocked.push(event.reason));
    const huge = "lorem ipsum ".repeat(6_000); // ~18,000 tokens > ceiling 15,000

    const result = await session.send(huge);

    expect(result.status).toBe("blocked");
    expect(result.reason).toMatch(/does not fit even a fresh context window/);
    expect(result.reason).toMatch(/Shorten it/);
    expect(blocked).toEqual([result.reason]);
    expect(calls).toHaveLength(0);
    const { rows } = await store.activeWindow("s");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      role: "user",
      uiVisible: true,
      meta: { type: "rejected-input", hardCeiling: CEILING },
    });
    expect(rowText(rows[0]!)).toBe(huge);
    expect(isProviderEligible(rows[0]!)).toBe(false);
  });

  it("never sends a rejected input later", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({ script: [{ text: "hello back" }] });
    const session = budgetSession({ store, model });
    await session.send("zebra ".repeat(20_000));
    const result = await session.send("hello");
    expect(result.status).toBe("completed");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.text).not.toContain("zebra");
  });

  it("with strategy off: no warning or rollover past the threshold, but the hard ceiling still blocks", async () => {
    const { calls, session } = await twoSendsPastThreshold({ settings: { strategy: "off" } });
    expect(calls[1]!.text).toContain("user: one");
    const third = await session.send("word ".repeat(1_000)); // ~1,250 tokens: over the ceiling now
    expect(third.status).toBe("blocked");
    expect(third.reason).toMatch(/rollovers are off/);
    expect(calls).toHaveLength(2);
  });

  it("checks each attempt against its own model's limit: a fallback too small for the request is not called", async () => {
    const failing = scriptedModel({
      script: [{ text: "first" }, { error: new Error("upstream unavailable") }],
      modelId: "primary",
    });
    const small = scriptedModel({ script: [{ text: "from the small model" }], modelId: "small" });
    const session = withFallback(failing, small, 1_000);
    await session.send("x".repeat(6_000)); // 1,500 tokens: fits the primary, not the small fallback
    const result = await session.send("again");
    expect(result.status).toBe("failed");
    expect(small.calls).toHaveLength(0);
  });

  it("falls back to the next model when the primary fails before anything streamed", async () => {
    const primary = scriptedModel({ script: [{ error: new Error("upstream unavailable") }], modelId: "primary" });
    const fallback = scriptedModel({ script: [{ text: "from the fallback" }], modelId: "fallback" });
    const session = withFallback(primary, fallback, 20_000);
    const result = await session.send("hello");
    expect(result).toMatchObject({ status: "completed", text: "from the fallback" });
    expect(fallback.calls[0]!.text).toBe(primary.calls[0]!.text);
  });

  it("with a threshold of 1 or more: no proactive rollover, and the hard ceiling still blocks", async () => {
    // The system prompt leaves room for the tool definitions (session_history's included) under the ceiling.
    const { store, calls, session } = await twoSendsPastThreshold({
      system: systemOfTokens(THRESHOLD_AT - 1_000),
      settings: { threshold: 1 },
    });
    const third = await session.send("word ".repeat(1_000));
    expect(third.status).toBe("blocked");
    expect(calls).toHaveLength(2);
    const { rows } = await store.activeWindow("s");
    expect(rows.at(-1)?.meta?.type).toBe("rejected-input");
  });
});
