/**
 * Codex's config.toml as ctxwin setup edits it: the block it appends and takes out again byte for
 * byte; ctxwin's entries found in any spelling and after Codex rewrote the file (fixtures/toml);
 * definitions of someone else's refused with one sentence; CRLF and a missing final newline.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { setupTargets } from "./setup-targets.js";
import { BLOCK_END, BLOCK_START, installTomlBlock, removeTomlEntries, type TomlEntries } from "./toml-block.js";

const fixture = (name: string): string =>
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "toml", name), "utf8");

const [target] = setupTargets({
  client: "codex",
  scope: "user",
  home: "/home/me",
  project: "/w",
  storeDirectory: "/home/me",
  command: ["/usr/bin/node", "/opt/ctxwin/dist/cli/main.js"],
  env: {},
});
const entries = (target as { entries: TomlEntries }).entries;
const layout = entries.layout;
const elsewhere = (
  setupTargets({
    client: "codex",
    scope: "user",
    home: "/home/me",
    project: "/w",
    storeDirectory: "/srv/other",
    command: ["npx", "-y", "ctxwin"],
    env: {},
  })[0] as { entries: TomlEntries }
).entries;

const CONFIG = `# my settings, kept as they are
model = "o3"   # inline comment
notify = ["a",
  "b", # a comment in an array
]
instructions = """
multi [ line { "string
"""

[mcp_servers.other]
command = 'x'
env = { KEY = "v" }
`;

describe("installTomlBlock and removeTomlEntries", () => {
  it("append ctxwin's block after everything else, leave every other byte, and take it out again", () => {
    const installed = installTomlBlock(CONFIG, entries);
    expect(installed.startsWith(CONFIG)).toBe(true);
    expect(installed.slice(CONFIG.length)).toBe(`\n${BLOCK_START}\n${entries.block}\n${BLOCK_END}\n`);
    expect(parse(installed)).toMatchObject({
      mcp_servers: { ctxwin: { command: "/usr/bin/node" } },
      hooks: { SessionStart: [{ matcher: "resume" }], PostCompact: [{}] },
    });
    expect(removeTomlEntries(installed, layout)).toBe(CONFIG);
  });

  it("are idempotent, and a second setup with another store replaces ctxwin's entries (never a second copy)", () => {
    const installed = installTomlBlock(CONFIG, entries);
    expect(installTomlBlock(installed, entries)).toBe(installed);
    const moved = installTomlBlock(installed, elsewhere);
    expect(moved).toContain('"--dir", "/srv/other"');
    expect(moved).not.toContain('"--dir", "/home/me"');
    expect(moved.split(BLOCK_START)).toHaveLength(2);
    expect(removeTomlEntries(moved, layout)).toBe(CONFIG);
    expect(removeTomlEntries(CONFIG, layout)).toBe(CONFIG);
  });

  it("work on an empty file, one without a final newline, and a CRLF file (which keeps CRLF)", () => {
    expect(removeTomlEntries(installTomlBlock("", entries), layout)).toBe("");
    expect(installTomlBlock("a = 1", entries)).toBe(`a = 1\n${BLOCK_START}\n${entries.block}\n${BLOCK_END}\n`);
    expect(removeTomlEntries(installTomlBlock("a = 1", entries), layout)).toBe("a = 1");
    expect(removeTomlEntries(installTomlBlock("a = 1\n", entries), layout)).toBe("a = 1\n");
    expect(removeTomlEntries(installTomlBlock('x = 1\r\nmodel = "o3"', entries), layout)).toBe('x = 1\r\nmodel = "o3"');
    const crlf = 'model = "o3"\r\n\r\n[features]\r\nweb_search = true\r\n';
    const installed = installTomlBlock(crlf, entries);
    expect(installed.replaceAll("\r\n", "")).not.toContain("\n");
    expect(removeTomlEntries(installed, layout)).toBe(crlf);
  });

  it("count a duplicated hook group as a change, and leave exactly one", () => {
    const installed = installTomlBlock(CONFIG, entries);
    const group = installed.slice(
      installed.indexOf("[[hooks.SessionStart]]"),
      installed.indexOf("[[hooks.PostCompact]]"),
    );
    const duplicated = `${installed}${group}`;
    const fixed = installTomlBlock(duplicated, entries);
    expect(fixed).not.toBe(duplicated);
    expect((parse(fixed) as { hooks: { SessionStart: unknown[] } }).hooks.SessionStart).toHaveLength(1);
    expect(removeTomlEntries(duplicated, layout)).toBe(CONFIG);
  });

  it("refuse a file whose whole block is there twice (Codex cannot load it either) rather than guess", () => {
    const installed = installTomlBlock(CONFIG, entries);
    const twice = `${installed}\n${installed.slice(CONFIG.length)}`;
    expect(() => installTomlBlock(twice, entries)).toThrow(/^it is not valid TOML \(.*redefine.* at line \d+\)$/);
    expect(() => removeTomlEntries(twice, layout)).toThrow(/^it is not valid TOML/);
  });
});

describe("a definition of someone else's in ctxwin's way: refused with one sentence", () => {
  it.each([
    ["foreign-inline-server.toml", /already has an MCP server 'ctxwin' that does not run 'ctxwin mcp'/],
    ["foreign-literal-key.toml", /already has an MCP server 'ctxwin' that does not run 'ctxwin mcp'/],
    ["foreign-dotted-key.toml", /already has an MCP server 'ctxwin' that does not run 'ctxwin mcp'/],
    ["foreign-escaped-key.toml", /already has an MCP server 'ctxwin' that does not run 'ctxwin mcp'/],
    ["session-start-table.toml", /'hooks\.SessionStart' is a table, not a list of \[\[hooks\.SessionStart\]\] groups/],
  ])("%s", (name, message) => {
    expect(() => installTomlBlock(fixture(name), entries)).toThrow(message);
    expect(removeTomlEntries(fixture(name), layout)).toBe(fixture(name));
  });

  it.each([
    [
      "servers written inline at the top",
      'mcp_servers = { github = { command = "gh" } }\n',
      /cannot be added without changing yours/,
    ],
    ["a static hooks array", 'hooks.SessionStart = [{ matcher = "x" }]\n', /cannot be added without changing yours/],
    ["hooks as a value", "hooks = 1\n", /'hooks' is not a table/],
    ["invalid TOML", 'model = "o3\n', /^it is not valid TOML \(.* at line 1\)$/],
  ])("%s", (_name, text, message) => {
    expect(() => installTomlBlock(text, entries)).toThrow(message);
  });
});

describe("ctxwin's own entries, however they are written", () => {
  it("an inline server under [mcp_servers] is replaced by the block; the other server stays", () => {
    const text = fixture("own-inline-server.toml");
    const installed = installTomlBlock(text, entries);
    expect(installed).toContain('github = { command = "gh-mcp" }');
    expect(installed.split("ctxwin = {")).toHaveLength(1);
    expect(removeTomlEntries(installed, layout)).toBe(
      'model = "o3"\n\n[mcp_servers]\ngithub = { command = "gh-mcp" }\n',
    );
  });

  it("a server under an escaped key is replaced; the tables after it stay", () => {
    const installed = installTomlBlock(fixture("own-escaped-key.toml"), entries);
    expect(installed).not.toContain("ctx\\u0077in");
    expect(installed).toContain("[features]\nweb_search = true\n");
    expect(removeTomlEntries(installed, layout)).toBe('model = "o3"\n\n[features]\nweb_search = true\n');
  });

  it("after Codex rewrote the file (no markers, its own tables after ctxwin's): --remove takes out exactly ctxwin's", () => {
    const rewritten = fixture("codex-rewritten.toml");
    expect(removeTomlEntries(rewritten, layout)).toBe(fixture("codex-rewritten.expected.toml"));
    // setup again: the entries are there, once each (unchanged); with another store it replaces them
    expect(installTomlBlock(rewritten, entries)).toBe(rewritten);
    const again = installTomlBlock(rewritten, elsewhere);
    expect(again).toBe(
      `${fixture("codex-rewritten.expected.toml")}\n${BLOCK_START}\n${elsewhere.block}\n${BLOCK_END}\n`,
    );
  });

  it("Codex's tables that ended up between ctxwin's markers are kept", () => {
    expect(removeTomlEntries(fixture("tables-inside-markers.toml"), layout)).toBe(
      fixture("tables-inside-markers.expected.toml"),
    );
  });

  it("the user's hook groups before and after ctxwin's stay, in order", () => {
    const removed = removeTomlEntries(fixture("user-hooks-around.toml"), layout);
    expect(
      (parse(removed) as { hooks: { SessionStart: { matcher: string }[] } }).hooks.SessionStart.map(
        (group) => group.matcher,
      ),
    ).toEqual(["startup", "clear"]);
    expect(removed).not.toContain("ctxwin");
  });
});
