import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, makeWorkspace } from "./test-support/workspace-fixture.js";
import { WORKSPACE_READ_TOOL_NAMES, WORKSPACE_WRITE_TOOL_NAMES, workspaceTools } from "./workspace-tools.js";

function filesIn(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, encoding: "utf8" }).sort();
}

describe("workspace write tools", () => {
  it("exist only with allowWrite: true", () => {
    const { root } = makeWorkspace();
    expect(Object.keys(workspaceTools({ root })).sort()).toEqual([...WORKSPACE_READ_TOOL_NAMES].sort());
    expect(Object.keys(workspaceTools({ root, allowWrite: false })).sort()).toEqual(
      [...WORKSPACE_READ_TOOL_NAMES].sort(),
    );
    expect(Object.keys(workspaceTools({ root, allowWrite: true })).sort()).toEqual(
      [...WORKSPACE_READ_TOOL_NAMES, ...WORKSPACE_WRITE_TOOL_NAMES].sort(),
    );
  });

  it("write_file creates folders, replaces files keeping their mode, and leaves no temporary files", async () => {
    const { root } = makeWorkspace({ "run.sh": "old" });
    fs.chmodSync(path.join(root, "run.sh"), 0o755);
    const tools = workspaceTools({ root, allowWrite: true });
    expect(await callTool(tools, "write_file", { path: "docs/new/ü.md", content: "# Title\n\nbody\n" })).toBe(
      "Created docs/new/ü.md (3 lines, 14 B).",
    );
    expect(fs.readFileSync(path.join(root, "docs/new/ü.md"), "utf8")).toBe("# Title\n\nbody\n");
    expect(await callTool(tools, "write_file", { path: "run.sh", content: "#!/bin/sh\necho hi" })).toBe(
      "Replaced run.sh (2 lines, 17 B).",
    );
    expect(fs.statSync(path.join(root, "run.sh")).mode & 0o777).toBe(0o755);
    expect(await callTool(tools, "write_file", { path: "empty.txt", content: "" })).toBe(
      "Created empty.txt (0 lines, 0 B).",
    );
    expect(await callTool(tools, "read_file", { path: "run.sh" })).toBe(
      "File: run.sh · lines 1–2 of 2\n#!/bin/sh\necho hi",
    );
    expect(filesIn(root).filter((name) => name.includes(".ctxwin-tmp-"))).toEqual([]);
  });

  it("write_file refuses folders, escapes, protected folders, links out and non-text content without writing", async () => {
    const { base, root } = makeWorkspace({ "src/a.txt": "a" });
    fs.mkdirSync(path.join(base, "outside"));
    fs.symlinkSync(path.join(base, "outside"), path.join(root, "out-dir"));
    const tools = workspaceTools({ root, allowWrite: true });
    const cases: [string, string, RegExp][] = [
      ["src", "x", /^Error: src is a folder/],
      [".", "x", /^Error: \. is a folder/],
      ["../escape.txt", "x", /leaves the workspace/],
      [path.join(base, "escape.txt"), "x", /is outside the workspace/],
      [".git/hooks/pre-commit", "x", /inside \.git/],
      [".ctxwin/memory/notes.md", "x", /inside \.ctxwin/],
      ["out-dir/x.txt", "x", /points outside the workspace/],
      ["src/a.txt/child", "x", /src\/a\.txt is a file, not a folder/],
      ["nul.txt", "a\u0000b", /contains NUL bytes/],
      ["bad.txt", "\ud800", /invalid Unicode/],
    ];
    for (const [target, content, pattern] of cases)
      expect(await callTool(tools, "write_file", { path: target, content }), target).toMatch(pattern);
    expect(filesIn(base)).toEqual(["outside", "root", "root/out-dir", "root/src", "root/src/a.txt"]);
  });

  it("edit_file replaces exactly one occurrence and reports where", async () => {
    const { root } = makeWorkspace({ "src/config.ts": "export const retries = 3;\nexport const delay = 100;\n" });
    const tools = workspaceTools({ root, allowWrite: true });
    expect(
      await callTool(tools, "edit_file", {
        path: "src/config.ts",
        old_text: "delay = 100",
        new_text: "delay = 250;\nexport const jitter = 0.1",
      }),
    ).toBe("Edited src/config.ts: old_text was at line 2; replaced it with 2 lines. The file now has 3 lines.");
    expect(fs.readFileSync(path.join(root, "src/config.ts"), "utf8")).toBe(
      "export const retries = 3;\nexport const delay = 250;\nexport const jitter = 0.1;\n",
    );
    expect(
      await callTool(tools, "edit_file", {
        path: "src/config.ts",
        old_text: "export const jitter = 0.1;\n",
        new_text: "",
      }),
    ).toMatch(/old_text was at line 3; deleted the text/);
  });

  it("edit_file refuses zero or several occurrences, listing the lines of the matches, and changes nothing", async () => {
    const content = "a = 1\nb = 1\nc = 2\nd = 1\nX\r\nY\r\n";
    const { root } = makeWorkspace({
      "vars.txt": content,
      "bin.dat": Buffer.from([1, 0, 2]),
      "latin1.txt": Buffer.from([0x63, 0x61, 0x66, 0xe9]),
    });
    const tools = workspaceTools({ root, allowWrite: true });
    expect(await callTool(tools, "edit_file", { path: "vars.txt", old_text: "= 1", new_text: "= 9" })).toBe(
      "Error: old_text occurs 3 times in vars.txt (at lines 1, 2, 4); include more surrounding text so that it occurs exactly once.",
    );
    expect(await callTool(tools, "edit_file", { path: "vars.txt", old_text: "e = 5", new_text: "e = 6" })).toMatch(
      /^Error: old_text was not found in vars\.txt; read the file/,
    );
    expect(await callTool(tools, "edit_file", { path: "vars.txt", old_text: "X\nY", new_text: "Z" })).toMatch(
      /CRLF line endings/,
    );
    expect(await callTool(tools, "edit_file", { path: "vars.txt", old_text: "x\r", new_text: "Z" })).toMatch(
      /different letter case/,
    );
    expect(await callTool(tools, "edit_file", { path: "vars.txt", old_text: "", new_text: "Z" })).toMatch(
      /^Error: Invalid input: old_text must be a non-empty string/,
    );
    expect(await callTool(tools, "edit_file", { path: "vars.txt", old_text: "c = 2", new_text: "c = 2" })).toMatch(
      /^Error: new_text is the same as old_text/,
    );
    expect(await callTool(tools, "edit_file", { path: "missing.txt", old_text: "a", new_text: "b" })).toMatch(
      /^Error: missing\.txt does not exist; use write_file/,
    );
    expect(await callTool(tools, "edit_file", { path: "bin.dat", old_text: "a", new_text: "b" })).toMatch(
      /^Error: bin\.dat is a binary file/,
    );
    expect(await callTool(tools, "edit_file", { path: "latin1.txt", old_text: "caf", new_text: "b" })).toMatch(
      /^Error: latin1\.txt is not valid UTF-8/,
    );
    expect(fs.readFileSync(path.join(root, "vars.txt"), "utf8")).toBe(content);
    expect(await callTool(tools, "edit_file", { path: "vars.txt", old_text: "aa", new_text: "b" })).toMatch(
      /not found/,
    );
  });

  it("edit_file counts overlapping occurrences as ambiguous", async () => {
    const { root } = makeWorkspace({ "a.txt": "aaa" });
    const tools = workspaceTools({ root, allowWrite: true });
    expect(await callTool(tools, "edit_file", { path: "a.txt", old_text: "aa", new_text: "b" })).toBe(
      "Error: old_text occurs 2 times in a.txt (at lines 1, 1); include more surrounding text so that it occurs exactly once.",
    );
  });
});
