import { describe, expect, it } from "vitest";
import { budgetWarningText } from "./budget-warning-text.js";

const base = { windowId: "w:12", contextTokens: 6_300, maxTokens: 10_000, rolloverAtTokens: 7_000 } as const;

describe("budgetWarningText", () => {
  it("gives the window, the figures and the rollover point", () => {
    const text = budgetWarningText({ ...base, memoryMode: "read-write" });
    expect(text).toContain("w:12");
    expect(text).toContain("6,300 of 10,000 tokens (63%)");
    expect(text).toContain("7,000");
  });

  it("tells a session with writable memory to update the notes file now", () => {
    const text = budgetWarningText({ ...base, memoryMode: "read-write" });
    expect(text).toContain("/memories/workspace/context-notes.md");
    expect(text).toMatch(/now/);
  });

  it.each(["off", "read-only"] as const)(
    "with memory %s, says notes cannot be saved and points to session_history",
    (memoryMode) => {
      const text = budgetWarningText({ ...base, memoryMode });
      expect(text).not.toContain("context-notes.md");
      expect(text).toContain(`Memory is ${memoryMode}`);
      expect(text).toMatch(/use session_history/);
    },
  );

  it("uses an injected notes sentence verbatim", () => {
    const text = budgetWarningText({
      ...base,
      memoryMode: "read-write",
      notesSentence: "Save your notes to NOTES.md.",
    });
    expect(text).toContain("Save your notes to NOTES.md.");
    expect(text).not.toContain("context-notes.md");
  });
});
