import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { callTool, makeWorkspace } from "./test-support/workspace-fixture.js";
import { WorkspaceRootError } from "./workspace-root.js";
import { workspaceTools } from "./workspace-tools.js";

const READ_CALLS = [
  (target: string) => ["read_file", { path: target }] as const,
  (target: string) => ["list_files", { path: target }] as const,
  (target: string) => ["search_text", { query: "secret", path: target }] as const,
];

async function expectRefusedEverywhere(
  tools: ReturnType<typeof workspaceTools>,
  target: string,
  pattern: RegExp,
): Promise<void> {
  for (const call of READ_CALLS) {
    const [name, input] = call(target);
    const result = await callTool(tools, name, input);
    expect(result, `${name} ${JSON.stringify(target)}`).toMatch(/^Error: /);
    expect(result, `${name} ${JSON.stringify(target)}`).toMatch(pattern);
    expect(result).not.toContain("secret!");
  }
}

describe("workspace path safety", () => {
  it("refuses .. escapes but allows .. that stays inside the root", async () => {
    const { base, root } = makeWorkspace({ "src/a.txt": "inside" });
    fs.writeFileSync(path.join(base, "outside.txt"), "secret!");
    const tools = workspaceTools({ root });
    for (const target of ["..", "../outside.txt", "src/../../outside.txt", "./../root/src/a.txt"])
      await expectRefusedEverywhere(tools, target, /leaves the workspace through "\.\."/);
    expect(await callTool(tools, "read_file", { path: "src/../src/a.txt" })).toBe(
      "File: src/a.txt · lines 1–1 of 1\ninside",
    );
  });

  it("reads absolute paths inside the root as root-relative, and refuses every other absolute path", async () => {
    const { base, root } = makeWorkspace({ "src/a.txt": "inside", "etc/passwd": "workspace copy" });
    fs.writeFileSync(path.join(base, "outside.txt"), "secret!");
    const tools = workspaceTools({ root });
    expect(await callTool(tools, "read_file", { path: path.join(root, "src/a.txt") })).toBe(
      "File: src/a.txt · lines 1–1 of 1\ninside",
    );
    expect(await callTool(tools, "list_files", { path: root })).toContain("src/a.txt (6 B)");
    for (const target of ["/etc/passwd", path.join(base, "outside.txt"), `${root}-other/x`, "/"])
      await expectRefusedEverywhere(
        tools,
        target,
        /is outside the workspace\. Paths are relative to the workspace root/,
      );
  });

  it("refuses symbolic links whose target is outside the root, dangling, or inside a protected folder", async () => {
    const { base, root } = makeWorkspace({ "src/a.txt": "inside", ".git/config": "secret!" });
    fs.mkdirSync(path.join(base, "private"));
    fs.writeFileSync(path.join(base, "private", "key.txt"), "secret!");
    fs.symlinkSync(path.join(base, "private", "key.txt"), path.join(root, "key-link"));
    fs.symlinkSync(path.join(base, "private"), path.join(root, "src", "private-dir"));
    fs.symlinkSync("../../private", path.join(root, "src", "relative-out"));
    fs.symlinkSync(path.join(root, "missing"), path.join(root, "dangling"));
    fs.symlinkSync(path.join(root, ".git"), path.join(root, "git-link"));
    fs.symlinkSync(path.join(root, "src", "a.txt"), path.join(root, "inside-link"));
    const tools = workspaceTools({ root });
    await expectRefusedEverywhere(tools, "key-link", /key-link is a symbolic link that points outside the workspace/);
    await expectRefusedEverywhere(
      tools,
      "src/private-dir/key.txt",
      /src\/private-dir is a symbolic link that points outside the workspace/,
    );
    await expectRefusedEverywhere(tools, "src/relative-out", /points outside the workspace/);
    await expectRefusedEverywhere(tools, "dangling", /target does not exist/);
    await expectRefusedEverywhere(tools, "git-link/config", /symbolic link into \.git/);
    expect(await callTool(tools, "read_file", { path: "inside-link" })).toBe(
      "File: inside-link · lines 1–1 of 1\ninside",
    );
    expect(await callTool(tools, "search_text", { query: "secret" })).toBe(
      'No matches for "secret" in . (1 file(s) searched).',
    );
  });

  it("resolves a root given through a symbolic link once, and keeps links out of it refused", async () => {
    const { base, root } = makeWorkspace({ "a.txt": "inside" });
    fs.writeFileSync(path.join(base, "outside.txt"), "secret!");
    const linkedRoot = path.join(base, "root-link");
    fs.symlinkSync(root, linkedRoot);
    fs.symlinkSync("../outside.txt", path.join(root, "out"));
    const tools = workspaceTools({ root: linkedRoot });
    expect(await callTool(tools, "read_file", { path: "a.txt" })).toBe("File: a.txt · lines 1–1 of 1\ninside");
    expect(await callTool(tools, "read_file", { path: path.join(linkedRoot, "a.txt") })).toBe(
      "File: a.txt · lines 1–1 of 1\ninside",
    );
    await expectRefusedEverywhere(tools, "out", /points outside the workspace/);
  });

  it("refuses anything inside .git or .ctxwin, at any depth and in any letter case", async () => {
    const { root } = makeWorkspace({
      ".git/config": "secret!",
      ".ctxwin/memory/notes.md": "secret!",
      "pkg/.git/HEAD": "secret!",
    });
    const tools = workspaceTools({ root });
    for (const target of [
      ".git",
      ".git/config",
      ".ctxwin/memory/notes.md",
      "pkg/.git/HEAD",
      ".GIT/config",
      "./.ctxwin",
      "pkg/../.git",
    ]) {
      await expectRefusedEverywhere(tools, target, /workspace tools do not read or write .*session_history and memory/);
    }
  });

  it("refuses NUL bytes and over-long paths", async () => {
    const { root } = makeWorkspace({ "a.txt": "a" });
    const tools = workspaceTools({ root });
    await expectRefusedEverywhere(tools, "a.txt\u0000.png", /contains a NUL byte/);
    await expectRefusedEverywhere(tools, "a/".repeat(3000), /Invalid input: path must be a path string/);
  });

  it("throws a typed error at construction when the root is missing or not a folder", () => {
    const { root } = makeWorkspace({ "file.txt": "x" });
    expect(() => workspaceTools({ root: path.join(root, "missing") })).toThrow(/does not exist/);
    try {
      workspaceTools({ root: path.join(root, "file.txt") });
      expect.unreachable();
    } catch (error) {
      expect(WorkspaceRootError.isInstance(error)).toBe(true);
    }
    expect(() => workspaceTools({ root, limits: { maxReadChars: 0 } })).toThrow(
      /limits\.maxReadChars must be a positive integer/,
    );
  });
});
