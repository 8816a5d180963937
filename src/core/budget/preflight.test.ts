import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors.js";
import { createCalibrationState, updateCalibration } from "./calibration.js";
import { createModelCatalog } from "./model-catalog.js";
import { preflightFreshWindow, preflightRequest } from "./preflight.js";
import { estimateRequestTokens } from "./request-estimate.js";

const system = "You are a coding agent. Keep answers short.";
const leadIn = "This is context window w:42. Earlier windows are available through session_history.";
const paragraph = "The deployment failed because the migration step timed out after 300 seconds. ";

describe("preflightFreshWindow", () => {
  it("accepts an input a fresh window can hold, with the numbers", () => {
    const outcome = preflightFreshWindow({
      model: "openai:gpt-4.1",
      system,
      hotMemories: "<hot_memories></hot_memories>",
      leadIn,
      message: "Fix the build.",
    });
    expect(outcome).toMatchObject({ status: "ok", model: "openai:gpt-4.1", limit: 1_047_576, hardCeiling: 1_039_384 });
    if (outcome.status !== "ok") return;
    expect(outcome.tokens).toBe(outcome.estimate.tokens);
    expect(outcome.headroom).toBe(outcome.hardCeiling - outcome.tokens);
    // Everything a fresh window holds is counted: system, hot memories, lead-in and the message.
    const withoutLeadIn = preflightFreshWindow({
      model: "openai:gpt-4.1",
      system,
      hotMemories: "<hot_memories></hot_memories>",
      message: "Fix the build.",
    });
    expect(outcome.tokens).toBeGreaterThan(withoutLeadIn.tokens);
  });

  it("blocks an input that even a fresh window cannot hold, and says what to do", () => {
    const message = paragraph.repeat(600); // ~9,000 tokens
    const outcome = preflightFreshWindow({ model: "gpt-4", system, leadIn, message });
    expect(outcome).toMatchObject({
      status: "blocked",
      reason: "fresh-window-too-small",
      model: "gpt-4",
      limit: 8_192,
      hardCeiling: 6_144,
    });
    if (outcome.status !== "blocked") return;
    expect(outcome.excess).toBe(outcome.tokens - 6_144);
    expect(outcome.message).toMatch(/even in a fresh context window/);
    expect(outcome.message).toMatch(/Shorten it, remove attachments, or use a model with a larger context window\./);
    expect(outcome.message).toContain("6,144");
  });

  it("is ok exactly at the ceiling and blocked one token above it", () => {
    const tokens = preflightFreshWindow({ model: "openai:gpt-4o", limit: 1_000_000, message: "hello there" }).tokens;
    // With a 1-token reserve the ceiling is limit − 1.
    expect(
      preflightFreshWindow({ model: "openai:gpt-4o", limit: tokens + 1, outputReserve: 1, message: "hello there" }),
    ).toMatchObject({
      status: "ok",
      hardCeiling: tokens,
      headroom: 0,
    });
    expect(
      preflightFreshWindow({ model: "openai:gpt-4o", limit: tokens, outputReserve: 1, message: "hello there" }),
    ).toMatchObject({
      status: "blocked",
      hardCeiling: tokens - 1,
      excess: 1,
    });
  });

  it("counts attached images", () => {
    const plain = preflightFreshWindow({ model: "openai:gpt-4o", limit: 10_000, message: "What is in this picture?" });
    const withImages = preflightFreshWindow({
      model: "openai:gpt-4o",
      limit: 10_000,
      message: "What is in this picture?",
      images: 8,
    });
    expect(withImages.tokens - plain.tokens).toBe(8 * 1_024);
    expect(withImages.status).toBe("blocked");
  });

  it("says when the limit is unknown, and that a local model's limit must come from the user", () => {
    const outcome = preflightFreshWindow({ model: "ollama:qwen3:32b", system, message: "hi" });
    expect(outcome).toMatchObject({ status: "unknown-limit", key: "ollama:qwen3:32b", needsUserLimit: true });
    if (outcome.status === "unknown-limit") expect(outcome.message).toMatch(/must come from you/);
    expect(preflightFreshWindow({ model: "ollama:qwen3:32b", limit: 40_960, system, message: "hi" }).status).toBe("ok");
    const catalog = createModelCatalog({ overrides: { "ollama:qwen3:32b": { contextLimit: 40_960 } } });
    expect(preflightFreshWindow({ model: "ollama:qwen3:32b", catalog, system, message: "hi" })).toMatchObject({
      status: "ok",
      limit: 40_960,
    });
  });

  it("applies the session calibration", () => {
    const message = paragraph.repeat(250);
    const base = preflightFreshWindow({ model: "gemini-2.0-flash", limit: 100_000, message });
    const calibration = updateCalibration(createCalibrationState(), {
      model: "gemini-2.0-flash",
      estimated: 10_000,
      reported: 20_000,
    });
    const calibrated = preflightFreshWindow({ model: "gemini-2.0-flash", limit: 100_000, message, calibration });
    expect(calibrated.tokens).toBe(Math.ceil(base.tokens * 2));
  });

  it("refuses a malformed limit", () => {
    expect(() => preflightFreshWindow({ model: "x", limit: 0, message: "hi" })).toThrow(InvalidArgumentError);
    expect(() => preflightFreshWindow({ model: "x", limit: -10, message: "hi" })).toThrow(/limit/);
  });
});

describe("preflightRequest", () => {
  const messages = Array.from({ length: 60 }, (_, index) => ({
    seq: index + 1,
    id: `r${index + 1}`,
    role: index % 2 === 0 ? "user" : "assistant",
    parts: [{ type: "text", text: paragraph.repeat(10) }],
  }));

  it("checks each attempt's model on its own: the fallback gets its own ceiling", () => {
    const request = { system, messages };
    const primary = preflightRequest({ model: "anthropic:claude-sonnet-4-5", request });
    const fallback = preflightRequest({ model: "gpt-4", request });
    expect(primary.status).toBe("ok");
    expect(fallback).toMatchObject({
      status: "blocked",
      reason: "request-over-ceiling",
      model: "gpt-4",
      hardCeiling: 6_144,
    });
    if (fallback.status === "blocked") expect(fallback.message).toMatch(/^This request was not sent/);
  });

  it("reuses the previous estimate of the window", () => {
    const previous = estimateRequestTokens({ model: "openai:gpt-4.1", system, messages: messages.slice(0, 59) });
    const outcome = preflightRequest({ model: "openai:gpt-4.1", request: { system, messages }, previous });
    expect(outcome.estimate.tokenizedMessages).toBe(1);
    expect(outcome.tokens).toBe(estimateRequestTokens({ model: "openai:gpt-4.1", system, messages }).tokens);
  });

  it("reports an unknown model instead of guessing", () => {
    expect(preflightRequest({ model: "acme:rocket-9000", request: { messages } })).toMatchObject({
      status: "unknown-limit",
      needsUserLimit: false,
    });
  });
});
