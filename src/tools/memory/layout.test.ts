import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  defaultMemoryRoot,
  indexKeyOf,
  resolveMemoryLayout,
  virtualPathOfIndexKey,
  workspaceDirectoryName,
} from "./layout.js";
import { parseVirtualPath } from "./virtual-path.js";

describe("memory layout", () => {
  it("puts memory beside the store by default", () => {
    expect(defaultMemoryRoot({ storePath: "/work/app/.ctxwin/ctxwin.db" })).toBe("/work/app/.ctxwin/memory");
    expect(defaultMemoryRoot({ directory: "/work/app" })).toBe(path.join("/work/app", ".ctxwin", "memory"));
  });

  it("gives each session its own workspace directory with a safe, distinct name", () => {
    expect(workspaceDirectoryName("build-42")).toBe("build-42");
    const names = ["Build-42", "build-42 ", "../etc", "a/b", "A/B", "日本"].map(workspaceDirectoryName);
    expect(new Set([...names, "build-42"]).size).toBe(names.length + 1);
    for (const name of names) expect(name).toMatch(/^[a-z0-9_-]*~[0-9a-f]{20}$/);
  });

  it("maps index keys to this session's virtual paths only", () => {
    const layout = resolveMemoryLayout({ root: "/r", sessionId: "one" });
    const notes = parseVirtualPath("/memories/workspace/context-notes.md");
    if (!notes.ok) throw new Error(notes.message);
    expect(indexKeyOf(layout, notes.path)).toBe("workspaces/one/context-notes.md");
    expect(virtualPathOfIndexKey(layout, "workspaces/one/context-notes.md")).toBe(
      "/memories/workspace/context-notes.md",
    );
    expect(virtualPathOfIndexKey(layout, "workspaces/two/context-notes.md")).toBeUndefined();
    expect(virtualPathOfIndexKey(layout, "project/a.md")).toBe("/memories/project/a.md");
  });

  it("can keep global memory elsewhere", () => {
    const layout = resolveMemoryLayout({ root: "/r", sessionId: "one", globalRoot: "/home/me/.ctxwin/global" });
    expect(layout.scopeDirectories).toEqual({
      global: "/home/me/.ctxwin/global",
      project: "/r/project",
      workspace: "/r/workspaces/one",
    });
  });
});
