import { describe, expect, it } from "vitest";
import { createDemoTally, succeededCalls, toolCallSucceeded } from "./demo-tally.js";

describe("the demo report counts only what succeeded", () => {
  it("tells refused and unfinished tool calls from successful ones", () => {
    expect(toolCallSucceeded({ state: "output-available", output: "File: a.md · lines 1–2 of 2\n…" })).toBe(true);
    expect(toolCallSucceeded({ state: "output-available", output: "Error: a.md is outside the workspace." })).toBe(
      false,
    );
    expect(toolCallSucceeded({ state: "output-available", output: "Error (read_only): memory is read-only." })).toBe(
      false,
    );
    expect(toolCallSucceeded({ state: "output-available", output: { ok: false, error: { code: "not_found" } } })).toBe(
      false,
    );
    expect(toolCallSucceeded({ state: "output-available", output: { status: "refused", code: "window_fresh" } })).toBe(
      false,
    );
    expect(toolCallSucceeded({ state: "output-available", output: { ok: true, hits: [] } })).toBe(true);
    expect(toolCallSucceeded({ state: "output-error", errorText: "boom" } as never)).toBe(false);
    expect(toolCallSucceeded({ state: "input-available" })).toBe(false);
  });

  it("counts a refused read as no read, and a file read again in a later window as a re-read", () => {
    const tally = createDemoTally();
    const read = (path: string, output: string) =>
      succeededCalls([
        { type: "tool-read_file", toolCallId: path, state: "output-available", input: { path }, output } as never,
      ]);
    for (const call of [
      ...read("a.md", "File: a.md …"),
      ...read("b.md", "Error: b.md does not exist."),
      ...read("a.md", "File: a.md …"),
    ])
      tally.fileRead(String(call.input["path"]));
    expect(tally.readOrder).toEqual(["a.md"]);
    expect(tally.reReads).toEqual([]);
    tally.windowOpened("w:9");
    expect(tally.fileRead("a.md")).toBe(true);
    expect(tally.fileRead("c.md")).toBe(false);
    expect(tally.reReads).toEqual(["a.md"]);
    expect(tally.readOrder).toEqual(["a.md", "c.md"]);
  });

  it("keeps the largest request by the model's count and by the engine's checked estimate", () => {
    const tally = createDemoTally();
    tally.requestCounted(900);
    tally.requestCounted(700);
    tally.stepStored({
      metadata: { ctxwinStep: { usage: { inputTokens: 900 }, model: "m", checkedInputTokens: 1_040 } },
    });
    tally.stepStored({ metadata: { ctxwinStep: { usage: { inputTokens: 700 }, model: "m" } } });
    expect(tally.peak).toEqual({ modelCount: 900, estimate: 1_040 });
  });
});
