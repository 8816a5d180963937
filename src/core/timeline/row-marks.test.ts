import { describe, expect, it } from "vitest";
import { stepMetadata } from "../rollover/step-usage.js";
import { notesWriteOf, requestOf, toolOutputTokensOf, type TimelineRow } from "./row-marks.js";

const base = { seq: 3, createdAt: "2026-12-04T00:00:00.000Z" };

function memoryPart(input: Record<string, unknown>, output: unknown = { status: "ok" }) {
  return { type: "tool-memory", toolCallId: "c1", state: "output-available", input, output };
}

describe("requestOf", () => {
  it("takes the reported input, else our estimate, and ignores rows that are not steps", () => {
    const reported = requestOf({
      ...base,
      role: "assistant",
      parts: [],
      metadata: stepMetadata({
        usage: { inputTokens: 900, outputTokens: 12 },
        model: "m",
        estimatedInputTokens: 800,
        contextLimit: 4000,
      }),
    });
    expect(reported).toEqual({
      tokens: 900,
      source: "reported",
      limit: 4000,
      outputTokens: 12,
      cacheReadTokens: null,
      cacheWriteTokens: null,
      costUsd: null,
      model: "m",
    });
    // A priced model with cached input: the cache figures and the cost at Claude Sonnet 4.5's prices.
    const cached = requestOf({
      ...base,
      role: "assistant",
      parts: [],
      metadata: stepMetadata({
        usage: { inputTokens: 1_000, outputTokens: 10, cacheReadTokens: 900, cacheWriteTokens: 50 },
        model: "anthropic.messages:claude-sonnet-4-5",
      }),
    });
    expect(cached).toMatchObject({ tokens: 1_000, cacheReadTokens: 900, cacheWriteTokens: 50 });
    expect(cached?.costUsd).toBeCloseTo((50 * 3 + 900 * 0.3 + 50 * 3.75 + 10 * 15) / 1e6, 12);
    const estimated = requestOf({
      ...base,
      role: "assistant",
      parts: [],
      metadata: stepMetadata({
        usage: { inputTokens: 0, outputTokens: undefined },
        model: "m",
        estimatedInputTokens: 800,
      }),
    });
    expect(estimated).toMatchObject({ tokens: 800, source: "estimated", limit: null, outputTokens: null });
    expect(
      requestOf({
        ...base,
        role: "assistant",
        parts: [],
        metadata: stepMetadata({ usage: { inputTokens: undefined, outputTokens: undefined }, model: "m" }),
      }),
    ).toBeUndefined();
    expect(
      requestOf({
        ...base,
        role: "user",
        parts: [],
        metadata: stepMetadata({ usage: { inputTokens: 5, outputTokens: 1 }, model: "m" }),
      }),
    ).toBeUndefined();
  });
});

describe("notesWriteOf", () => {
  const notes = "/memories/workspace/context-notes.md";
  const row = (part: unknown): TimelineRow => ({ ...base, role: "assistant", parts: [part as { type: string }] });

  it("finds a successful write to the notes file, not reads, failures or other files", () => {
    expect(notesWriteOf(row(memoryPart({ command: "str_replace", path: notes })))).toBe("str_replace");
    expect(
      notesWriteOf(row(memoryPart({ command: "rename", old_path: "/memories/workspace/draft.md", new_path: notes }))),
    ).toBe("rename");
    expect(notesWriteOf(row(memoryPart({ command: "view", path: notes })))).toBeUndefined();
    expect(
      notesWriteOf(row(memoryPart({ command: "create", path: notes }, { status: "error", code: "read_only" }))),
    ).toBeUndefined();
    expect(notesWriteOf(row(memoryPart({ command: "create", path: "/memories/project/notes.md" })))).toBeUndefined();
  });
});

describe("toolOutputTokensOf", () => {
  it("shares the row's stored count out by characters", () => {
    const parts = [
      { type: "text", text: "x".repeat(100) },
      {
        type: "tool-read_file",
        toolCallId: "c",
        state: "output-available",
        input: "y".repeat(100),
        output: "z".repeat(200),
      },
    ];
    expect(toolOutputTokensOf({ ...base, role: "assistant", parts, tokens: 120 })).toBe(60);
    expect(toolOutputTokensOf({ ...base, role: "assistant", parts })).toBe(50);
    expect(toolOutputTokensOf({ ...base, role: "assistant", parts: [{ type: "text", text: "hi" }], tokens: 1 })).toBe(
      0,
    );
  });
});
