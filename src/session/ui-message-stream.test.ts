/**
 * Issue 29: a send as the AI SDK's UI message stream. What the SDK's own reader (`readUIMessageStream`,
 * which `useChat` uses) builds from it: every turn's text and tool parts in one assistant message,
 * a rollover as a data part between them, and the new session events for tools and steps.
 */
import { readUIMessageStream, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "./test-support/scripted-model.js";
import { memoryStore, readTool } from "./test-support/session-fixture.js";
import { FORCE_AT, budgetSession, readBoth, twoFiles } from "./test-support/rollover-setup.js";
import type { CtxwinUIMessage } from "./ui-message-stream.js";

async function lastMessage(stream: ReadableStream<UIMessageChunk>): Promise<CtxwinUIMessage> {
  let last: CtxwinUIMessage | undefined;
  for await (const message of readUIMessageStream<CtxwinUIMessage>({ stream: stream as never, terminateOnError: true }))
    last = message;
  return last!;
}

describe("session.toUIMessageStream", () => {
  it("streams every turn of a send into one message: tool parts, a rollover data part, the continuation's text", async () => {
    const store = memoryStore();
    const { model } = scriptedModel({
      script: [
        { ...readBoth, inputTokens: FORCE_AT - 400 },
        { text: "finished", inputTokens: 800 },
      ],
    });
    const session = budgetSession({ store, model, tools: { read: readTool(twoFiles) } });
    const events: string[] = [];
    session.on("step-start", ({ stepIndex }) => events.push(`step-start ${stepIndex}`));
    session.on("tool-call", ({ toolName, input }) => events.push(`tool-call ${toolName} ${JSON.stringify(input)}`));
    session.on("tool-result", (event) =>
      events.push(`tool-result ${event.toolName} ${"output" in event ? String(event.output).length : "?"}`),
    );

    const message = await lastMessage(session.toUIMessageStream("read both files"));

    expect(message.role).toBe("assistant");
    const shape = message.parts
      .filter((part) => part.type !== "step-start")
      .map((part) => (part.type === "text" ? `text ${part.text}` : part.type));
    expect(shape).toEqual(["tool-read", "tool-read", "data-ctxwin-usage", "data-ctxwin-rollover", "text finished"]);
    const rollover = message.parts.find((part) => part.type === "data-ctxwin-rollover");
    expect(rollover).toMatchObject({ data: { reason: "mid-stream", previousWindowId: "w:0", windowId: "w:3" } });
    const tools = message.parts.filter((part) => part.type === "tool-read") as Array<{ state: string; output: string }>;
    expect(tools.map((part) => [part.state, part.output.length])).toEqual([
      ["output-available", 2_000],
      ["output-available", 2_000],
    ]);
    expect(events).toEqual([
      "step-start 0",
      'tool-call read {"path":"a.txt"}',
      'tool-call read {"path":"b.txt"}',
      "tool-result read 2000",
      "tool-result read 2000",
      "step-start 0",
    ]);
  });

  it("ends with an error chunk when the send fails, and with abort when it is interrupted", async () => {
    const { model } = scriptedModel({ script: [{ error: new Error("the provider is down") }] });
    const session = budgetSession({ store: memoryStore(), model, maxRetries: 0 });
    const chunks: UIMessageChunk[] = [];
    for await (const chunk of session.toUIMessageStream("hello") as unknown as AsyncIterable<UIMessageChunk>)
      chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.type).slice(-2)).toEqual(["error", "finish"]);

    const controller = new AbortController();
    controller.abort();
    const aborted: UIMessageChunk[] = [];
    for await (const chunk of session.toUIMessageStream("again", {
      signal: controller.signal,
    }) as unknown as AsyncIterable<UIMessageChunk>)
      aborted.push(chunk);
    expect(aborted.map((chunk) => chunk.type)).toEqual(["start", "abort"]);
  });
});
