/**
 * Claude Code's JSON settings as ctxwin setup edits them: by text, so the user's values come out
 * as written (numbers past a double, `1e400`, one-line arrays, a BOM, tabs, CRLF), and setup,
 * a second setup with another store, then `--remove` give the file back byte for byte.
 */
import { describe, expect, it } from "vitest";
import { installJson, uninstallJson, type JsonEntries } from "./json-settings.js";
import { setupTargets } from "./setup-targets.js";

const TOOL = "mcp__ctxwin__session_history";

function entriesFor(storeDirectory: string): { server: JsonEntries; hooks: JsonEntries } {
  const [server, hooks] = setupTargets({
    client: "claude-code",
    scope: "user",
    home: "/home/me",
    project: "/w",
    storeDirectory,
    command: ["npx", "-y", "ctxwin"],
    env: {},
  });
  return { server: (server as { entries: JsonEntries }).entries, hooks: (hooks as { entries: JsonEntries }).entries };
}
const first = entriesFor("/home/me");
const second = entriesFor("/srv/other");

const SETTINGS = `\uFEFF{
\t"theme": "dark",
\t"big": 12345678901234567890123,
\t"huge": 1e400,
\t"inline": [1, 2, {"a": [3]}],
\t"hooks": {
\t\t"PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "audit" }] }]
\t},
\t"permissions": { "allow": ["Bash(ls)"] }
}
`;
const CLAUDE_JSON =
  '{\r\n  "numStartups": 3,\r\n  "projects": {"/w": {"allowedTools": []}},\r\n  "mcpServers": {\r\n    "github": {"command": "gh"}\r\n  }\r\n}';

describe("installJson and uninstallJson", () => {
  it("setup, setup with another store, then --remove give both files back byte for byte", () => {
    const settings = installJson(SETTINGS, first.hooks);
    const claudeJson = installJson(CLAUDE_JSON, first.server);
    for (const kept of [
      "\uFEFF{",
      "12345678901234567890123",
      "1e400",
      '[1, 2, {"a": [3]}]',
      '"permissions": { "allow": ["Bash(ls)", "mcp__ctxwin__session_history"] }',
    ]) {
      expect(settings).toContain(kept);
    }
    expect(claudeJson).toContain('"projects": {"/w": {"allowedTools": []}}');
    expect(claudeJson.replaceAll("\r\n", "")).not.toContain("\n");

    const settingsAgain = installJson(settings, second.hooks);
    const claudeJsonAgain = installJson(claudeJson, second.server);
    expect(settingsAgain).toContain("--dir /srv/other");
    expect(settingsAgain).not.toContain("--dir /home/me");
    expect(claudeJsonAgain).toContain('"/srv/other"');
    expect(settingsAgain.split(TOOL)).toHaveLength(2);

    expect(uninstallJson(settingsAgain, second.hooks, { original: SETTINGS })).toBe(SETTINGS);
    expect(uninstallJson(claudeJsonAgain, second.server, { original: CLAUDE_JSON })).toBe(CLAUDE_JSON);
  });

  it("changes nothing the second time", () => {
    const settings = installJson(SETTINGS, first.hooks);
    expect(installJson(settings, first.hooks)).toBe(settings);
    expect(uninstallJson(SETTINGS, first.hooks, { original: undefined })).toBe(SETTINGS);
  });

  it("drops the containers it created and emptied, and keeps the user's empty ones", () => {
    for (const original of [
      "{}\n",
      '{\n  "hooks": {},\n  "permissions": {\n    "allow": []\n  }\n}\n',
      '{\n  "mcpServers": {}\n}\n',
    ]) {
      expect(uninstallJson(installJson(original, first.hooks), first.hooks, { original })).toBe(original);
      expect(uninstallJson(installJson(original, first.server), first.server, { original })).toBe(original);
    }
    // A file setup created (no backup) is left as {}.
    expect(uninstallJson(installJson(undefined, first.hooks), first.hooks, { original: undefined })).toBe("{}\n");
  });

  it("allows session_history only when it was not allowed, and takes it out only then", () => {
    const allowed = '{\n  "permissions": {\n    "allow": ["mcp__ctxwin__session_history"]\n  }\n}\n';
    const installed = installJson(allowed, first.hooks);
    expect(installed.split(TOOL)).toHaveLength(2);
    expect(uninstallJson(installed, first.hooks, { original: allowed })).toBe(allowed);
  });

  it("takes its handler out of a group it shares with the user's, and replaces older hooks of its own", () => {
    const shared =
      `{\n  "hooks": {\n    "SessionStart": [\n      {\n        "matcher": "compact",\n` +
      `        "hooks": [\n          { "type": "command", "command": "echo mine" },\n` +
      `          { "type": "command", "command": "ctxwin hook session-start --dir /old" }\n` +
      "        ]\n      }\n    ]\n  }\n}\n";
    const installed = installJson(shared, first.hooks);
    const parsed = JSON.parse(installed) as {
      hooks: { SessionStart: { matcher: string; hooks: { command: string }[] }[] };
    };
    expect(parsed.hooks.SessionStart.map((group) => group.hooks.map((handler) => handler.command))).toEqual([
      ["echo mine"],
      [first.hooks.sessionStart!.hooks[0]!.command],
    ]);
  });

  it("leaves one group of its own when the file holds several (a duplicate is a change, not 'unchanged')", () => {
    const once = installJson("{}\n", first.hooks);
    const group = JSON.stringify(first.hooks.sessionStart);
    const twice = once.replace(/"SessionStart": \[/, `"SessionStart": [${group}, `);
    const fixed = installJson(twice, first.hooks);
    expect(fixed).not.toBe(twice);
    expect((JSON.parse(fixed) as { hooks: { SessionStart: unknown[] } }).hooks.SessionStart).toEqual([
      first.hooks.sessionStart,
    ]);
    expect(uninstallJson(twice, first.hooks, { original: "{}\n" })).toBe("{}\n");
  });

  it("refuses a server named ctxwin that is not ctxwin's, shapes it cannot edit, and text that is not a JSON object", () => {
    expect(() => installJson('{"mcpServers": {"ctxwin": {"command": "other"}}}', first.server)).toThrow(
      "mcpServers.ctxwin is already a server that does not run 'ctxwin mcp'",
    );
    expect(() => installJson('{"hooks": []}', first.hooks)).toThrow("'hooks' is not a JSON object");
    expect(() => installJson('{"hooks": {"SessionStart": {}}}', first.hooks)).toThrow(
      "hooks.SessionStart is not an array",
    );
    expect(() => installJson('{"permissions": {"allow": "all"}}', first.hooks)).toThrow(
      "permissions.allow is not an array",
    );
    expect(() => installJson('{ "theme": ', first.hooks)).toThrow(
      /^it is not valid JSON \(ValueExpected at line 1 column 12\)$/,
    );
    expect(() => installJson("[1]", first.hooks)).toThrow("it is not a JSON object");
    expect(
      uninstallJson('{"mcpServers": {"ctxwin": {"command": "other"}}}', first.server, { original: undefined }),
    ).toBe('{"mcpServers": {"ctxwin": {"command": "other"}}}');
  });
});
