import path from "node:path";
import { describe, expect, it } from "vitest";
import { claudeConfigFolder, claudeGlobalConfigFile, codexHome } from "./client-folders.js";
import { defaultSourceFolder } from "./source-files.js";

describe("the CLIs' folders", () => {
  it("are ~/.claude, ~/.claude.json and ~/.codex by default (an empty variable counts as unset)", () => {
    const env = { CLAUDE_CONFIG_DIR: "", CODEX_HOME: undefined };
    expect(claudeConfigFolder({ home: "/home/me", env })).toBe("/home/me/.claude");
    expect(claudeGlobalConfigFile({ home: "/home/me", env })).toBe("/home/me/.claude.json");
    expect(codexHome({ home: "/home/me", env })).toBe("/home/me/.codex");
    expect(defaultSourceFolder("codex", "/home/me", env)).toBe("/home/me/.codex/sessions");
  });

  it("follow CLAUDE_CONFIG_DIR (which then holds .claude.json) and CODEX_HOME, relative ones from the current folder", () => {
    const env = { CLAUDE_CONFIG_DIR: "/cfg/claude", CODEX_HOME: "codex-home" };
    expect(claudeConfigFolder({ home: "/home/me", env })).toBe("/cfg/claude");
    expect(claudeGlobalConfigFile({ home: "/home/me", env })).toBe("/cfg/claude/.claude.json");
    expect(codexHome({ home: "/home/me", env })).toBe(path.resolve("codex-home"));
    expect(defaultSourceFolder("claude-code", "/home/me", env)).toBe("/cfg/claude/projects");
    expect(defaultSourceFolder("codex", "/home/me", env)).toBe(path.join(path.resolve("codex-home"), "sessions"));
  });
});
