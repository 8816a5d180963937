/**
 * examples/ai-sdk-agent.ts runs offline: the agent it builds answers like the `ToolLoopAgent` it
 * replaces on the same scripted model, stores every step in ./.ctxwin/ctxwin.db, takes only the
 * new message of a later call, and explores a folder on ctxwin's demo model.
 */
import { ToolLoopAgent, stepCountIs } from "ai";
import type * as Example from "./ai-sdk-agent.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceTools } from "ctxwin";
import { createDemoModel } from "ctxwin/demo";
import { scriptedModel, type Script } from "../src/session/test-support/scripted-model.js";
import { enterProjectFolder, storedRows } from "./example-test-support.js";

const files = { "README.md": "# Tiny\n\nA tiny project.\n", "src/main.ts": "export const answer = 42;\n" };
/** Notes long enough that reading a few of them fills a window of the offline run. */
const notes = Object.fromEntries(
  Array.from({ length: 8 }, (_, file) => [
    `notes/chapter-${file + 1}.md`,
    Array.from(
      { length: 160 },
      (_, line) => `Line ${line} of chapter ${file + 1}: the lighthouse keeper logged ${line * 7 + file} ships.`,
    ).join("\n"),
  ]),
);
let project: ReturnType<typeof enterProjectFolder>;
let example: typeof Example;

beforeAll(async () => {
  project = enterProjectFolder({ ...files, ...notes });
  example = await import("./ai-sdk-agent.js");
});
afterAll(() => project.leave());

const script: Script = [
  { toolCalls: [{ toolName: "read_file", input: { path: "src/main.ts" } }], inputTokens: 600 },
  { text: "answer is 42.", inputTokens: 700 },
];

describe("examples/ai-sdk-agent.ts", () => {
  it("answers like the ToolLoopAgent it replaces, and keeps the conversation in the store", async () => {
    const plain = scriptedModel({ script });
    const before = new ToolLoopAgent({
      model: plain.model,
      instructions: "You are a careful coding agent. Read the files before you answer.",
      tools: workspaceTools({ root: "." }),
      stopWhen: stepCountIs(20),
    });
    const withCtxwin = scriptedModel({ script: [...script, { text: "It is in src/main.ts.", inputTokens: 800 }] });
    const agent = example.createProjectAgent(withCtxwin.model, "chat-1");

    const expected = await before.stream({ prompt: "What is the answer?" });
    const result = await agent.generate({ prompt: "What is the answer?" });
    expect(result.text).toBe(await expected.text);
    const outputs = (steps: typeof result.steps) =>
      steps.map((step) => step.toolResults.map((toolResult) => toolResult.output));
    expect(outputs(result.steps)).toEqual(outputs(await expected.steps));
    expect(String(result.steps[0]!.toolResults[0]!.output)).toContain("export const answer = 42;");
    expect(withCtxwin.calls[0]!.system).toContain("You are a careful coding agent.");
    expect(withCtxwin.calls[0]!.toolNames).toEqual(
      expect.arrayContaining(["read_file", "list_files", "search_text", "session_history"]),
    );

    // A later call (a new agent object, as a new request makes) brings only its new message: the earlier exchange comes from the store.
    const next = await example.createProjectAgent(withCtxwin.model, "chat-1").generate({ prompt: "Where is it?" });
    expect(next.text).toBe("It is in src/main.ts.");
    expect(withCtxwin.calls[2]!.text).toContain("user: What is the answer?");
    expect(withCtxwin.calls[2]!.text).toContain("assistant: answer is 42.");
    const rows = await storedRows(project.folder, "chat-1");
    expect(rows.map((row) => row.role)).toEqual(["user", "assistant", "assistant", "user", "assistant"]);
  });

  it("explores the folder on ctxwin's demo model, streaming", async () => {
    const agent = example.createProjectAgent(createDemoModel(), "demo-1");
    const result = await agent.stream({
      prompt:
        'Explore the folder "project": list its files, then read up to 2 of them one by one, most informative first.',
    });
    let text = "";
    for await (const delta of result.textStream) text += delta;
    expect(text).toContain("I read 2 files");
    expect(text).toContain("README.md");
    const calls = (await result.steps).flatMap((step) => step.toolCalls.map((call) => call.toolName));
    expect(calls[0]).toBe("list_files");
    expect(calls.filter((name) => name === "read_file")).toHaveLength(2);
    expect((await storedRows(project.folder, "demo-1")).length).toBeGreaterThan(2);
  });

  it("rolls over when run offline, as the README says, and says each thing once", async () => {
    let written = "";
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => warnings.push(message);
    try {
      const run = await example.exploreOffline({ chatId: "offline-1", write: (text) => (written += text) });
      expect(run.windows).toBeGreaterThan(1);
      expect(written).toBe(run.text);
      expect(run.text).toContain("I read");
    } finally {
      console.warn = warn;
    }
    expect(warnings.filter((message) => /no context limit/i.test(message))).toEqual([]);
  });
});
