import { describe, expect, it } from "vitest";
import { parseVirtualPath } from "./virtual-path.js";

describe("parseVirtualPath", () => {
  it.each([
    ["/memories", undefined, []],
    ["/memories/", undefined, []],
    ["/memories/global", "global", []],
    ["/memories/project/", "project", []],
    ["/memories/workspace/context-notes.md", "workspace", ["context-notes.md"]],
    ["/memories/project/a b/ü 😀.md", "project", ["a b", "ü 😀.md"]],
  ])("accepts %j", (input, scope, segments) => {
    const parsed = parseVirtualPath(input);
    expect(parsed).toMatchObject({ ok: true, path: { scope, segments } });
  });

  it.each([
    ["/memories/../etc/passwd", "outside_memory"],
    ["/memories/project/../../x", "outside_memory"],
    ["/etc/passwd", "outside_memory"],
    ["memories/project/a.md", "outside_memory"],
    ["../memories/project/a.md", "outside_memory"],
    ["/memoriesX/project/a.md", "outside_memory"],
    ["/memories\\project\\a.md", "outside_memory"],
    ["C:/memories/project/a.md", "outside_memory"],
    ["/memories/project/a\u0000.md", "invalid_path"],
    ["/memories/project/a\n.md", "invalid_path"],
    ["/memories/project/./a.md", "invalid_path"],
    ["/memories/project//a.md", "invalid_path"],
    ["/memories/project/.hidden", "invalid_path"],
    ["/memories/project/.ctxwin.lock", "invalid_path"],
    ["/memories/project/a:b", "invalid_path"],
    ["/memories/other/a.md", "invalid_path"],
    [`/memories/project/${"n".repeat(256)}`, "invalid_path"],
    [`/memories/project/${"d/".repeat(17)}a.md`, "invalid_path"],
    ["", "invalid_path"],
  ])("refuses %j", (input, code) => {
    const parsed = parseVirtualPath(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.code).toBe(code);
      expect(parsed.message.length).toBeGreaterThan(10);
    }
  });

  it("refuses values that are not strings", () => {
    expect(parseVirtualPath(42)).toMatchObject({ ok: false, code: "invalid_path" });
    expect(parseVirtualPath(undefined)).toMatchObject({ ok: false, code: "invalid_path" });
  });
});
