import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isRefusal } from "./results.js";
import { callTool, makeWorkspace } from "./test-support/workspace-fixture.js";
import { isInside, resolveWorkspacePath } from "./workspace-paths.js";
import { openWorkspace } from "./workspace-root.js";
import { workspaceTools } from "./workspace-tools.js";

/** Every file below `folder` (links not followed) with its content, for before/after comparison. */
function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(folder, { recursive: true, encoding: "utf8" })) {
    const file = path.join(folder, name);
    const stats = fs.lstatSync(file);
    files[name] = stats.isSymbolicLink()
      ? `link:${fs.readlinkSync(file)}`
      : stats.isFile()
        ? fs.readFileSync(file, "utf8")
        : "folder";
  }
  return files;
}

describe("workspace paths (property)", () => {
  it("no input path reads or writes anything outside the root, or inside .git/.ctxwin", async () => {
    const { base, root } = makeWorkspace({
      "src/a.txt": "inside",
      "src/deep/b.txt": "inside",
      ".git/config": "secret!",
      ".ctxwin/memory/n.md": "secret!",
    });
    fs.mkdirSync(path.join(base, "outside"));
    fs.writeFileSync(path.join(base, "outside", "secret.txt"), "secret!");
    fs.writeFileSync(path.join(base, "root-sibling.txt"), "secret!");
    fs.symlinkSync(path.join(base, "outside"), path.join(root, "link-out"));
    fs.symlinkSync("../outside/secret.txt", path.join(root, "src", "file-link-out"));
    fs.symlinkSync(path.join(root, ".git"), path.join(root, "link-git"));
    fs.symlinkSync(path.join(root, "src"), path.join(root, "link-in"));
    const outsideBefore = snapshot(base);
    const protectedBefore = { git: snapshot(path.join(root, ".git")), ctxwin: snapshot(path.join(root, ".ctxwin")) };
    const tools = workspaceTools({ root, allowWrite: true });
    const workspace = openWorkspace({ root });

    const segment = fc.oneof(
      fc.constantFrom(
        "..",
        ".",
        "",
        "src",
        "deep",
        "a.txt",
        "b.txt",
        ".git",
        ".GIT",
        ".ctxwin",
        "link-out",
        "link-git",
        "link-in",
        "file-link-out",
        "outside",
        "secret.txt",
        "root",
        "config",
        "new",
        "\u0000",
        "~",
        "\\..",
        "...",
      ),
      fc.string({ maxLength: 6 }),
    );
    const relative = fc.array(segment, { minLength: 0, maxLength: 6 }).map((segments) => segments.join("/"));
    const anyPath = fc.oneof(
      relative,
      relative.map((rest) => `/${rest}`),
      relative.map((rest) => `${root}/${rest}`),
      relative.map((rest) => `${base}/${rest}`),
      fc.string({ maxLength: 40, unit: "grapheme" }),
    );

    await fc.assert(
      fc.asyncProperty(anyPath, async (input) => {
        const resolved = resolveWorkspacePath({ workspace, input });
        if (!isRefusal(resolved)) {
          expect(isInside(resolved.target, workspace.root), `${JSON.stringify(input)} -> ${resolved.target}`).toBe(
            true,
          );
          const inside = path.relative(workspace.root, resolved.target).split(path.sep);
          expect(inside.map((name) => name.toLowerCase())).not.toContain(".git");
          expect(inside.map((name) => name.toLowerCase())).not.toContain(".ctxwin");
        }
        const results = [
          await callTool(tools, "read_file", { path: input }),
          await callTool(tools, "list_files", { path: input }),
          await callTool(tools, "search_text", { query: "secret", path: input }),
          await callTool(tools, "write_file", { path: `${input}`, content: "pwned" }),
          await callTool(tools, "edit_file", { path: input, old_text: "secret!", new_text: "pwned" }),
        ];
        for (const result of results) expect(result).not.toContain("secret!");
      }),
      { numRuns: 300 },
    );

    const outsideAfter = snapshot(base);
    for (const [name, content] of Object.entries(outsideBefore)) {
      if (name.startsWith(`root${path.sep}`) || name === "root") continue;
      expect(outsideAfter[name], name).toBe(content);
    }
    expect(Object.keys(outsideAfter).filter((name) => !name.startsWith(`root${path.sep}`) && name !== "root")).toEqual(
      Object.keys(outsideBefore).filter((name) => !name.startsWith(`root${path.sep}`) && name !== "root"),
    );
    expect(snapshot(path.join(root, ".git"))).toEqual(protectedBefore.git);
    expect(snapshot(path.join(root, ".ctxwin"))).toEqual(protectedBefore.ctxwin);
  });
});
