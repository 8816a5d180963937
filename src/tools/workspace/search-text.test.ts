import { describe, expect, it } from "vitest";
import { excerpt } from "./search-text.js";
import { callTool, makeWorkspace } from "./test-support/workspace-fixture.js";
import { workspaceTools } from "./workspace-tools.js";

describe("search_text", () => {
  it("finds a literal string case-insensitively, one line per matching line, in the walk's order", async () => {
    const { root } = makeWorkspace({
      "src/b.ts": "const RetryPolicy = 1;\nno\nretrypolicy.apply(); retryPolicy\n",
      "src/a.ts": "// retry policy.*\nimport { retryPolicy } from './b';\r\n",
      "README.md": "Configure the retryPolicy (see src/b.ts)",
    });
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "search_text", { query: "retrypolicy" })).toBe(
      [
        "README.md:1: Configure the retryPolicy (see src/b.ts)",
        "src/a.ts:2: import { retryPolicy } from './b';",
        "src/b.ts:1: const RetryPolicy = 1;",
        "src/b.ts:3: retrypolicy.apply(); retryPolicy",
      ].join("\n"),
    );
    expect(await callTool(tools, "search_text", { query: "policy.*" })).toBe("src/a.ts:1: // retry policy.*");
    expect(await callTool(tools, "search_text", { query: "RETRYPOLICY", path: "src/b.ts", limit: null })).toBe(
      "src/b.ts:1: const RetryPolicy = 1;\nsrc/b.ts:3: retrypolicy.apply(); retryPolicy",
    );
  });

  it("answers a search without matches in one line", async () => {
    const { root } = makeWorkspace({ "a.txt": "alpha", "b.txt": "beta" });
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "search_text", { query: "gamma" })).toBe(
      'No matches for "gamma" in . (2 file(s) searched).',
    );
  });

  it("skips binary files, files over the size cap and the skipped folders, and says so", async () => {
    const { root } = makeWorkspace({
      "data.bin": Buffer.concat([Buffer.from("needle"), Buffer.from([0])]),
      "huge.txt": `needle\n${"x".repeat(2000)}`,
      "node_modules/dep/index.js": "needle",
      ".git/HEAD": "needle",
      ".ctxwin/memory/notes.md": "needle",
      "ok.txt": "a needle here",
    });
    const tools = workspaceTools({ root, limits: { maxSearchFileBytes: 1000 } });
    expect(await callTool(tools, "search_text", { query: "needle" })).toBe(
      "ok.txt:1: a needle here\n[1 file(s) searched; skipped 1 binary, 1 over 1000 B]",
    );
    expect(await callTool(tools, "search_text", { query: "needle", path: "huge.txt" })).toMatch(
      /^Error: huge\.txt is 2\.0 KB, over the 1000 B search limit; read it in parts/,
    );
  });

  it("caps the matches and counts the rest", async () => {
    const { root } = makeWorkspace({ "a.txt": Array.from({ length: 30 }, (_, index) => `hit ${index}`).join("\n") });
    const tools = workspaceTools({ root, limits: { maxSearchMatches: 10 } });
    const lines = (await callTool(tools, "search_text", { query: "HIT", limit: 4 })).split("\n");
    expect(lines).toEqual([
      "a.txt:1: hit 0",
      "a.txt:2: hit 1",
      "a.txt:3: hit 2",
      "a.txt:4: hit 3",
      "[… 26 more matches not shown; narrow with path or a longer query, raise limit (up to 10)]",
    ]);
    const full = (await callTool(tools, "search_text", { query: "hit" })).split("\n");
    expect(full.at(-1)).toBe("[… 20 more matches not shown; narrow with path or a longer query]");
    expect(await callTool(tools, "search_text", { query: "hit", limit: 11 })).toBe(
      "Error: Invalid input: limit must be an integer from 1 to 10; got 11.",
    );
  });

  it("cuts long lines around the match to maxLineChars", async () => {
    const line = `${"a".repeat(1000)}NEEDLE${"b".repeat(1000)}`;
    const { root } = makeWorkspace({ "min.js": line });
    const tools = workspaceTools({ root, limits: { maxLineChars: 40 } });
    const result = await callTool(tools, "search_text", { query: "needle" });
    const text = result.slice("min.js:1: ".length);
    expect(text).toHaveLength(40);
    expect(text).toMatch(/^…a+NEEDLEb+…$/);
    expect(excerpt({ line: "short line\r", at: 0, length: 5, maxLineChars: 40 })).toBe("short line");
    expect(excerpt({ line: `needle${"x".repeat(100)}`, at: 0, length: 6, maxLineChars: 20 })).toBe(
      `needle${"x".repeat(12)}…`,
    );
    expect(excerpt({ line: `${"x".repeat(100)}needle`, at: 100, length: 6, maxLineChars: 20 })).toBe(
      `…${"x".repeat(12)}needle`,
    );
  });

  it("refuses empty and multi-line queries", async () => {
    const { root } = makeWorkspace({ "a.txt": "a" });
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "search_text", { query: "" })).toMatch(
      /^Error: Invalid input: query must be a non-empty string/,
    );
    expect(await callTool(tools, "search_text", { query: "a\nb" })).toMatch(/^Error: query contains a line break/);
  });
});
