import { describe, expect, it } from "vitest";
import { installJson, parseSettings, renderSettings, uninstallJson, type JsonEntries, type JsonObject } from "./json-settings.js";

const entries: JsonEntries = {
  mcpServer: { name: "ctxwin", entry: { type: "stdio", command: "npx", args: ["-y", "ctxwin", "mcp", "--dir", "/home/me", "--import", "claude-code"] } },
  sessionStart: { matcher: "compact|resume", hooks: [{ type: "command", command: "npx -y ctxwin hook session-start --client claude-code --dir /home/me", timeout: 10 }] },
};

const theirs: JsonObject = {
  theme: "dark",
  mcpServers: { github: { command: "gh-mcp", args: [] } },
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "audit" }] }],
    SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "echo hello" }] }],
  },
  unknownFutureKey: { nested: [1, 2, 3] },
};

describe("installJson", () => {
  it("adds ctxwin's server and hook, keeping every other key and their order", () => {
    const installed = installJson(theirs, entries);
    expect(Object.keys(installed)).toEqual(Object.keys(theirs));
    expect(installed["unknownFutureKey"]).toEqual(theirs["unknownFutureKey"]);
    expect(installed["mcpServers"]).toEqual({ github: { command: "gh-mcp", args: [] }, ctxwin: entries.mcpServer?.entry });
    const hooks = installed["hooks"] as { PreToolUse: unknown; SessionStart: unknown[] };
    expect(hooks.PreToolUse).toEqual((theirs["hooks"] as { PreToolUse: unknown }).PreToolUse);
    expect(hooks.SessionStart).toEqual([{ matcher: "startup", hooks: [{ type: "command", command: "echo hello" }] }, entries.sessionStart]);
  });

  it("changes nothing the second time, and replaces an older ctxwin hook rather than adding one", () => {
    const installed = installJson(theirs, entries);
    expect(installJson(installed, entries)).toBe(installed);
    const moved = { ...entries, sessionStart: { ...entries.sessionStart!, hooks: [{ ...entries.sessionStart!.hooks[0]!, command: "ctxwin hook session-start --dir /elsewhere" }] } };
    const again = installJson(installed, moved);
    expect((again["hooks"] as { SessionStart: unknown[] }).SessionStart).toEqual([{ matcher: "startup", hooks: [{ type: "command", command: "echo hello" }] }, moved.sessionStart]);
  });

  it("refuses a server named ctxwin that is not ctxwin, and shapes it cannot edit", () => {
    expect(() => installJson({ mcpServers: { ctxwin: { command: "other" } } }, entries)).toThrow("mcpServers.ctxwin is already a server that does not run 'ctxwin mcp'");
    expect(() => installJson({ hooks: [] }, entries)).toThrow("'hooks' is not a JSON object");
    expect(() => installJson({ hooks: { SessionStart: {} } }, entries)).toThrow("hooks.SessionStart is not an array");
  });
});

describe("uninstallJson", () => {
  it("gives back the settings as they were before setup", () => {
    expect(uninstallJson(installJson(theirs, entries), { mcpServer: entries.mcpServer, sessionStart: true })).toEqual(theirs);
    expect(uninstallJson(installJson({}, entries), { mcpServer: entries.mcpServer, sessionStart: true })).toEqual({});
  });

  it("takes out a server that is exactly setup's entry, whatever command runs ctxwin", () => {
    const custom: JsonEntries = { mcpServer: { name: "ctxwin", entry: { type: "stdio", command: "node", args: ["/opt/x/dist/cli/main.js", "mcp"] } } };
    const installed = installJson({}, custom);
    expect(installJson(installed, custom)).toBe(installed);
    expect(uninstallJson(installed, { mcpServer: custom.mcpServer })).toEqual({});
  });

  it("leaves a server named ctxwin that does not run ctxwin", () => {
    const foreign = { mcpServers: { ctxwin: { command: "other" } } };
    expect(uninstallJson(foreign, { mcpServer: entries.mcpServer, sessionStart: true })).toEqual(foreign);
  });
});

describe("parseSettings and renderSettings", () => {
  it("reads an absent or empty file as {} and refuses what is not a JSON object", () => {
    expect(parseSettings(undefined)).toEqual({});
    expect(parseSettings(" \n")).toEqual({});
    expect(() => parseSettings("{ broken")).toThrow(/^it is not valid JSON/);
    expect(() => parseSettings("[1]")).toThrow("it is not a JSON object");
  });

  it("keeps the text when nothing changed and the file's indentation when something did", () => {
    const text = '{\n    "theme":   "dark"\n}';
    const settings = parseSettings(text);
    expect(renderSettings(text, settings, settings)).toBe(text);
    expect(renderSettings(text, settings, { ...settings, x: 1 })).toBe('{\n    "theme": "dark",\n    "x": 1\n}\n');
  });
});
