import fs from "node:fs";
import { asSchema, generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONTEXT_NOTES_PATH } from "../../core/hot-memories/limits.js";
import { MEMORY_TOOL_NAME, memoryInputSchema, memoryTool } from "./memory-tool.js";
import { createMemoryFixture, type MemoryFixture } from "./test-support/memory-fixture.js";

let fixture: MemoryFixture;
beforeEach(() => {
  fixture = createMemoryFixture();
});
afterEach(() => fixture.cleanup());

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A scripted model: one tool call per step from `calls`, then a final text. */
function scriptedModel(calls: Array<Record<string, unknown>>) {
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      const call = calls[step];
      step += 1;
      if (call === undefined)
        return {
          content: [{ type: "text", text: "done" }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        };
      return {
        content: [
          { type: "tool-call", toolCallId: `call-${step}`, toolName: MEMORY_TOOL_NAME, input: JSON.stringify(call) },
        ],
        finishReason: { unified: "tool-calls", raw: "tool_use" },
        usage,
        warnings: [],
      };
    },
  });
}

describe("memoryTool with the AI SDK", () => {
  it("runs commands sent by a model, with strict-mode nulls for unused fields, and returns text results", async () => {
    const nulls = {
      path: null,
      view_range: null,
      file_text: null,
      overwrite: null,
      old_str: null,
      new_str: null,
      insert_line: null,
      insert_text: null,
      old_path: null,
      new_path: null,
    };
    const model = scriptedModel([
      { ...nulls, command: "create", path: CONTEXT_NOTES_PATH, file_text: "- goal: ship\n" },
      { ...nulls, command: "str_replace", path: CONTEXT_NOTES_PATH, old_str: "ship", new_str: "ship it" },
      { ...nulls, command: "view", path: "/memories/../etc/passwd" },
    ]);
    const result = await generateText({
      model,
      tools: { [MEMORY_TOOL_NAME]: memoryTool({ root: fixture.root, sessionId: "s1" }) },
      prompt: "remember",
      stopWhen: stepCountIs(5),
    });
    const outputs = result.steps.flatMap((step) => step.toolResults.map((toolResult) => toolResult.output));
    expect(outputs[0]).toBe(`Created ${CONTEXT_NOTES_PATH} (13 bytes).`);
    expect(outputs[1]).toContain("replaced the text at line 1");
    expect(outputs[2]).toMatch(/^Error \(outside_memory\): path "\/memories\/\.\.\/etc\/passwd" contains '\.\.'/);
    expect(fs.readFileSync(fixture.hostPath("workspace", "context-notes.md"), "utf8")).toBe("- goal: ship it\n");
    expect(result.text).toBe("done");
  });

  it("takes integers a model or client wrote as text, and still shows the model numbers", async () => {
    const model = scriptedModel([
      { command: "create", path: "/memories/project/a.md", file_text: "one\nthree\n" },
      { command: "insert", path: "/memories/project/a.md", insert_line: "1", insert_text: "two" },
      { command: "view", path: "/memories/project/a.md", view_range: ["2", "-1"] },
      { command: "insert", path: "/memories/project/a.md", insert_line: "01", insert_text: "x" },
    ]);
    const result = await generateText({
      model,
      tools: { [MEMORY_TOOL_NAME]: memoryTool({ root: fixture.root, sessionId: "s1" }) },
      prompt: "remember",
      stopWhen: stepCountIs(6),
    });
    const outputs = result.steps.flatMap((step) => [
      ...step.toolResults.map((toolResult) => toolResult.output),
      ...step.content.filter((part) => part.type === "tool-error").map((part) => String(part.error)),
    ]);
    expect(outputs[1]).toMatch(/^Inserted 1 line\(s\) into \/memories\/project\/a\.md after line 1\./);
    expect(outputs[2]).toBe("File /memories/project/a.md — lines 2 to 3 of 3:\n     2\ttwo\n     3\tthree");
    // Text that is not a canonical integer is refused by the schema, as any other wrong type is.
    expect(outputs[3]).toMatch(/Invalid input for tool memory.*insert_line/s);
    expect(fs.readFileSync(fixture.hostPath("project", "a.md"), "utf8")).toBe("one\ntwo\nthree\n");
    const schema = (await asSchema(memoryTool({ root: fixture.root, sessionId: "s1" }).inputSchema).jsonSchema) as {
      properties: Record<string, unknown>;
    };
    expect(schema.properties["insert_line"]).toEqual({ type: ["number", "null"], description: expect.any(String) });
    expect(schema.properties["view_range"]).toEqual({
      anyOf: [{ type: "array", items: { type: "number" } }, { type: "null" }],
      description: expect.any(String),
    });
  });

  it("describes itself and refuses writes when read-only", async () => {
    const readOnly = memoryTool({ root: fixture.root, sessionId: "s1", readOnly: true });
    expect(readOnly.description).toContain("Read-only");
    const output = await readOnly.execute?.(
      { command: "create", path: "/memories/project/a.md", file_text: "x" },
      { toolCallId: "1", messages: [], context: {} },
    );
    expect(output).toMatch(/^Error \(read_only\)/);
  });

  it("uses Anthropic's field names, with only the command required", async () => {
    const schema = (await asSchema(memoryInputSchema).jsonSchema) as {
      properties: Record<string, unknown>;
      required?: string[];
    };
    expect(Object.keys(schema.properties).sort()).toEqual(
      [
        "command",
        "file_text",
        "insert_line",
        "insert_text",
        "new_path",
        "new_str",
        "old_path",
        "old_str",
        "overwrite",
        "path",
        "view_range",
      ].sort(),
    );
    expect(schema.required).toEqual(["command"]);
    expect(memoryInputSchema.safeParse({ command: "view", path: "/memories", view_range: null }).success).toBe(true);
  });
});
