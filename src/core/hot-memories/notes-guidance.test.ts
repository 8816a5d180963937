import { describe, expect, it } from "vitest";
import { CONTEXT_NOTES_PATH } from "./limits.js";
import { memoryModeOf, notesWarningSentence } from "./notes-guidance.js";

describe("notesWarningSentence", () => {
  it("names the notes file and its allowance when memory is writable", () => {
    const sentence = notesWarningSentence({ mode: "read-write" });
    expect(sentence).toContain(CONTEXT_NOTES_PATH);
    expect(sentence).toContain("8 KiB");
    expect(sentence).not.toContain("session_history");
  });

  it.each(["off", "read-only"] as const)("points to session_history instead when memory is %s", (mode) => {
    const sentence = notesWarningSentence({ mode });
    expect(sentence).toContain("session_history");
    expect(sentence).toContain(mode);
    expect(sentence).not.toContain(CONTEXT_NOTES_PATH);
  });

  it("derives the mode from the settings", () => {
    expect(memoryModeOf({})).toBe("read-write");
    expect(memoryModeOf({ readOnly: true })).toBe("read-only");
    expect(memoryModeOf({ enabled: false, readOnly: true })).toBe("off");
  });
});
