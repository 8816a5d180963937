import { describe, expect, it } from "vitest";
import { BLOCK_END, BLOCK_START, TomlShapeProblem, checkToml, installTomlBlock, removeTomlBlock } from "./toml-block.js";

const block = '[mcp_servers.ctxwin]\ncommand = "ctxwin"';
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

describe("installTomlBlock and removeTomlBlock", () => {
  it("append ctxwin's block after everything else, leave every other byte, and take it out again", () => {
    const installed = installTomlBlock(CONFIG, block, { clashes: [] });
    expect(installed.startsWith(CONFIG)).toBe(true);
    expect(installed.slice(CONFIG.length)).toBe(`\n${BLOCK_START}\n${block}\n${BLOCK_END}\n`);
    expect(removeTomlBlock(installed)).toBe(CONFIG);
  });

  it("are idempotent, and replace an older block in place", () => {
    const installed = installTomlBlock(CONFIG, block, { clashes: [] });
    expect(installTomlBlock(installed, block, { clashes: [] })).toBe(installed);
    const withLater = `${installed}\n[later]\nkey = 1\n`;
    const replaced = installTomlBlock(withLater, '[mcp_servers.ctxwin]\ncommand = "npx"', { clashes: [] });
    expect(replaced).toBe(withLater.replace('command = "ctxwin"', 'command = "npx"'));
    expect(removeTomlBlock(removeTomlBlock(installed))).toBe(CONFIG);
  });

  it("work on an empty file and one without a final newline", () => {
    expect(removeTomlBlock(installTomlBlock("", block, { clashes: [] }))).toBe("");
    expect(installTomlBlock('a = 1', block, { clashes: [] })).toBe(`a = 1\n\n${BLOCK_START}\n${block}\n${BLOCK_END}\n`);
  });

  it("refuse a table ctxwin's block would clash with, naming it", () => {
    expect(() => installTomlBlock("[mcp_servers.ctxwin]\ncommand = 'mine'\n", block, { clashes: [/^\s*\[mcp_servers\.ctxwin\]/] })).toThrow(
      "it already has '[mcp_servers.ctxwin]', which ctxwin's tables would clash with; remove it first",
    );
  });

  it("refuse a block whose end marker was deleted", () => {
    expect(() => removeTomlBlock(`a = 1\n\n${BLOCK_START}\n${block}\n`)).toThrow(TomlShapeProblem);
  });
});

describe("checkToml", () => {
  it("accepts TOML with comments, multi-line arrays and strings, inline tables", () => {
    expect(() => checkToml(CONFIG)).not.toThrow();
  });

  it.each([
    ["prose", "this is not toml\n", "line 1 is not TOML"],
    ["an unclosed header", "[mcp_servers\n", "line 1 is not TOML"],
    ["an unterminated string", 'a = "open\n', "line 1 has a string that does not end on its line"],
    ["an unclosed array", "a = [1,\n2\n", "the value that starts on line 1 never ends"],
    ["a key without a value", "a =\n", "line 1 has a key without a value"],
    ["JSON", '{"a": 1}\n', "line 1 is not TOML"],
  ])("refuses %s", (_name, text, message) => {
    expect(() => checkToml(text)).toThrow(message);
  });
});
