/**
 * Issue 29: the session engine as an AI SDK `Agent`. Through the AI SDK's own route helper
 * (`createAgentUIStreamResponse`) and reader (`readUIMessageStream`, what `useChat` uses): the
 * answer streams tool parts and ctxwin's data parts, the store holds every step, a later call with
 * the whole chat takes only the new message, and bad client input is refused with nothing written.
 */
import {
  createAgentUIStreamResponse,
  readUIMessageStream,
  stepCountIs,
  tool,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { z } from "zod";
import { InvalidArgumentError } from "../../core/errors.js";
import { createAgentSession } from "../create-agent-session.js";
import { describe, expect, it } from "vitest";
import type { HistoryStore } from "../../store/port.js";
import { scriptedModel, type RecordedCall, type ScriptedStep } from "../test-support/scripted-model.js";
import { deterministic, memoryStore, readTool, rowText } from "../test-support/session-fixture.js";
import { readAllRows, sessionProblems } from "../test-support/session-invariants.js";
import { FORCE_AT, LIMIT, readBoth, twoFiles } from "../test-support/rollover-setup.js";
import type { CtxwinUIMessage } from "../ui-message-stream.js";
import { AgentInputError } from "./agent-input.js";
import { SessionBusyError } from "./session-busy-error.js";
import { createContextAgent, type ContextAgentOptions } from "./create-context-agent.js";

let agents = 0;

/** A new agent object over the chat, as a route handler makes one per request (ids of its own). */
function agentOf(store: HistoryStore, model: ContextAgentOptions["model"], extra: Partial<ContextAgentOptions> = {}) {
  agents += 1;
  return createContextAgent({
    store,
    sessionId: "chat",
    model,
    tools: { read: readTool(twoFiles) },
    budget: { contextLimit: LIMIT },
    ...deterministic(`agent${agents}`),
    ...extra,
  });
}

/** The SSE body of a UI message stream response, as chunks. */
async function chunksOf(response: Response): Promise<UIMessageChunk[]> {
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice("data: ".length)) as UIMessageChunk);
}

async function messageOf(chunks: UIMessageChunk[]): Promise<CtxwinUIMessage> {
  let last: CtxwinUIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const message of readUIMessageStream<CtxwinUIMessage>({ stream: stream as never })) last = message;
  return last!;
}

const user = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });

/** Answers `answer to <the request's last user text>` in two chunks, so that two answers could interleave. */
const answerInTwoChunks = (call: RecordedCall): ScriptedStep => ({
  textChunks: ["answer to ", call.text.split("\n").at(-1)!.replace("user: ", "")],
  inputTokens: 400,
});

/** Whether the message holds a text part that is exactly `text`. */
const hasText = (message: CtxwinUIMessage, text: string) =>
  message.parts.some((part) => part.type === "text" && part.text === text);

describe("createContextAgent", () => {
  it("answers a useChat request through createAgentUIStreamResponse: tool parts, a rollover part, every step stored", async () => {
    const store = memoryStore();
    const { model, calls } = scriptedModel({
      script: [
        { ...readBoth, inputTokens: FORCE_AT - 400 },
        { text: "finished", inputTokens: 800 },
        { text: "second answer", inputTokens: 900 },
      ],
    });
    const first = user("u1", "read both files");
    const response = await createAgentUIStreamResponse({ agent: agentOf(store, model), uiMessages: [first] });
    const answer = await messageOf(await chunksOf(response));

    // AI SDK 7's route helper reads `result.stream`: ctxwin's data parts come as `custom` parts.
    const kinds = answer.parts
      .filter((part) => part.type !== "step-start")
      .map((part) => (part.type === "custom" ? (part as { kind: string }).kind : part.type));
    // Each usage figure is a part of its own (a data part with an id would replace the earlier one).
    expect(kinds).toEqual(["tool-read", "tool-read", "ctxwin.usage", "ctxwin.rollover", "text", "ctxwin.usage"]);
    const rollover = answer.parts.find(
      (part) => part.type === "custom" && (part as { kind: string }).kind === "ctxwin.rollover",
    ) as unknown as { providerMetadata: { ctxwin: { reason: string } } };
    expect(rollover.providerMetadata.ctxwin.reason).toBe("mid-stream");
    const rows = await readAllRows(store, "chat");
    expect(sessionProblems(rows, rows.length)).toEqual([]);
    expect(rows.map((row) => row.meta?.type ?? row.role)).toEqual([
      "user",
      "assistant",
      "rollover",
      "lead-in",
      "continue",
      "assistant",
    ]);

    // The next request carries the whole chat; only the new message is taken, the window is the store's.
    const agent = agentOf(store, model);
    const next = await messageOf(
      await chunksOf(await createAgentUIStreamResponse({ agent, uiMessages: [first, answer, user("u2", "and now?")] })),
    );
    expect(next.parts.filter((part) => part.type === "text").map((part) => (part as { text: string }).text)).toEqual([
      "second answer",
    ]);
    expect(calls[2]!.text).not.toContain("AAAA");
    expect(calls[2]!.text.split("\n").at(-1)).toBe("user: and now?");
    expect(
      (await readAllRows(store, "chat"))
        .filter((row) => row.role === "user" && row.synthetic !== true)
        .map((row) => (row.parts[0] as { text: string }).text),
    ).toEqual(["read both files", "and now?"]);
  });

  it("refuses a client copy that rewrites history, invents a tool result, has unknown parts or 10 MB of text, writing nothing", async () => {
    const store = memoryStore();
    const { model } = scriptedModel({ script: () => ({ text: "ok", inputTokens: 500 }) });
    const first = user("u1", "hello");
    const answer = await messageOf(
      await chunksOf(await createAgentUIStreamResponse({ agent: agentOf(store, model), uiMessages: [first] })),
    );
    const lastSeq = await store.lastSeq("chat");

    const edited = user("u1", "hello, but edited");
    const invented: UIMessage = {
      id: "a9",
      role: "assistant",
      parts: [
        {
          type: "tool-read",
          toolCallId: "never-called",
          state: "output-available",
          input: { path: "x" },
          output: "made up",
        } as never,
      ],
    };
    const cases: Array<[string, unknown[]]> = [
      ["rewritten", [edited, answer, user("u2", "go on")]],
      ["invented tool result", [first, answer, invented, user("u2", "go on")]],
      ["unknown part type", [first, { id: "x", role: "user", parts: [{ type: "hologram", beam: 1 }] }]],
      ["10 MB", [first, answer, user("u2", "x".repeat(10 * 1024 * 1024))]],
      ["assistant last", [first, answer]],
    ];
    for (const [name, uiMessages] of cases) {
      const outcome = await createAgentUIStreamResponse({ agent: agentOf(store, model), uiMessages }).then(
        () => "answered",
        (error: unknown) =>
          AgentInputError.isInstance(error) ? "refused" : `refused by the AI SDK: ${(error as Error).name}`,
      );
      expect(outcome, name).toMatch(/^refused/);
      expect(await store.lastSeq("chat"), name).toBe(lastSeq);
    }
  });

  it("runs two concurrent requests of one chat one after the other, never interleaved", async () => {
    const store = memoryStore();
    const { model } = scriptedModel({ script: answerInTwoChunks });
    const [left, right] = await Promise.all([
      createAgentUIStreamResponse({ agent: agentOf(store, model), uiMessages: [user("u1", "one")] }).then(chunksOf),
      createAgentUIStreamResponse({ agent: agentOf(store, model), uiMessages: [user("u2", "two")] }).then(chunksOf),
    ]);
    expect(hasText(await messageOf(left), "answer to one")).toBe(true);
    expect(hasText(await messageOf(right), "answer to two")).toBe(true);
    const texts = (await readAllRows(store, "chat")).map(rowText);
    expect(texts).toEqual(["one", "answer to one", "two", "answer to two"]);
  });

  it("with whenBusy 'refuse', refuses a second call of a session while one runs, writing nothing for it", async () => {
    const store = memoryStore();
    const { model } = scriptedModel({ script: answerInTwoChunks });
    const first = createAgentUIStreamResponse({
      agent: agentOf(store, model, { whenBusy: "refuse" }),
      uiMessages: [user("u1", "one")],
    }).then(chunksOf);
    const second = createAgentUIStreamResponse({
      agent: agentOf(store, model, { whenBusy: "refuse" }),
      uiMessages: [user("u2", "two")],
    });
    const refusal = await second.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(SessionBusyError.isInstance(refusal)).toBe(true);
    expect((refusal as Error).message).toMatch(/another call of session 'chat' is running/);
    expect(hasText(await messageOf(await first), "answer to one")).toBe(true);
    expect((await readAllRows(store, "chat")).map(rowText)).toEqual(["one", "answer to one"]);
    // Once the first call has finished, the session takes the next one.
    await createAgentUIStreamResponse({
      agent: agentOf(store, model, { whenBusy: "refuse" }),
      uiMessages: [user("u2", "two")],
    }).then(chunksOf);
    expect((await readAllRows(store, "chat")).map(rowText)).toEqual(["one", "answer to one", "two", "answer to two"]);
  });

  it("refuses a tool that needs approval when the agent is made, on both faces (a call awaiting approval would have no result)", () => {
    const { model } = scriptedModel({ script: [{ toolCalls: [{ toolName: "remove", input: { path: "x" } }] }] });
    const remove = tool({
      description: "Removes a file.",
      inputSchema: z.object({ path: z.string() }),
      needsApproval: true,
      execute: async () => "removed",
    });
    const removeSometimes = tool({
      description: "Removes a file.",
      inputSchema: z.object({ path: z.string() }),
      needsApproval: async ({ path }) => path !== "x",
      execute: async () => "removed",
    });
    const makers = [
      () => agentOf(memoryStore(), model, { tools: { remove } }),
      () => agentOf(memoryStore(), model, { tools: { removeSometimes } }),
      () => createAgentSession({ store: memoryStore(), sessionId: "s", model, tools: { remove } }),
    ];
    for (const make of makers) {
      const refusal = (() => {
        try {
          make();
          return undefined;
        } catch (error) {
          return error;
        }
      })();
      expect(InvalidArgumentError.isInstance(refusal)).toBe(true);
      expect((refusal as Error).message).toMatch(
        /^Tool '(remove|removeSometimes)' needs approval \(needsApproval\): tool approvals are not supported/,
      );
    }
    // A tool the allowlist leaves out is never offered, so it may keep its approval.
    expect(() =>
      createAgentSession({
        store: memoryStore(),
        sessionId: "s",
        model,
        tools: { remove },
        toolPolicy: { allow: ["session_history"] },
      }),
    ).not.toThrow();
  });

  it("generate() reports as AI SDK 7 does: usage, content and tool calls of every step, finalStep; the call's onStepEnd", async () => {
    const store = memoryStore();
    // A stored system row (an imported session's note) is part of the window: AI SDK 7 refuses system
    // messages inside `messages` unless told they are trusted, and these are ctxwin's own rows.
    await store.append("chat", [{ role: "system", parts: [{ type: "text", text: "Imported session notes" }] }]);
    const { model, calls } = scriptedModel({
      script: [
        { ...readBoth, inputTokens: 500, outputTokens: 7 },
        { text: "both read", inputTokens: 600, outputTokens: 3 },
      ],
    });
    const ended: string[] = [];
    const result = await agentOf(store, model).generate({
      prompt: "read both",
      onStepEnd: (step) => void ended.push(step.finishReason),
    });
    expect(result.ctxwin.status).toBe("completed");
    expect(calls[0]!.text).toContain("Imported session notes");
    expect(ended).toEqual(["tool-calls", "stop"]);
    expect(result.usage.outputTokens).toBe(10);
    expect(result.totalUsage.outputTokens).toBe(10);
    expect(result.toolCalls.map((call) => call.toolName)).toEqual(["read", "read"]);
    expect(result.toolResults).toHaveLength(2);
    expect(result.content.map((part) => part.type)).toEqual([
      "tool-call",
      "tool-call",
      "tool-result",
      "tool-result",
      "text",
    ]);
    expect(result.finalStep.text).toBe("both read");
  });

  it("passes runtimeContext to the AI SDK's loop, as ToolLoopAgent does: prepareStep and each step see it", async () => {
    const { model } = scriptedModel({ script: [{ text: "ok", inputTokens: 500 }] });
    const seen: unknown[] = [];
    const agent = agentOf(memoryStore(), model, {
      runtimeContext: { requestId: "req-1" },
      prepareStep: ({ runtimeContext }) => void seen.push(runtimeContext),
    });
    const result = await agent.generate({ prompt: "hello" });
    expect(seen).toEqual([{ requestId: "req-1" }]);
    expect(result.finalStep.runtimeContext).toEqual({ requestId: "req-1" });
  });

  it("generate() answers like ToolLoopAgent, with the caller's stopWhen, prepareStep, onStepFinish and providerOptions applied", async () => {
    const store = memoryStore();
    const seen: string[] = [];
    const { model, calls } = scriptedModel({
      script: [
        { toolCalls: [{ toolName: "read", input: { path: "a.txt" } }], inputTokens: 500 },
        { text: "never reached", inputTokens: 600 },
      ],
    });
    const agent = agentOf(store, model, {
      instructions: "You are terse.",
      stopWhen: stepCountIs(1),
      prepareStep: ({ stepNumber }) => {
        seen.push(`prepare ${stepNumber}`);
        return { activeTools: ["read"], messages: [] };
      },
      onStepFinish: (step) => void seen.push(`finish ${step.finishReason}`),
      providerOptions: { mock: { flavour: "plain" } },
      logWarning: (message) => seen.push(message.slice(0, 40)),
    });
    const result = await agent.generate({ prompt: "read a" });
    expect(result.steps).toHaveLength(1);
    expect(result.finishReason).toBe("tool-calls");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.system).toContain("You are terse.");
    expect(calls[0]!.toolNames).toEqual(["read"]);
    expect(calls[0]!.providerOptions).toEqual({ mock: { flavour: "plain" } });
    expect(seen).toEqual(["prepare 0", "ctxwin: a prepareStep result's messages,", "finish tool-calls"]);
    expect((result as unknown as { ctxwin: { status: string } }).ctxwin.status).toBe("completed");
    expect(agent.version).toBe("agent-v1");
    expect(Object.keys(agent.tools)).toContain("session_history");
  });
});
