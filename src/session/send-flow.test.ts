import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { readStepMetadata } from "../core/rollover/step-usage.js";
import { createAgentSession } from "./create-agent-session.js";
import { scriptedModel } from "./test-support/scripted-model.js";
import { deterministic, memoryStore, readTool, scriptedSession } from "./test-support/session-fixture.js";

describe("send", () => {
  it("sends system + tools + the window, and stores one assistant row per step with its usage", async () => {
    const { store, calls, session } = scriptedSession(
      [
        {
          text: "Let me read it.",
          toolCalls: [{ toolName: "read", input: { path: "a.txt" } }],
          inputTokens: 120,
          outputTokens: 7,
        },
        { text: "It says alpha.", inputTokens: 150, outputTokens: 4 },
      ],
      { system: "You are terse.", tools: { read: readTool({ "a.txt": "alpha" }) } },
    );
    const steps: number[] = [];
    session.on("step-end", (event) => steps.push(event.stepIndex));

    const result = await session.send("What is in a.txt?");

    expect(result).toMatchObject({
      status: "completed",
      text: "It says alpha.",
      rollovers: [],
      warnings: [],
      usage: { inputTokens: 270, outputTokens: 11, steps: 2 },
    });
    expect(calls).toHaveLength(2);
    expect(calls[0]!.system).toBe("You are terse.");
    expect(calls[0]!.toolNames).toEqual(["read", "session_history"]);
    expect(calls[0]!.text).toBe("system: You are terse.\nuser: What is in a.txt?");
    // The second step sees the tool call and its result, built from the stored rows.
    expect(calls[1]!.text).toContain('assistant: call read {"path":"a.txt"}');
    expect(calls[1]!.text).toContain('tool: result read {"type":"text","value":"alpha"}');
    expect(steps).toEqual([0, 1]);

    const { rows } = await store.activeWindow("s");
    expect(rows.map((row) => row.role)).toEqual(["user", "assistant", "assistant"]);
    const toolPart = rows[1]!.parts.find((part) => part.type === "tool-read") as
      { state: string; output: unknown; input: unknown } | undefined;
    expect(toolPart).toMatchObject({ state: "output-available", input: { path: "a.txt" }, output: "alpha" });
    expect(readStepMetadata(rows[1]!)?.usage).toMatchObject({ inputTokens: 120, outputTokens: 7 });
    expect(rows.every((row) => typeof row.tokens === "number" && row.tokens > 0)).toBe(true);
  });

  it("applies the window view on every step: the second request is rebuilt from stored rows, not the SDK's memory", async () => {
    const { calls, session } = scriptedSession(
      [
        { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }] },
        { toolCalls: [{ toolName: "read", input: { path: "b.txt" } }] },
        { text: "done" },
      ],
      { tools: { read: readTool({ "a.txt": "alpha", "b.txt": "beta" }) } },
    );
    await session.send("read both");
    expect(calls).toHaveLength(3);
    expect(calls[2]!.text.match(/result read/g)).toHaveLength(2);
    expect(calls[2]!.text).toContain('"value":"beta"');
  });

  it("queues a second send behind the first; each gets its own result", async () => {
    const { store, session } = scriptedSession((call) => ({ text: `answer ${call.index}` }));
    const [first, second] = await Promise.all([session.send("one"), session.send("two")]);
    expect(first.text).toBe("answer 0");
    expect(second.text).toBe("answer 1");
    const { rows } = await store.activeWindow("s");
    expect(rows.map((row) => row.parts.map((part) => ("text" in part ? part.text : "")).join(""))).toEqual([
      "one",
      "answer 0",
      "two",
      "answer 1",
    ]);
  });

  it("accepts text with attachments", async () => {
    const { calls, session } = scriptedSession([{ text: "a cat" }]);
    await session.send({
      text: "what is this?",
      files: [{ mediaType: "image/png", url: "data:image/png;base64,iVBORw0KGgo=" }],
    });
    expect(calls[0]!.text).toContain("user: [file image/png]");
  });
});

describe("send failures", () => {
  it("an unexpected failure while preparing a turn ends the send as failed instead of throwing", async () => {
    const { calls, session } = scriptedSession([{ text: "never" }], {
      hotMemories: { mode: "read-write", render: async () => Promise.reject(new Error("memory index unreadable")) },
    });
    const errors: string[] = [];
    session.on("error", (event) => errors.push(event.error.message));
    const result = await session.send("hello");
    expect(result.status).toBe("failed");
    expect(result.error?.message).toBe("memory index unreadable");
    expect(errors).toEqual(["memory index unreadable"]);
    expect(calls).toHaveLength(0);
  });
});

describe("maxRetries", () => {
  // A retryable failure (503) that asks for a 1 ms wait, so the AI SDK's retries do not back off for seconds.
  const unavailable = () =>
    new APICallError({
      message: "Service Unavailable",
      url: "http://127.0.0.1/v1/chat/completions",
      requestBodyValues: {},
      statusCode: 503,
      responseHeaders: { "retry-after-ms": "1" },
      isRetryable: true,
    });

  it.each([
    [undefined, 3],
    [0, 1],
    [1, 2],
  ])("with maxRetries %s calls the provider %i times before the turn fails", async (maxRetries, expectedCalls) => {
    const { model, calls } = scriptedModel({ script: () => ({ error: unavailable() }) });
    const session = createAgentSession({
      store: memoryStore(),
      sessionId: "s",
      model,
      budget: { contextLimit: 100_000 },
      ...(maxRetries === undefined ? {} : { maxRetries }),
      logWarning: () => {},
      ...deterministic(),
    });
    const result = await session.send("hello?");
    expect(result.status).toBe("failed");
    expect(calls).toHaveLength(expectedCalls);
  });

  it("refuses a negative or fractional count", () => {
    const { model } = scriptedModel({ script: [] });
    expect(() => createAgentSession({ store: memoryStore(), sessionId: "s", model, maxRetries: -1 })).toThrow(
      /maxRetries must be a whole number/,
    );
    expect(() => createAgentSession({ store: memoryStore(), sessionId: "s", model, maxRetries: 1.5 })).toThrow(
      /maxRetries must be a whole number/,
    );
  });
});
