/**
 * The bar of a session viewed without its model: the limit comes from the catalog when it knows the
 * model, else from the limit the newest step was budgeted against (demo model, local servers). A
 * server running another model measures a session by the session's own model, and says which.
 */
import { describe, expect, it } from "vitest";
import { stepMetadata } from "../core/rollover/step-usage.js";
import { createMemoryStore } from "../store/memory/memory-store.js";
import { usageFromStore } from "./usage-view.js";

const settings = { strategy: "rollover" as const, threshold: 0.7 };

async function sessionAnsweredBy({ model, contextLimit }: { model: string; contextLimit?: number }) {
  const store = createMemoryStore();
  await store.append("s1", [
    { role: "user", parts: [{ type: "text", text: "hello" }] },
    {
      role: "assistant",
      parts: [{ type: "text", text: "hi" }],
      metadata: stepMetadata({
        usage: { inputTokens: 4_000, outputTokens: 5 },
        model,
        ...(contextLimit === undefined ? {} : { contextLimit }),
      }),
    },
  ]);
  return store;
}

describe("usageFromStore", () => {
  it("uses the limit stored with the newest step for a model the catalog does not know", async () => {
    const store = await sessionAnsweredBy({ model: "ctxwin-demo:scripted-explorer", contextLimit: 16_000 });
    const usage = await usageFromStore({ store, sessionId: "s1", config: {}, settings, contextLimit: undefined });
    expect(usage).toMatchObject({
      contextLimit: 16_000,
      threshold: 11_200,
      tokensUntilRollover: 11_200 - usage.contextTokens,
    });
  });

  it("has no limit when neither the catalog nor the steps know one", async () => {
    const store = await sessionAnsweredBy({ model: "local:mystery-model" });
    const usage = await usageFromStore({ store, sessionId: "s1", config: {}, settings, contextLimit: undefined });
    expect(usage.contextLimit).toBeNull();
  });

  it("prefers the limit the agent used to the catalog's, falls back to the catalog, and an explicit override wins", async () => {
    const budgeted = await sessionAnsweredBy({ model: "openai:gpt-4o", contextLimit: 16_000 });
    expect(
      (await usageFromStore({ store: budgeted, sessionId: "s1", config: {}, settings, contextLimit: undefined }))
        .contextLimit,
    ).toBe(16_000);
    expect(
      (await usageFromStore({ store: budgeted, sessionId: "s1", config: {}, settings, contextLimit: 50_000 }))
        .contextLimit,
    ).toBe(50_000);
    const older = await sessionAnsweredBy({ model: "openai:gpt-4o" });
    expect(
      (await usageFromStore({ store: older, sessionId: "s1", config: {}, settings, contextLimit: undefined }))
        .contextLimit,
    ).toBe(128_000);
  });

  it("measures a session that names another model by that model's limit, never the server's override (ADR 0080)", async () => {
    const store = await sessionAnsweredBy({ model: "openai:gpt-4o" });
    const usage = await usageFromStore({
      store,
      sessionId: "s1",
      config: {},
      settings,
      contextLimit: 16_000,
      fallbackModelKey: "ollama:qwen3:32b",
    });
    expect(usage).toMatchObject({ contextLimit: 128_000, model: "openai:gpt-4o", modelSource: "session" });
    const same = await usageFromStore({
      store,
      sessionId: "s1",
      config: {},
      settings,
      contextLimit: 16_000,
      fallbackModelKey: "openai:gpt-4o",
    });
    expect(same).toMatchObject({ contextLimit: 16_000, model: "openai:gpt-4o", modelSource: "session" });
  });

  it("reads an imported session's model from its header row, and says when the server's model stands in", async () => {
    const imported = createMemoryStore();
    await imported.append("s1", [
      {
        role: "system",
        parts: [{ type: "text", text: "Imported claude-code session: x" }],
        synthetic: true,
        uiVisible: false,
        meta: { type: "imported-session", source: "claude-code", model: "claude-sonnet-4-5-20250929" },
      },
      { role: "user", parts: [{ type: "text", text: "x".repeat(60_000) }] },
    ]);
    const usage = await usageFromStore({
      store: imported,
      sessionId: "s1",
      config: {},
      settings,
      contextLimit: 16_000,
      fallbackModelKey: "ollama:qwen3:32b",
    });
    expect(usage).toMatchObject({
      contextLimit: 200_000,
      model: "claude-sonnet-4-5-20250929",
      modelSource: "session",
      tokensUntilRollover: expect.any(Number),
    });
    expect(usage.tokensUntilRollover).toBeGreaterThan(0);
    const plain = createMemoryStore();
    await plain.append("s1", [{ role: "user", parts: [{ type: "text", text: "hello" }] }]);
    const standIn = await usageFromStore({
      store: plain,
      sessionId: "s1",
      config: {},
      settings,
      contextLimit: 16_000,
      fallbackModelKey: "ollama:qwen3:32b",
    });
    expect(standIn).toMatchObject({ contextLimit: 16_000, model: "ollama:qwen3:32b", modelSource: "server" });
    const none = await usageFromStore({ store: plain, sessionId: "s1", config: {}, settings, contextLimit: undefined });
    expect(none).toMatchObject({ contextLimit: null, model: null, modelSource: null });
  });
});
