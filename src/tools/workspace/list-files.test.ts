import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, makeWorkspace } from "./test-support/workspace-fixture.js";
import { workspaceTools } from "./workspace-tools.js";

describe("list_files", () => {
  it("lists every file with its size, depth-first with each folder's entries sorted by name", async () => {
    const { root } = makeWorkspace({
      "b.txt": "x".repeat(1229),
      "a-b/z.md": "",
      "a/y.ts": "12345",
      "a/c/deep.txt": "d",
      "A.md": "upper",
      ".env.example": "KEY=",
    });
    const tools = workspaceTools({ root });
    const expected = [
      ".env.example (4 B)",
      "A.md (5 B)",
      "a/c/deep.txt (1 B)",
      "a/y.ts (5 B)",
      "a-b/z.md (0 B)",
      "b.txt (1.2 KB)",
    ].join("\n");
    expect(await callTool(tools, "list_files", {})).toBe(expected);
    expect(await callTool(tools, "list_files", { path: ".", recursive: true })).toBe(expected);
    expect(await callTool(tools, "list_files", { path: null, recursive: null })).toBe(expected);
  });

  it("lists one level with sub-folders as name/, and a single file as its own line", async () => {
    const { root } = makeWorkspace({ "src/index.ts": "export {};\n", "src/cli/main.ts": "", "src/z.ts": "" });
    fs.mkdirSync(path.join(root, "src", "empty"));
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "list_files", { path: "src", recursive: false })).toBe(
      ["src/cli/", "src/empty/", "src/index.ts (11 B)", "src/z.ts (0 B)"].join("\n"),
    );
    expect(await callTool(tools, "list_files", { path: "src/index.ts" })).toBe("src/index.ts (11 B)");
    expect(await callTool(tools, "list_files", { path: "src/empty" })).toBe("No files in src/empty.");
    expect(await callTool(tools, "list_files", { path: "src/empty", recursive: false })).toBe("src/empty is empty.");
    expect(await callTool(tools, "list_files", { path: "nope" })).toMatch(/^Error: nope does not exist/);
  });

  it("skips .git, node_modules and .ctxwin at every depth, and shows links without following them", async () => {
    const { root } = makeWorkspace({
      ".git/config": "[core]",
      ".ctxwin/ctxwin.db": "db",
      "node_modules/pkg/index.js": "x",
      "packages/app/node_modules/dep/index.js": "x",
      "packages/app/.git": "gitdir: ../../.git/modules/app",
      "packages/app/main.ts": "main",
      "keep.txt": "k",
    });
    fs.symlinkSync(path.join(root, "packages"), path.join(root, "loop"));
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "list_files", {})).toBe(
      ["keep.txt (1 B)", "loop (symbolic link)", "packages/app/main.ts (4 B)"].join("\n"),
    );
  });

  it("caps the listing and says how many more entries there are and how to narrow it", async () => {
    const files = Object.fromEntries(
      Array.from({ length: 30 }, (_, index) => [`dir${index % 3}/file-${String(index).padStart(2, "0")}.txt`, "x"]),
    );
    const { root } = makeWorkspace(files);
    const tools = workspaceTools({ root, limits: { maxListEntries: 7 } });
    const lines = (await callTool(tools, "list_files", {})).split("\n");
    expect(lines).toHaveLength(8);
    expect(lines[0]).toBe("dir0/file-00.txt (1 B)");
    expect(lines[7]).toBe(
      "[… 23 more entries not shown; " +
        'list a sub-folder with path (largest: "dir0" 10 entries, "dir1" 10, "dir2" 10), ' +
        "or recursive: false for one level, or use search_text]",
    );
    const oneLevel = await callTool(tools, "list_files", { recursive: false });
    expect(oneLevel).toBe("dir0/\ndir1/\ndir2/");
    const sub = (await callTool(tools, "list_files", { path: "dir1", recursive: false })).split("\n");
    expect(sub.at(-1)).toBe("[… 3 more entries not shown; list a sub-folder with path, or use search_text]");
  });
});
