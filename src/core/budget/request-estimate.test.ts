import { jsonSchema, tool } from "ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../errors.js";
import { createCalibrationState, updateCalibration } from "./calibration.js";
import { DEFAULT_IMAGE_TOKENS, countMessageContent, countRowTokens, type CountableMessage } from "./message-tokens.js";
import {
  MESSAGE_OVERHEAD_TOKENS,
  REQUEST_OVERHEAD_TOKENS,
  TOOL_OVERHEAD_TOKENS,
  UNKNOWN_SCHEMA_TOKENS,
  estimateRequestTokens,
} from "./request-estimate.js";
import { CL100K_CACHED_FACTOR, countEncodedTokens } from "./token-count.js";

const text = (value: string) => ({ type: "text", text: value });

function row(seq: number, body: string, role = seq % 2 === 0 ? "user" : "assistant"): CountableMessage {
  return { seq, id: `row-${seq}`, role, parts: [text(body)] };
}

function window(size: number, { cached }: { cached: boolean }): CountableMessage[] {
  return Array.from({ length: size }, (_, index) => {
    const message = row(
      index + 1,
      `Message ${index + 1}: the build step ${index % 7} finished with exit code ${index % 3}.`,
    );
    return cached ? { ...message, tokens: countRowTokens(message) } : message;
  });
}

describe("estimateRequestTokens", () => {
  it("adds system text, messages with their framing, tool schemas and images", () => {
    const system = "You are a careful assistant.";
    const messages = window(3, { cached: false });
    const tools = [
      {
        name: "list_files",
        description: "List files in a directory.",
        parameters: { type: "object", properties: { directory: { type: "string" } } },
      },
    ];
    const estimate = estimateRequestTokens({ model: "openai:gpt-4.1", system, messages, tools, images: 2 });

    const toolJson = JSON.stringify({
      name: "list_files",
      description: "List files in a directory.",
      parameters: tools[0]?.parameters,
    });
    const messageTokens = messages.reduce(
      (sum, message) => sum + countMessageContent(message) + MESSAGE_OVERHEAD_TOKENS,
      0,
    );
    expect(estimate.breakdown).toEqual({
      system: countEncodedTokens(system),
      tools: countEncodedTokens(toolJson) + TOOL_OVERHEAD_TOKENS,
      messages: messageTokens,
      images: 2 * DEFAULT_IMAGE_TOKENS,
      overhead: REQUEST_OVERHEAD_TOKENS + MESSAGE_OVERHEAD_TOKENS,
    });
    const sum = Object.values(estimate.breakdown).reduce((total, value) => total + value, 0);
    expect(estimate).toMatchObject({
      tokens: sum,
      rawTokens: sum,
      calibrationFactor: 1,
      messageCount: 3,
      tokenizedMessages: 3,
    });
  });

  it("uses a row's cached count instead of tokenizing it", () => {
    const cachedRow = { ...row(1, "short"), tokens: 5_000 };
    const estimate = estimateRequestTokens({ messages: [cachedRow] });
    expect(estimate.breakdown.messages).toBe(5_000 + MESSAGE_OVERHEAD_TOKENS);
    expect(estimate.tokenizedMessages).toBe(0);
    // A malformed cache is not trusted.
    expect(estimateRequestTokens({ messages: [{ ...row(1, "short"), tokens: -1 }] }).tokenizedMessages).toBe(1);
  });

  it("applies the provider factor for estimated providers and scales cached counts for cl100k_base models", () => {
    const messages = window(4, { cached: false });
    const exact = estimateRequestTokens({ model: "openai:gpt-4o", messages });
    const claude = estimateRequestTokens({ model: "anthropic:claude-sonnet-4-5", messages });
    expect(claude.rawTokens).toBe(Math.ceil(exact.rawTokens * 1.35));

    const cachedRow = { ...row(1, "ignored"), tokens: 1_000 };
    expect(estimateRequestTokens({ model: "gpt-4", messages: [cachedRow] }).breakdown.messages).toBe(
      1_000 * CL100K_CACHED_FACTOR + MESSAGE_OVERHEAD_TOKENS,
    );
    const georgian = { role: "user", content: "გამარჯობა! როგორ ხართ დღეს? 🇬🇪" };
    expect(estimateRequestTokens({ model: "gpt-4", messages: [georgian] }).breakdown.messages).toBe(
      55 + MESSAGE_OVERHEAD_TOKENS,
    );
  });

  it("applies the session calibration on top of the raw estimate", () => {
    const calibration = updateCalibration(createCalibrationState(), {
      model: "gemini-2.5-pro",
      estimated: 10_000,
      reported: 12_000,
    });
    const messages = window(20, { cached: true });
    const plain = estimateRequestTokens({ model: "gemini-2.5-pro", messages });
    const calibrated = estimateRequestTokens({ model: "gemini-2.5-pro", messages, calibration });
    expect(calibrated.rawTokens).toBe(plain.rawTokens);
    expect(calibrated.calibrationFactor).toBeCloseTo(1.2, 10);
    expect(calibrated.tokens).toBe(Math.ceil(plain.rawTokens * 1.2 - 1e-9));
  });

  it("lets calibration raise an exact count but never lower it; an estimated count may go down", () => {
    let calibration = createCalibrationState();
    for (let round = 0; round < 40; round += 1) {
      for (const model of ["gpt-4o", "gemini-2.5-pro"])
        calibration = updateCalibration(calibration, { model, estimated: 10_000, reported: 8_000 });
    }
    const messages = window(20, { cached: false });
    const exact = estimateRequestTokens({ model: "gpt-4o", messages, calibration });
    expect(exact.calibrationFactor).toBeLessThan(0.85);
    expect(exact.tokens).toBe(exact.rawTokens);
    const estimated = estimateRequestTokens({ model: "gemini-2.5-pro", messages, calibration });
    expect(estimated.tokens).toBeLessThan(estimated.rawTokens);
    const raised = updateCalibration(createCalibrationState(), {
      model: "gpt-4o",
      estimated: 10_000,
      reported: 11_000,
    });
    const framed = estimateRequestTokens({ model: "gpt-4o", messages, calibration: raised });
    expect(framed.tokens).toBe(Math.ceil(framed.rawTokens * 1.1 - 1e-9));
  });

  it("renders AI SDK tools (zod or JSON schema) and charges a fixed allowance for a schema it cannot render", () => {
    const tools = {
      read_file: tool({
        description: "Read a file.",
        inputSchema: z.object({ path: z.string().describe("Relative path") }),
      }),
      grep: tool({
        description: "Search.",
        inputSchema: jsonSchema({ type: "object", properties: { query: { type: "string" } } }),
      }),
    };
    const estimate = estimateRequestTokens({ tools });
    expect(estimate.memo.toolsJson).toContain('"Relative path"');
    expect(estimate.memo.toolsJson).toContain('"query"');
    expect(estimate.breakdown.tools).toBe(countEncodedTokens(estimate.memo.toolsJson) + 2 * TOOL_OVERHEAD_TOKENS);

    const deferred = { later: { description: "x", inputSchema: { jsonSchema: Promise.resolve({}) } } };
    const unknown = estimateRequestTokens({ tools: deferred });
    expect(unknown.breakdown.tools).toBe(
      countEncodedTokens(unknown.memo.toolsJson) + TOOL_OVERHEAD_TOKENS + UNKNOWN_SCHEMA_TOKENS,
    );
  });

  it("refuses malformed numbers", () => {
    expect(() => estimateRequestTokens({ images: -1 })).toThrow(InvalidArgumentError);
    expect(() => estimateRequestTokens({ imageTokens: 0 })).toThrow(/imageTokens/);
    expect(() => estimateRequestTokens({ fileTokens: Number.NaN })).toThrow(/fileTokens/);
  });
});

describe("estimateRequestTokens with a previous estimate", () => {
  it("counts only the messages added since, and gives the same total as a full count", () => {
    const messages = window(50, { cached: false });
    const first = estimateRequestTokens({ model: "openai:gpt-4.1", system: "s", messages: messages.slice(0, 40) });
    const next = estimateRequestTokens({ model: "openai:gpt-4.1", system: "s", messages, previous: first });
    expect(next.tokenizedMessages).toBe(10);
    expect(next.tokens).toBe(estimateRequestTokens({ model: "openai:gpt-4.1", system: "s", messages }).tokens);
  });

  it("never reads the rows it already counted, however long the window", () => {
    let reads = 0;
    const counted = Array.from({ length: 100_000 }, (_, index) => {
      const message = row(index + 1, "x");
      return Object.defineProperty(message, "tokens", { get: () => ((reads += 1), 3), enumerable: true });
    });
    const first = estimateRequestTokens({ messages: counted });
    expect(reads).toBe(100_000);
    reads = 0;
    const step = [...counted, row(100_001, "tool result: 3 files changed"), row(100_002, "All done.")];
    const next = estimateRequestTokens({ messages: step, previous: first });
    expect(reads).toBe(0);
    expect(next.tokenizedMessages).toBe(2);
  });

  it("accepts re-read rows (new objects with the same seq and id)", () => {
    const messages = window(10, { cached: false });
    const first = estimateRequestTokens({ messages });
    const reread = messages.map((message) => ({ ...message }));
    expect(estimateRequestTokens({ messages: [...reread, row(11, "new")], previous: first }).tokenizedMessages).toBe(1);
  });

  it.each([
    ["another model", { model: "anthropic:claude-sonnet-4-5" }],
    ["fewer messages (a new window)", { messages: window(5, { cached: false }) }],
    [
      "a different last counted message",
      { messages: [...window(9, { cached: false }), row(99, "other"), row(100, "new")] },
    ],
    ["another image estimate", { imageTokens: 2_000 }],
  ])("starts over for %s", (_label, change) => {
    const messages = window(10, { cached: false });
    const first = estimateRequestTokens({ messages });
    const input = { messages: [...messages, row(11, "new")], previous: first, ...change };
    const next = estimateRequestTokens(input);
    expect(next.tokenizedMessages).toBe(input.messages.length);
    expect(next.tokens).toBe(estimateRequestTokens({ ...input, previous: undefined }).tokens);
  });

  it("recounts system text and tools only when they change", () => {
    const messages = window(3, { cached: true });
    const tools = [{ name: "a", description: "first" }];
    const first = estimateRequestTokens({ system: "one", messages, tools });
    const same = estimateRequestTokens({ system: "one", messages, tools, previous: first });
    expect(same.breakdown).toEqual(first.breakdown);
    const changed = estimateRequestTokens({
      system: "one two three",
      messages,
      tools: [{ name: "a", description: "first, now longer" }],
      previous: first,
    });
    expect(changed.breakdown.system).toBe(countEncodedTokens("one two three"));
    expect(changed.breakdown.tools).toBeGreaterThan(first.breakdown.tools);
  });

  it("always equals a full estimate, wherever the previous one stopped", () => {
    const messages = window(30, { cached: false });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }), (split, end) => {
        const stop = Math.max(split, end);
        const first = estimateRequestTokens({ model: "qwen3-32b", messages: messages.slice(0, split), images: 1 });
        const next = estimateRequestTokens({
          model: "qwen3-32b",
          messages: messages.slice(0, stop),
          images: 1,
          previous: first,
        });
        expect(next.tokens).toBe(
          estimateRequestTokens({ model: "qwen3-32b", messages: messages.slice(0, stop), images: 1 }).tokens,
        );
      }),
      { numRuns: 60 },
    );
  });
});
