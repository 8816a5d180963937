import { describe, expect, it } from "vitest";
import { countRowTokens } from "../core/budget/message-tokens.js";
import { scriptedModel } from "./test-support/scripted-model.js";
import { memoryStore, readTool } from "./test-support/session-fixture.js";
import { CEILING, budgetSession } from "./test-support/rollover-setup.js";

describe("a tool result too large for any window", () => {
  it("is stored intact and shown in the request as a truncated view that says how to read it", async () => {
    const store = memoryStore();
    const huge = "line of a very large log file\n".repeat(20_000); // 600,000 characters
    const { model, calls } = scriptedModel({
      script: [
        { toolCalls: [{ toolName: "read", input: { path: "big.log" } }], inputTokens: 500 },
        { text: "it is a log", inputTokens: 0 },
      ],
    });
    const session = budgetSession({ store, model, tools: { read: readTool({ "big.log": huge }) } });

    const result = await session.send("what is in big.log?");

    expect(result).toMatchObject({ status: "completed", rollovers: [], text: "it is a log" });
    expect(calls[1]!.text.length).toBeLessThan(20_000);
    const toolMessage = calls[1]!.prompt.find((message) => message.role === "tool");
    const result0 = toolMessage?.content[0];
    expect(result0?.type === "tool-result" && result0.output).toEqual({ type: "text", value: expect.any(String) });
    const view = result0?.type === "tool-result" && result0.output.type === "text" ? result0.output.value : "";
    expect(view.startsWith("line of a very large log file\n")).toBe(true);
    expect(view).toMatch(/too large for a context window \(600,000 characters/);
    const { rows } = await store.activeWindow("s");
    const stepRow = rows[1]!;
    expect(view).toContain(`session_history {"action":"read_item","item_id":"${stepRow.seq}","offset_chars":0}`);
    const part = stepRow.parts.find((candidate) => candidate.type === "tool-read") as { output: string };
    expect(part.output).toBe(huge);
    // The row caches what is stored (the whole output, model-independent); the session counts the
    // view that is sent, so the window is not counted as full: the step after it was sent, nothing
    // rolled over, and the pressure (anchored on the tool step: the answer reported no usage) is small.
    expect(stepRow.tokens).toBe(countRowTokens(stepRow));
    expect(stepRow.tokens).toBeGreaterThan(CEILING);
    expect((await session.usage()).contextTokens).toBeLessThan(5_000);
  });
});
