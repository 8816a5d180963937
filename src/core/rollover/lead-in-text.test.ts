import { describe, expect, it } from "vitest";
import { ROLLOVER_REASONS } from "../row.js";
import { leadInText } from "./lead-in-text.js";

const base = { windowId: "w:42", previousWindowId: "w:17", reason: "on-send", flushOpportunity: true } as const;

describe("leadInText", () => {
  it("names the new window and the previous one, and says how to read earlier windows", () => {
    const text = leadInText(base);
    expect(text).toContain("w:42");
    expect(text).toContain("w:17");
    for (const action of ["session_history", "list_windows", "search", "read_item"]) expect(text).toContain(action);
    expect(text).toMatch(/nothing was deleted/);
  });

  it("says it summarizes nothing and carries nothing but its options", () => {
    const text = leadInText(base);
    expect(text).toMatch(/does not summarize/);
    // Everything variable in the text comes from the options: change them and only they change.
    const other = leadInText({ ...base, windowId: "w:99", previousWindowId: "w:50" });
    expect(other.replaceAll("w:99", "w:42").replaceAll("w:50", "w:17")).toBe(text);
  });

  it("explains each rollover reason differently", () => {
    const texts = ROLLOVER_REASONS.map((reason) => leadInText({ ...base, reason }));
    expect(new Set(texts).size).toBe(ROLLOVER_REASONS.length);
    expect(leadInText({ ...base, reason: "mid-stream" })).toMatch(/step boundary/);
    expect(leadInText({ ...base, reason: "context-exceeded" })).toMatch(/too long/);
  });

  it("says when there is no session_history tool instead of pointing to it", () => {
    const text = leadInText({ ...base, historyToolAvailable: false });
    expect(text).toMatch(/no session_history tool/);
    expect(text).not.toMatch(/call session_history/);
  });

  it("mentions the notes file only when memory is on, and whether the agent could update it", () => {
    expect(leadInText(base)).not.toContain("context-notes.md");
    const path = "/memories/workspace/context-notes.md";
    expect(leadInText({ ...base, notesPath: path })).toMatch(/hot_memories/);
    const noFlush = leadInText({ ...base, notesPath: path, flushOpportunity: false });
    expect(noFlush).toMatch(/without a chance to update/);
    expect(noFlush).toContain(path);
  });
});
